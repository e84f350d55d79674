package dev.rtmstreams.topology.internals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rtmstreams.processor.RtmProcessorConfig;
import dev.rtmstreams.topology.RtmStreams;
import dev.rtmstreams.topology.Trigger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;

class TriggerConfigurerTest {

    @Test
    void shouldDefaultToFastFailoverInRealTimeModeAndKeepAndWarnAboutTheUsersChoice() {
        List<String> warnings = new ArrayList<>();
        Properties p =
                TriggerConfigurer.apply(new Properties(), Trigger.realTime(Duration.ofSeconds(5)), false, warnings);
        assertThat(p.get("consumer.session.timeout.ms")).isEqualTo("6000");
        assertThat(p.get("consumer.heartbeat.interval.ms")).isEqualTo("1500");
        assertThat(p.get(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG)).isEqualTo("1");
        assertThat(warnings).isEmpty();

        Properties own = new Properties();
        own.put("session.timeout.ms", "45000");
        own.put(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, "0");
        Properties q = TriggerConfigurer.apply(own, Trigger.realTime(Duration.ofSeconds(5)), false, warnings);
        assertThat(q.get("session.timeout.ms")).isEqualTo("45000");
        assertThat(q.get("consumer.session.timeout.ms")).isNull();
        assertThat(q.get(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG)).isEqualTo("0");
        assertThat(warnings).singleElement().asString().contains("session.timeout.ms=45000", "recommended 6000");

        Properties mb =
                TriggerConfigurer.apply(new Properties(), Trigger.microBatch(Duration.ofSeconds(1)), false, warnings);
        assertThat(mb.get("consumer.session.timeout.ms")).isNull();
        assertThat(mb.get(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG)).isNull();
    }

    @Test
    void shouldShortenTheFetchWaitWhenRecordsCrossTheBrokerMoreThanOnceAndKeepTheUsersValue() {
        List<String> warnings = new ArrayList<>();
        Trigger rt = Trigger.realTime(Duration.ofSeconds(5));
        assertThat(TriggerConfigurer.apply(new Properties(), rt, false, warnings)
                        .get("consumer.fetch.max.wait.ms"))
                .isEqualTo("5");
        assertThat(TriggerConfigurer.apply(new Properties(), rt, false, 1, warnings)
                        .get("consumer.fetch.max.wait.ms"))
                .isEqualTo("5");
        assertThat(TriggerConfigurer.apply(new Properties(), rt, false, 2, warnings)
                        .get("consumer.fetch.max.wait.ms"))
                .isEqualTo("1");
        Properties own = new Properties();
        own.put("consumer.fetch.max.wait.ms", "5");
        assertThat(TriggerConfigurer.apply(own, rt, false, 3, warnings).get("consumer.fetch.max.wait.ms"))
                .isEqualTo("5");
        assertThat(TriggerConfigurer.apply(
                                new Properties(), Trigger.microBatch(Duration.ofSeconds(1)), false, 2, warnings)
                        .get("consumer.fetch.max.wait.ms"))
                .isNull();
        assertThat(warnings).isEmpty();
        assertThatThrownBy(() -> TriggerConfigurer.apply(new Properties(), rt, false, 0, warnings))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("brokerHops must be at least 1: 0");
    }

    @Test
    void shouldCheckpointEvery100MsAndPunctuateBatchesEveryMillisecondWhenMicroBatchIsAsFastAsPossible() {
        List<String> warnings = new ArrayList<>();

        Properties p = TriggerConfigurer.apply(new Properties(), Trigger.microBatch(Duration.ZERO), false, warnings);

        assertThat(p.get(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG)).isEqualTo("100");
        assertThat(p.get(RtmProcessorConfig.MICRO_BATCH_INTERVAL_MS_CONFIG)).isEqualTo("1");
        assertThat(p.get(RtmProcessorConfig.EXECUTION_MODE_CONFIG))
                .isEqualTo(RtmProcessorConfig.EXECUTION_MODE_MICRO_BATCH);
        assertThat(p.get(StreamsConfig.PROCESSING_GUARANTEE_CONFIG)).isEqualTo(StreamsConfig.AT_LEAST_ONCE);
        assertThat(warnings).isEmpty();
    }

