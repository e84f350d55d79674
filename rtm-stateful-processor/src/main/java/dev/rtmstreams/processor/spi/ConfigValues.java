package dev.rtmstreams.processor.spi;

import dev.rtmstreams.processor.RtmProcessorConfig;
import java.util.Map;
import org.apache.kafka.common.annotation.InterfaceStability;

/**
 * Reads numeric settings from Kafka Streams' application configs ({@code ProcessorContext#appConfigs()} or a
 * {@code RocksDBConfigSetter}'s map), where a value may be a {@link Number} or its text. One parser for every rtm
 * setting, so that a bad value fails the same way everywhere: an {@link IllegalArgumentException} naming the key and
 * the value.
 */
@InterfaceStability.Unstable
public final class ConfigValues {

    private ConfigValues() {}

    /**
     * @param configs the application configs; not null
     * @param key the setting
     * @param defaultValue returned when {@code key} is absent
     * @return the setting as a long
     * @throws IllegalArgumentException when the value is not a whole number, naming the key and the value
     */
    public static long longValue(Map<String, ?> configs, String key, long defaultValue) {
        return RtmProcessorConfig.longValue(configs, key, defaultValue, Long.MIN_VALUE);
    }

    /**
     * @param configs the application configs; not null
     * @param key the setting
     * @param defaultValue returned when {@code key} is absent
     * @param min the smallest valid value (0: "must not be negative", 1: "must be positive")
     * @return the setting as a long, at least {@code min}
     * @throws IllegalArgumentException when the value is not a whole number or below {@code min}, naming the key and
     *     the value
     */
    public static long longValue(Map<String, ?> configs, String key, long defaultValue, long min) {
        return RtmProcessorConfig.longValue(configs, key, defaultValue, min);
    }

    /**
     * @param configs the application configs; not null
     * @param key the setting
     * @param defaultValue returned when {@code key} is absent
     * @return the setting as a double
     * @throws IllegalArgumentException when the value is not a number, naming the key and the value
     */
    public static double doubleValue(Map<String, ?> configs, String key, double defaultValue) {
        Object v = configs.get(key);
        if (v == null) {
            return defaultValue;
        }
        try {
            return v instanceof Number n
                    ? n.doubleValue()
                    : Double.parseDouble(v.toString().trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a number: " + v, e);
        }
    }
}
