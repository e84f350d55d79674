package dev.rtmstreams.processor.spi;

import java.util.Objects;
import org.apache.kafka.common.annotation.InterfaceStability;

/**
 * One place where an rtm-streams library relies on a part of Kafka Streams (or its clients) that is not public API:
 * an internal class, field, method or config. Each hook has a probe that checks, without side effects, that the
 * internal is there in the Kafka Streams on the classpath, with the shape the library uses. {@code RtmStreams} runs
 * every hook's probe when it is built (the hooks are found with {@link KafkaInternalHooks} through
 * {@link java.util.ServiceLoader}) and refuses to build when one fails, naming the hook, the Kafka Streams version found
 * and the supported range ({@link KafkaStreamsVersion#SUPPORTED_RANGE}), unless {@code rtm.compatibility.check=warn}.
 *
 * @param name stable, lower-case name, e.g. {@code join.repartition-required}; never null
 * @param module the rtm-streams module that uses it, e.g. {@code rtm-join}; never null
 * @param feature what does not work without it, said to the user, e.g. {@code "epoch metrics under
 *     group.protocol=streams"}; never null
 * @param probe checks the internal is there; never null
 */
@InterfaceStability.Unstable
public record KafkaInternalHook(String name, String module, String feature, Probe probe) {

    /** Checks one internal. */
    @FunctionalInterface
    public interface Probe {
        /**
         * @throws Exception when the internal is missing or has another shape (a {@link ReflectiveOperationException},
         *     a {@link LinkageError} or an {@link IllegalStateException} saying what differs)
         */
        void verify() throws Exception;
    }

    /** Checks that no component is null. */
    public KafkaInternalHook {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(module, "module");
        Objects.requireNonNull(feature, "feature");
        Objects.requireNonNull(probe, "probe");
    }

    /**
     * @param replacement another probe
     * @return this hook with another probe (tests use it to show what a missing internal does)
     */
    public KafkaInternalHook withProbe(Probe replacement) {
        return new KafkaInternalHook(name, module, feature, replacement);
    }

    /**
     * Runs the probe.
     *
     * @return null when the internal is there, else what went wrong (never thrown)
     */
    public Throwable check() {
        try {
            probe.verify();
            return null;
        } catch (Exception | LinkageError e) {
            return e;
        }
    }
}
