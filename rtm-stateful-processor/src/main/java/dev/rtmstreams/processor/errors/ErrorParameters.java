package dev.rtmstreams.processor.errors;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.common.annotation.InterfaceStability;

/** Spelling of the errors' parameters, shared by the error classes of this package and the state runtime. */
@InterfaceStability.Evolving
public final class ErrorParameters {

    private ErrorParameters() {}

    static Map<String, String> params(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    /** Where a restart-validation error arose: Spark's query context, here the operator's name. */
    static Map<String, String> operator(String operatorName) {
        return Map.of("operator", operatorName);
    }

    /**
     * Spark's spelling of a time or output mode in error parameters ({@code TimeMode.toString}: {@code NoTime},
     * {@code ProcessingTime}, {@code EventTime}; {@code OutputMode}: {@code Append}, {@code Update},
     * {@code Complete}).
     *
     * @param modeName our enum constant's name (e.g. {@code PROCESSING_TIME}); may be null
     * @return Spark's name, or {@code modeName} (as text) when it is none of ours
     */
    public static String sparkModeName(String modeName) {
        return switch (String.valueOf(modeName)) {
            case "NONE" -> "NoTime";
            case "PROCESSING_TIME" -> "ProcessingTime";
            case "EVENT_TIME" -> "EventTime";
            case "APPEND" -> "Append";
            case "UPDATE" -> "Update";
            case "COMPLETE" -> "Complete";
            default -> modeName;
        };
    }
}
