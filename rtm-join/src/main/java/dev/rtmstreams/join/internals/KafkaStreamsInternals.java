package dev.rtmstreams.join.internals;

import dev.rtmstreams.processor.spi.KafkaStreamsVersion;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.Collection;
import java.util.List;
import org.apache.kafka.streams.kstream.KStream;

/**
 * The one place that reaches into Kafka Streams' non-public DSL classes (by reflection, as Kafka Streams' own joins
 * do from inside): whether a stream's key may have changed, and registering two streams as a co-partition group.
 * Verified against {@value #VERIFIED_KAFKA_VERSION} (a test pins it) and tested on every Kafka Streams version of
 * {@link KafkaStreamsVersion#SUPPORTED_RANGE}. Fails closed: if a future Kafka Streams changes these internals,
 * building the topology fails with an error saying what to do instead of silently assuming an answer that could make
 * the join miss matches; {@code RtmStreams} checks both up front ({@link JoinInternalHooks}).
 */
final class KafkaStreamsInternals {

    /** The Kafka Streams version these reflective accesses were verified against. */
    static final String VERIFIED_KAFKA_VERSION = "4.4.0";

    /** Kafka Streams' DSL stream class every {@code KStream} extends. */
    static final String ABSTRACT_STREAM = "org.apache.kafka.streams.kstream.internals.AbstractStream";

    /** Kafka Streams' {@code KStream} implementation, the class holding {@code repartitionRequired}. */
    static final String KSTREAM_IMPL = "org.apache.kafka.streams.kstream.internals.KStreamImpl";

    private KafkaStreamsInternals() {}

    /**
     * @param stream a DSL stream
     * @return whether Kafka Streams marked it as needing a repartition (its key was changed by selectKey/map/...),
     *     {@code KStreamImpl#repartitionRequired}
     * @throws IllegalStateException when this Kafka Streams version does not expose the flag, saying how to proceed
     */
    static boolean repartitionRequired(KStream<?, ?> stream) {
        try {
            return repartitionRequiredField(stream.getClass()).getBoolean(stream);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw unsupported(
                    "tell whether an input's key was changed upstream (KStreamImpl#repartitionRequired)",
                    "repartition such inputs yourself (KStream#repartition) and build the join with"
                            + " repartitionIfKeyChanged(false)",
                    e);
        }
    }

    /**
     * Registers both streams as one co-partition group, as Kafka Streams' built-in joins do
     * ({@code AbstractStream#ensureCopartitionWith}): repartition topics created for either are sized to match. It
     * does not make Kafka Streams 4.4 reject source topics of different partition counts (see
     * {@code IntervalJoin#verifyCopartitioned}).
     *
     * @throws IllegalStateException when this Kafka Streams version does not have the method
     */
    static void ensureCopartitioned(KStream<?, ?> left, KStream<?, ?> right) {
        try {
            ensureCopartitionWith().invoke(left, List.of(right));
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw unsupported(
                    "register the join's inputs as a co-partition group (AbstractStream#ensureCopartitionWith)",
                    "use a Kafka Streams version rtm-join supports",
                    e);
        }
    }

    /**
     * @param streamClass a DSL stream's class ({@code KStreamImpl})
     * @return its accessible {@code repartitionRequired} flag
     * @throws ReflectiveOperationException when the class has no such field
     * @throws IllegalStateException when the field is not a boolean
     */
    static Field repartitionRequiredField(Class<?> streamClass) throws ReflectiveOperationException {
        Field f = streamClass.getDeclaredField("repartitionRequired");
        if (f.getType() != boolean.class) {
            throw new IllegalStateException(streamClass.getName() + "#repartitionRequired is a " + f.getType());
        }
        f.setAccessible(true);
        return f;
    }

    /**
     * @return the accessible {@code AbstractStream#ensureCopartitionWith(Collection)}
     * @throws ReflectiveOperationException when Kafka Streams has no such class or method
     */
    static Method ensureCopartitionWith() throws ReflectiveOperationException {
        Class<?> abstractStream = Class.forName(ABSTRACT_STREAM, false, KafkaStreamsInternals.class.getClassLoader());
        Method m = abstractStream.getDeclaredMethod("ensureCopartitionWith", Collection.class);
        m.setAccessible(true);
        return m;
    }

    private static IllegalStateException unsupported(String what, String instead, Exception cause) {
        return new IllegalStateException(
                "rtm-join cannot " + what + " with Kafka Streams " + KafkaStreamsVersion.current() + " (supported: "
                        + KafkaStreamsVersion.SUPPORTED_RANGE + ", verified with " + VERIFIED_KAFKA_VERSION + "): "
                        + cause + ". To go on: " + instead + ".",
                cause);
    }
}
