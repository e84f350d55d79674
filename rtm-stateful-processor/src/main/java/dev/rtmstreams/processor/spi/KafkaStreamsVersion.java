package dev.rtmstreams.processor.spi;

import dev.rtmstreams.processor.spi.internals.compat.AppInfoShim;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.common.annotation.InterfaceStability;

/**
 * The Kafka Streams version on the classpath and the range rtm-streams supports. The version is read from Kafka's own
 * version record ({@code AppInfoParser}, whose package moved in Kafka 4.4: the one present is chosen at run time).
 */
@InterfaceStability.Unstable
public final class KafkaStreamsVersion {

    /** The Kafka Streams versions rtm-streams is built and tested against, as said to users. */
    public static final String SUPPORTED_RANGE = "4.1 to 4.4";

    /** The oldest supported minor version, {@code 4.1}. */
    static final int[] OLDEST = {4, 1};

    /** The newest supported minor version, {@code 4.4}. */
    static final int[] NEWEST = {4, 4};

    private static final Pattern MAJOR_MINOR = Pattern.compile("^(\\d+)\\.(\\d+)");

    private KafkaStreamsVersion() {}

    /**
     * @return the Kafka version on the classpath, e.g. {@code 4.4.0}; {@code "unknown"} when Kafka's version record
     *     cannot be read (never null)
     */
    public static String current() {
        return AppInfoShim.current().version();
    }

    /**
     * @param version a Kafka version such as {@code 4.3.2} or {@code 4.4.0-SNAPSHOT}; may be null
     * @return whether its major and minor version lie in {@link #SUPPORTED_RANGE} (false for null or unparsable)
     */
    public static boolean isSupported(String version) {
        if (version == null) {
            return false;
        }
        Matcher m = MAJOR_MINOR.matcher(version);
        if (!m.find()) {
            return false;
        }
        int major = Integer.parseInt(m.group(1));
        int minor = Integer.parseInt(m.group(2));
        return compare(major, minor, OLDEST) >= 0 && compare(major, minor, NEWEST) <= 0;
    }

    private static int compare(int major, int minor, int[] bound) {
        return major != bound[0] ? Integer.compare(major, bound[0]) : Integer.compare(minor, bound[1]);
    }
}
