package dev.rtmstreams.topology.internals.compat;

import dev.rtmstreams.processor.spi.KafkaStreamsVersion;
import dev.rtmstreams.topology.EpochProgress;
import dev.rtmstreams.topology.PrometheusEndpoint;
import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/**
 * The versions an application runs with: rtm-streams' own and the Kafka Streams on the classpath. Reported in every
 * {@link EpochProgress} and as the Prometheus metric {@code rtm_info{rtm_version="...",kafka_streams_version="..."} 1}
 * ({@link PrometheusEndpoint#collector}).
 */
public final class Versions {

    /** The version said when it cannot be read. */
    public static final String UNKNOWN = "unknown";

    /** Written by the build (resource filtering) with the project version. */
    static final String RESOURCE = "/dev/rtmstreams/topology/rtm-version.properties";

    private static final String RTM = readRtm();

    private Versions() {}

    /** @return rtm-streams' version (rtm-topology's), e.g. {@code 0.2.0}; {@link #UNKNOWN} when not built with one */
    public static String rtm() {
        return RTM;
    }

    /** @return the Kafka Streams version on the classpath, e.g. {@code 4.4.0}; {@link #UNKNOWN} when unreadable */
    public static String kafkaStreams() {
        return KafkaStreamsVersion.current();
    }

    private static String readRtm() {
        try (InputStream in = Versions.class.getResourceAsStream(RESOURCE)) {
            if (in != null) {
                Properties p = new Properties();
                p.load(in);
                String v = p.getProperty("version");
                if (v != null && !v.isBlank() && !v.startsWith("${")) {
                    return v.trim();
                }
            }
        } catch (IOException e) {
            // fall through to the manifest
        }
        String v = Versions.class.getPackage().getImplementationVersion();
        return v == null ? UNKNOWN : v;
    }
}
