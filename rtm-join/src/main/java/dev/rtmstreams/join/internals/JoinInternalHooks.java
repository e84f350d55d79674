package dev.rtmstreams.join.internals;

import dev.rtmstreams.processor.spi.KafkaInternalHook;
import dev.rtmstreams.processor.spi.KafkaInternalHooks;
import java.util.List;

/**
 * The Kafka Streams internals rtm-join reaches into ({@link KafkaStreamsInternals}), listed for {@code RtmStreams}'
 * compatibility check through {@code META-INF/services}. Each probe runs the same lookup the join runs when its
 * topology is built.
 */
public final class JoinInternalHooks implements KafkaInternalHooks {

    static final String MODULE = "rtm-join";

    /** For {@link java.util.ServiceLoader}. */
    public JoinInternalHooks() {}

    @Override
    public List<KafkaInternalHook> hooks() {
        return List.of(
                new KafkaInternalHook(
                        "join.repartition-required",
                        MODULE,
                        "repartitioning a join input whose key was changed upstream (repartitionIfKeyChanged)",
                        () -> KafkaStreamsInternals.repartitionRequiredField(Class.forName(
                                KafkaStreamsInternals.KSTREAM_IMPL, false, JoinInternalHooks.class.getClassLoader()))),
                new KafkaInternalHook(
                        "join.copartition-group",
                        MODULE,
                        "sizing the join's repartition topics as one co-partition group",
                        KafkaStreamsInternals::ensureCopartitionWith));
    }
}
