package dev.rtmstreams.topology.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rtmstreams.processor.ExpiredTimerInfo;
import dev.rtmstreams.processor.OutputMode;
import dev.rtmstreams.processor.StatefulProcessor;
import dev.rtmstreams.processor.TimeMode;
import dev.rtmstreams.processor.TimerValues;
import dev.rtmstreams.processor.TransformWithState;
import dev.rtmstreams.processor.TtlConfig;
import dev.rtmstreams.processor.ValueState;
import dev.rtmstreams.topology.Trigger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;
import org.junit.jupiter.api.Test;

class RtmTopologyTestDriverTest {

    static final Duration SESSION_GAP = Duration.ofSeconds(60);
    static final Duration COUNT_TTL = Duration.ofSeconds(30);

    /**
     * Counts clicks per user in a value state with TTL, and closes the user's session with a processing-time timer
     * {@link #SESSION_GAP} after the last click: "user:count" per click, "user:closed" when the timer fires.
     */
    static final class SessionProcessor extends StatefulProcessor<String, String, String> {
        private ValueState<Long> count;
        private ValueState<Long> timer;

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            count = getHandle().getValueState("count", Serdes.Long(), TtlConfig.of(COUNT_TTL));
            timer = getHandle().getValueState("timer", Serdes.Long());
        }

        @Override
        public Iterator<String> handleInputRows(String key, Iterator<String> rows, TimerValues timerValues) {
            long n = count.getOption().orElse(0L);
            StringBuilder out = new StringBuilder();
            while (rows.hasNext()) {
                rows.next();
                n++;
            }
            count.update(n);
            timer.getOption().ifPresent(getHandle()::deleteTimer);
            long due = timerValues.getCurrentProcessingTimeInMs() + SESSION_GAP.toMillis();
            getHandle().registerTimer(due);
            timer.update(due);
            out.append(key).append(':').append(n);
            return List.of(out.toString()).iterator();
        }

