package dev.rtmstreams.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

class KafkaBrokerProcessTest {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaBrokerProcessTest.class);

    @Test
    void shouldKeepDataAndPortWhenStoppedKilledAndRestarted(@TempDir Path dir) {
        Path logDir = dir.resolve("broker");
        try (KafkaBrokerProcess broker =
                EmbeddedKafkaCluster.childProcess().logDir(logDir).build()) {
            broker.start();
            LOG.info(
                    "child-process broker first start (with format) took {} ms",
                    broker.lastStartupTime().toMillis());
            long pid1 = broker.pid().orElseThrow();
            int port = broker.port();
            broker.createTopic("durable", 2);
            TestRecords.produceStrings(broker, "durable", entries(0, 50));

            Duration stopTime = broker.stop();
            LOG.info("graceful stop took {} ms", stopTime.toMillis());
            assertThat(broker.isRunning()).isFalse();
            assertThat(ProcessHandle.of(pid1).map(ProcessHandle::isAlive).orElse(false))
                    .isFalse();

            broker.start();
            LOG.info(
                    "restart after graceful stop took {} ms",
                    broker.lastStartupTime().toMillis());
            assertThat(broker.port()).isEqualTo(port);
            assertThat(broker.bootstrapServers()).isEqualTo("localhost:" + port);
            TestRecords.produceStrings(broker, "durable", entries(50, 100));

            broker.kill();
            assertThat(broker.isRunning()).isFalse();
            broker.start();
            LOG.info(
                    "restart after kill -9 took {} ms", broker.lastStartupTime().toMillis());

            List<ConsumerRecord<String, String>> all =
                    TestRecords.consumeStrings(broker, "durable", 100, Duration.ofSeconds(20));
            assertThat(all)
                    .extracting(ConsumerRecord::value)
                    .containsExactlyInAnyOrderElementsOf(
                            IntStream.range(0, 100).mapToObj(i -> "v" + i).toList());
            assertThat(broker.listTopics()).contains("durable");
        }
        assertThat(Files.exists(logDir.resolve("server.properties")))
                .as("a log dir given by the caller is kept on close")
                .isTrue();
    }

    @Test
    void shouldRejectInvalidOptionsWhenBuilding() {
        assertThatThrownBy(() -> KafkaBrokerProcess.builder().port(70000).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("70000");
        assertThatThrownBy(() -> KafkaBrokerProcess.builder()
                        .port(9999)
                        .controllerPort(9999)
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("9999");
        assertThatThrownBy(() ->
                        KafkaBrokerProcess.builder().startTimeout(Duration.ZERO).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("PT0S");
        assertThatThrownBy(() -> KafkaBrokerProcess.builder().logLevel("LOUD").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("LOUD");
    }

    @Test
    void shouldReportBrokerOutputWhenStartFails(@TempDir Path dir) {
        try (KafkaBrokerProcess broker = KafkaBrokerProcess.builder()
                .logDir(dir.resolve("bad"))
                .brokerProperty("num.network.threads", "not-a-number")
                .startTimeout(Duration.ofSeconds(30))
                .build()) {
            assertThatThrownBy(broker::start)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("broker.out");
            assertThat(broker.isRunning()).isFalse();
        }
    }

    private static List<Map.Entry<String, String>> entries(int from, int to) {
        return IntStream.range(from, to)
                .mapToObj(i -> Map.entry("k" + (i % 7), "v" + i))
                .toList();
    }
}
