package dev.rtmstreams.topology;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rtmstreams.processor.ExecutionMode;
import dev.rtmstreams.processor.spi.KafkaStreamsVersion;
import dev.rtmstreams.topology.internals.compat.Versions;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The versions a process runs with: in the rtm_info metric and in every epoch progress report. */
class RtmVersionsTest {

    @TempDir
    Path stateDir;

    private static EpochProgress progressWithoutVersions() {
        return new EpochProgress(
                "app",
                1,
                "t-1",
                ExecutionMode.REAL_TIME,
                0,
                1000,
                10,
                10.0,
                Map.of(),
                null,
                -1,
                -1,
                -1,
                LatencyStats.EMPTY,
                LatencyStats.EMPTY,
                LatencyStats.EMPTY,
                List.of(),
                CommitProgress.NONE,
                LatencyStats.EMPTY);
    }

    @Test
    void shouldKnowTheProjectAndKafkaStreamsVersions() {
        assertThat(Versions.rtm())
                .isNotEqualTo(Versions.UNKNOWN)
                .doesNotContain("${")
                .matches("\\d+\\.\\d+\\.\\d+.*");
        assertThat(Versions.kafkaStreams())
                .isEqualTo(KafkaStreamsVersion.current())
                .isNotEqualTo(Versions.UNKNOWN);
    }

    @Test
    void shouldScrapeAnInfoMetricWithBothVersions() {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "versions-app");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:1");
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        try (RtmStreams rtm = RtmStreams.builder(SlotAccountingTest.seedTopologyWithExplicitShuffle(), p)
                .build()) {
            String scrape = PrometheusEndpoint.of(rtm).scrape();

            assertThat(scrape)
                    .contains("rtm_info{kafka_streams_version=\"" + Versions.kafkaStreams() + "\",rtm_version=\""
                            + Versions.rtm() + "\"} 1\n");
        }
    }

    @Test
    void shouldCarryBothVersionsInEpochProgressAndItsJsonLine() throws Exception {
        EpochProgress old = progressWithoutVersions();

        assertThat(old.rtmVersion()).isEqualTo(Versions.rtm());
        assertThat(old.kafkaStreamsVersion()).isEqualTo(Versions.kafkaStreams());
        JsonNode json = new ObjectMapper().readTree(new ObjectMapper().writeValueAsString(old));
        assertThat(json.get("rtmVersion").asText()).isEqualTo(Versions.rtm());
        assertThat(json.get("kafkaStreamsVersion").asText()).isEqualTo(Versions.kafkaStreams());
        assertThat(json.get("epochId").asLong()).isEqualTo(1);
    }

    @Test
    void shouldSayUnknownForAVersionNotGiven() {
        EpochProgress p = progressWithoutVersions();
        EpochProgress none = new EpochProgress(
                p.applicationId(),
                p.epochId(),
                p.threadName(),
                p.mode(),
                p.startTimeMs(),
                p.endTimeMs(),
                p.numInputRows(),
                p.inputRowsPerSecond(),
                p.sources(),
                p.watermarkMs(),
                p.stateRowsEstimate(),
                p.stateBytesEstimate(),
                p.busyFraction(),
                p.sourceQueuingLatencyMs(),
                p.processingLatencyMs(),
                p.e2eLatencyMs(),
                p.stateOperators(),
                p.commits(),
                p.e2eVisibleLatencyMs(),
                null,
                null);

        assertThat(none.rtmVersion()).isEqualTo("unknown");
        assertThat(none.kafkaStreamsVersion()).isEqualTo("unknown");
    }
}
