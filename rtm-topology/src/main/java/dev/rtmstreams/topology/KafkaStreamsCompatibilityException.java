package dev.rtmstreams.topology;

import dev.rtmstreams.processor.RtmException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.annotation.InterfaceStability;

/**
 * Thrown when {@link RtmStreams} is built (or, for a hook whose effect shows only once Kafka Streams has created its
 * clients, right after) on a Kafka Streams that lacks an internal rtm-streams relies on: a class, field, method or
 * config of Kafka Streams that is not public API and has changed. Error code {@value #ERROR_CODE}, parameters
 * {@code hooks} (the failed hooks' names, comma-separated, e.g. {@code join.copartition-group}),
 * {@code kafkaStreamsVersion} (the version found, or {@code unknown}), {@code supportedRange}
 * ({@value dev.rtmstreams.processor.spi.KafkaStreamsVersion#SUPPORTED_RANGE}) and {@code features} (what does not work
 * without them). The hooks and what each gives are listed in {@code docs/compatibility.md}.
 *
 * <p>To go on anyway, set {@value #CHECK_CONFIG}{@code =warn} in the Kafka Streams properties: the check then logs a
 * WARN naming each unavailable feature and {@code RtmStreams} is built.
 */
@InterfaceStability.Evolving
public final class KafkaStreamsCompatibilityException extends RtmException {

    /** The stable error code. */
    public static final String ERROR_CODE = "KAFKA_STREAMS_INTERNAL_HOOK_UNAVAILABLE";

    /**
     * The Kafka Streams property choosing what a failed hook does: {@code fail} (the default: this exception) or
     * {@code warn} (a WARN naming the feature that is unavailable, and go on).
     */
    public static final String CHECK_CONFIG = "rtm.compatibility.check";

    /**
     * Creates the error (thrown by {@link RtmStreams}; public so that tests can build the expected one).
     *
     * @param hooks the failed hooks' names, at least one
     * @param features what does not work without each, in the same order
     * @param kafkaStreamsVersion the Kafka Streams version found
     * @param supportedRange the supported versions, e.g. {@code 4.1 to 4.4}
     * @param details what each probe found, in the same order
     * @param cause the first probe's failure, or null
     */
    public KafkaStreamsCompatibilityException(
            List<String> hooks,
            List<String> features,
            String kafkaStreamsVersion,
            String supportedRange,
            List<String> details,
            Throwable cause) {
        super(
                ERROR_CODE,
                parameters(hooks, features, kafkaStreamsVersion, supportedRange),
                message(hooks, features, kafkaStreamsVersion, supportedRange, details),
                cause);
    }

    private static Map<String, String> parameters(
            List<String> hooks, List<String> features, String version, String range) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("hooks", String.join(",", hooks));
        p.put("kafkaStreamsVersion", version);
        p.put("supportedRange", range);
        p.put("features", String.join("; ", features));
        return p;
    }

    private static String message(
            List<String> hooks, List<String> features, String version, String range, List<String> details) {
        StringBuilder b = new StringBuilder("Kafka Streams ")
                .append(version)
                .append(" lacks ")
                .append(hooks.size() == 1 ? "an internal" : hooks.size() + " internals")
                .append(" rtm-streams relies on (supported Kafka Streams: ")
                .append(range)
                .append("):");
        for (int i = 0; i < hooks.size(); i++) {
            b.append("\n  hook ")
                    .append(hooks.get(i))
                    .append(" (needed for ")
                    .append(features.get(i))
                    .append("): ")
                    .append(details.get(i));
        }
        return b.append("\nUse Kafka Streams ")
                .append(range)
                .append(", or set ")
                .append(CHECK_CONFIG)
                .append("=warn to start without these features.")
                .toString();
    }
}