    @Test
    void shouldKeepTheIntervalForCommitAndBatchWhenMicroBatchIntervalIsPositive() {
        Properties p = TriggerConfigurer.apply(
                new Properties(), Trigger.microBatch(Duration.ofMillis(250)), true, new ArrayList<>());

        assertThat(p.get(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG)).isEqualTo("250");
        assertThat(p.get(RtmProcessorConfig.MICRO_BATCH_INTERVAL_MS_CONFIG)).isEqualTo("250");
        assertThat(p.get(StreamsConfig.PROCESSING_GUARANTEE_CONFIG)).isEqualTo(StreamsConfig.EXACTLY_ONCE_V2);
    }

    @Test
    void shouldRejectAConflictingCommitIntervalWhenMicroBatchIsAsFastAsPossible() {
        Properties user = new Properties();
        user.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, "0");

        assertThatThrownBy(() ->
                        TriggerConfigurer.apply(user, Trigger.microBatch(Duration.ZERO), false, new ArrayList<>()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG + "=0");
    }

    /** Kafka Streams' own validation of the configured properties (it refuses a transaction timeout below the commit interval). */
    private static StreamsConfig kafkaStreamsAccepts(Properties p) {
        Properties q = new Properties();
        q.putAll(p);
        q.put(StreamsConfig.APPLICATION_ID_CONFIG, "app");
        q.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:9092");
        return new StreamsConfig(q);
    }

    @Test
    void shouldCommitShortTransactionsWhenExactlyOnceRealTimeWithTheDefaultCheckpointInterval() {
        Properties p = TriggerConfigurer.apply(new Properties(), Trigger.realTime(), true, new ArrayList<>());

        assertThat(p.get(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG))
                .isEqualTo(Long.toString(RtmStreams.DEFAULT_TRANSACTION_INTERVAL.toMillis()));
        assertThat(p.get("producer.transaction.timeout.ms")).isNull(); // Kafka Streams' 10 s covers 10 ms
        assertThat(kafkaStreamsAccepts(p).getLong(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG))
                .isEqualTo(10L);
    }

    @Test
    void shouldLingerUntilTheTransactionCommitsUnderExactlyOnceAndKeepTheUsersLinger() {
        Trigger rt = Trigger.realTime();
        List<String> warnings = new ArrayList<>();
        assertThat(TriggerConfigurer.apply(new Properties(), rt, false, Duration.ofMillis(10), 1, warnings)
                        .get("producer.linger.ms"))
                .isEqualTo("1");
        assertThat(TriggerConfigurer.apply(new Properties(), rt, true, Duration.ofMillis(10), 1, warnings)
                        .get("producer.linger.ms"))
                .isEqualTo("10");
        assertThat(TriggerConfigurer.apply(new Properties(), rt, true, Duration.ZERO, 1, warnings)
                        .get("producer.linger.ms"))
                .isEqualTo("1"); // a commit at every pass: linger as under at-least-once
        assertThat(TriggerConfigurer.apply(new Properties(), rt, true, Duration.ofSeconds(30), 1, warnings)
                        .get("producer.linger.ms"))
                .isEqualTo("100"); // capped
        assertThat(warnings).isEmpty();

        Properties own = new Properties();
        own.put("producer.linger.ms", "20");
        assertThat(TriggerConfigurer.apply(own, rt, true, Duration.ofMillis(50), 1, warnings)
                        .get("producer.linger.ms"))
                .isEqualTo("20");
        assertThat(warnings).isEmpty(); // within the transaction interval: delays nothing a reader sees
        assertThat(TriggerConfigurer.apply(own, rt, true, Duration.ofMillis(10), 1, warnings)
                        .get("producer.linger.ms"))
                .isEqualTo("20");
        assertThat(warnings)
                .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
                .contains("producer.linger.ms=20 defeats real-time mode")
                .contains("transaction's commit (every 10 ms)");
    }