        @Override
        public Iterator<String> handleExpiredTimer(String key, TimerValues timerValues, ExpiredTimerInfo info) {
            timer.clear();
            return List.of(key + ":closed").iterator();
        }
    }

    /** clicks -> upper-case -> sessions (a chain of a stateless step and the processor), written to "sessions". */
    static Topology sessions() {
        StreamsBuilder sb = new StreamsBuilder();
        sb.stream("clicks", Consumed.with(Serdes.String(), Serdes.String()))
                .mapValues(v -> v.toUpperCase())
                .process(TransformWithState.builder(SessionProcessor::new, TimeMode.PROCESSING_TIME)
                        .name("sessions")
                        .keySerde(Serdes.String())
                        .valueSerde(Serdes.String())
                        .build())
                .to("sessions", Produced.with(Serdes.String(), Serdes.String()));
        return sb.build();
    }

    @Test
    void shouldFireProcessingTimeTimersOnlyWhenTheWallClockReachesThemWhenRealTime() {
        try (RtmTopologyTestDriver driver =
                RtmTopologyTestDriver.builder(sessions(), Trigger.realTime()).build()) {
            TestInputTopic<String, String> clicks = driver.createInputTopic(
                    "clicks", Serdes.String().serializer(), Serdes.String().serializer());
            TestOutputTopic<String, String> out = driver.createOutputTopic(
                    "sessions", Serdes.String().deserializer(), Serdes.String().deserializer());

            clicks.pipeInput("u1", "click");
            assertThat(out.readValuesToList()).containsExactly("u1:1"); // real time: emitted on arrival

            driver.advanceWallClockTime(SESSION_GAP.minusMillis(100));
            assertThat(out.readValuesToList()).isEmpty(); // one punctuation (default resolution 100 ms) before it

            driver.advanceWallClockTime(Duration.ofMillis(100)); // at the timer's time: due (as Spark, time <= now)
            assertThat(out.readValuesToList()).containsExactly("u1:closed");
            assertThat(driver.wallClockTime()).isEqualTo(RtmTopologyTestDriver.DEFAULT_START.plus(SESSION_GAP));
        }
    }

    @Test
    void shouldExpireStateWithTtlOnTheDriversWallClock() {
        try (RtmTopologyTestDriver driver =
                RtmTopologyTestDriver.builder(sessions(), Trigger.realTime()).build()) {
            TestInputTopic<String, String> clicks = driver.createInputTopic(
                    "clicks", Serdes.String().serializer(), Serdes.String().serializer());
            TestOutputTopic<String, String> out = driver.createOutputTopic(
                    "sessions", Serdes.String().deserializer(), Serdes.String().deserializer());

            clicks.pipeInput("u1", "click");
            driver.advanceWallClockTime(COUNT_TTL.minusSeconds(1));
            clicks.pipeInput("u1", "click");
            assertThat(out.readValuesToList()).containsExactly("u1:1", "u1:2"); // within the TTL: counted on

            driver.advanceWallClockTime(COUNT_TTL.plusSeconds(1));
            clicks.pipeInput("u1", "click");
            assertThat(out.readValuesToList()).containsExactly("u1:1"); // expired: counting starts again
        }
    }

    @Test
    void shouldHoldOutputUntilTheBatchRunsWhenMicroBatch() {
        try (RtmTopologyTestDriver driver = RtmTopologyTestDriver.builder(
                        sessions(), Trigger.microBatch(Duration.ofSeconds(5)))
                .build()) {
            TestInputTopic<String, String> clicks = driver.createInputTopic(
                    "clicks", Serdes.String().serializer(), Serdes.String().serializer());
            TestOutputTopic<String, String> out = driver.createOutputTopic(
                    "sessions", Serdes.String().deserializer(), Serdes.String().deserializer());

            clicks.pipeInput("u1", "click");
            clicks.pipeInput("u1", "click");
            assertThat(out.readValuesToList()).isEmpty();

            driver.advanceWallClockTime(Duration.ofSeconds(5));
            assertThat(out.readValuesToList()).containsExactly("u1:2"); // one call with the batch's two rows
            assertThat(driver.config()).containsEntry("rtm.execution.mode", "micro-batch");
        }
    }

    @Test
    void shouldNameThePropertyWhenItConflictsWithTheTrigger() {
        Properties props = new Properties();
        props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, "1048576");

        assertThatThrownBy(() -> RtmTopologyTestDriver.builder(sessions(), Trigger.realTime())
                        .properties(props)
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG);
    }

    @Test
    void shouldDeleteOnlyTheStateDirectoryItCreatedWhenClosed() throws Exception {
        Path own;
        try (RtmTopologyTestDriver driver =
                RtmTopologyTestDriver.builder(sessions(), Trigger.realTime()).build()) {
            own = Path.of(driver.config().getProperty(StreamsConfig.STATE_DIR_CONFIG));
            assertThat(own).isDirectory();
        }
        assertThat(own).doesNotExist();

        Path given = Files.createTempDirectory("rtm-given-state");
        Properties props = new Properties();
        props.put(StreamsConfig.STATE_DIR_CONFIG, given.toString());
        try (RtmTopologyTestDriver driver = RtmTopologyTestDriver.builder(sessions(), Trigger.realTime())
                .properties(props)
                .build()) {
            assertThat(driver.trigger()).isEqualTo(Trigger.realTime());
        }
        assertThat(given).isDirectory();
        Files.walk(given)
                .sorted(java.util.Comparator.reverseOrder())
                .forEach(p -> p.toFile().delete());
    }

    @Test
    void shouldRejectAWallClockThatGoesBack() {
        try (RtmTopologyTestDriver driver =
                RtmTopologyTestDriver.builder(sessions(), Trigger.realTime()).build()) {
            assertThatThrownBy(() -> driver.advanceWallClockTime(Duration.ofMillis(-1)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("PT-0.001S");
        }
    }

    @Test
    void shouldReportTheBatchAssumptionAnywhereInTheTopologyWhenCheckingTheContract() {
        ContractReport<String, String> perRowTrap = TopologyModeContractChecker.builder(
                        RtmTopologyTestDriverTest::sessions,
                        "clicks",
                        Serdes.String(),
                        Serdes.String(),
                        "sessions",
                        Serdes.String())
                .equivalence(ModeContractChecker.Equivalence.PER_ROW)
                .build()
                .check(List.of(List.of(KeyValue.pair("u1", "a"), KeyValue.pair("u1", "b"))));

        // real time: "u1:1", "u1:2"; micro-batch: one call with both rows, "u1:2"
        assertThat(perRowTrap.differences()).singleElement().satisfies(d -> {
            assertThat(d.key()).isEqualTo("u1");
            assertThat(d.realTimeOutput()).containsExactly("u1:1", "u1:2");
            assertThat(d.microBatchOutput()).containsExactly("u1:2");
        });

        ContractReport<String, String> latest = TopologyModeContractChecker.builder(
                        RtmTopologyTestDriverTest::sessions,
                        "clicks",
                        Serdes.String(),
                        Serdes.String(),
                        "sessions",
                        Serdes.String())
                .build()
                .check(List.of(List.of(KeyValue.pair("u1", "a"), KeyValue.pair("u1", "b")), List.of()));
        assertThat(latest.differences()).isEmpty(); // an update-mode processor: the latest row per batch matches
    }
}