    @Test
    void shouldCapTheTransactionIntervalAtTheCheckpointInterval() {
        Properties p = TriggerConfigurer.apply(
                new Properties(),
                Trigger.realTime(Duration.ofMillis(100)),
                true,
                Duration.ofSeconds(1),
                1,
                new ArrayList<>());
        assertThat(p.get(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG)).isEqualTo("100");

        Properties alos = TriggerConfigurer.apply(
                new Properties(),
                Trigger.realTime(Duration.ofMinutes(1)),
                false,
                Duration.ofMillis(5),
                1,
                new ArrayList<>());
        assertThat(alos.get(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG)).isEqualTo("60000"); // no transactions
        assertThatThrownBy(() -> TriggerConfigurer.apply(
                        new Properties(), Trigger.realTime(), true, Duration.ofMillis(-1), 1, new ArrayList<>()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("transactionInterval must not be negative: PT-0.001S");
    }

    @Test
    void shouldStartEveryDocumentedExactlyOnceCombination() {
        for (Trigger t : List.of(
                Trigger.realTime(),
                Trigger.realTime(Trigger.MIN_CHECKPOINT_INTERVAL),
                Trigger.realTime(Duration.ofHours(1)),
                Trigger.microBatch(Duration.ZERO),
                Trigger.microBatch(Duration.ofSeconds(1)),
                Trigger.microBatch(Duration.ofSeconds(30)),
                Trigger.microBatch(Duration.ofMinutes(14)))) {
            for (Duration tx :
                    List.of(Duration.ZERO, RtmStreams.DEFAULT_TRANSACTION_INTERVAL, Duration.ofMinutes(10))) {
                Properties p = TriggerConfigurer.apply(new Properties(), t, true, tx, 1, new ArrayList<>());
                StreamsConfig c = kafkaStreamsAccepts(p);
                long commit = c.getLong(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG);
                Object timeout = p.get("producer.transaction.timeout.ms");
                long effective = timeout == null ? 10_000 : Long.parseLong(timeout.toString());
                assertThat(effective)
                        .as("%s, %s", t, tx)
                        .isGreaterThanOrEqualTo(commit)
                        .isLessThanOrEqualTo(900_000);
            }
        }
        Properties p = TriggerConfigurer.apply(
                new Properties(), Trigger.microBatch(Duration.ofSeconds(30)), true, new ArrayList<>());
        assertThat(p.get("producer.transaction.timeout.ms")).isEqualTo("60000");
    }

    @Test
    void shouldRefuseACommitIntervalNoTransactionCanSpanNamingTheTrigger() {
        assertThatThrownBy(() -> TriggerConfigurer.apply(
                        new Properties(), Trigger.microBatch(Duration.ofMinutes(15)), true, new ArrayList<>()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Trigger.microBatch(PT15M)")
                .hasMessageContaining("transaction.max.timeout.ms");

        Properties own = new Properties();
        own.put("producer.transaction.timeout.ms", "10000");
        assertThatThrownBy(() -> TriggerConfigurer.apply(
                        own, Trigger.microBatch(Duration.ofSeconds(30)), true, new ArrayList<>()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Trigger.microBatch(PT30S)")
                .hasMessageContaining("producer.transaction.timeout.ms=10000");

        Properties bare = new Properties();
        bare.put("transaction.timeout.ms", "1200000");
        Properties p =
                TriggerConfigurer.apply(bare, Trigger.microBatch(Duration.ofMinutes(15)), true, new ArrayList<>());
        assertThat(kafkaStreamsAccepts(p).originals()).containsEntry("producer.transaction.timeout.ms", "1200000");
    }
}
