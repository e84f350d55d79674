package dev.rtmstreams.processor;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Properties;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;

class MetricsTest {

    private static List<MetricName> named(Map<MetricName, ? extends Metric> metrics, String name) {
        return metrics.keySet().stream()
                .filter(n ->
                        n.group().equals(RtmProcessorMetrics.GROUP) && n.name().equals(name))
                .toList();
    }

    private static long total(Harness<?, ?> h, String operator, String metric) {
        return RtmProcessorMetrics.total(h.driver.metrics(), operator, metric);
    }

    @Test
    void shouldReportWatermarkPerTaskWithThreadTaskAndOperatorTagsWhenEventTime() {
        try (Harness<String, String> h = Harness.strings(EventTimeTest.builder().build())) {
            assertThat(RtmProcessorMetrics.watermark(h.driver.metrics(), "etimers"))
                    .isEmpty();
            h.pipe("a", "wm", 2000);
            h.pipe("a", "wm", 1950);
            assertThat(RtmProcessorMetrics.watermark(h.driver.metrics(), "etimers"))
                    .isEqualTo(OptionalLong.of(1900));
            h.pipe("b", "wm", 5000);
            assertThat(RtmProcessorMetrics.watermark(h.driver.metrics(), "etimers"))
                    .isEqualTo(OptionalLong.of(4900));

            List<MetricName> wm = named(h.driver.metrics(), RtmProcessorMetrics.WATERMARK);
            assertThat(wm).hasSize(1);
            assertThat(wm.get(0).tags())
                    .containsEntry(
                            RtmProcessorMetrics.THREAD_ID_TAG,
                            Thread.currentThread().getName())
                    .containsEntry(RtmProcessorMetrics.TASK_ID_TAG, "0_0")
                    .containsEntry(RtmProcessorMetrics.PROCESSOR_ID_TAG, "etimers");
            // the lookup rtm-topology's epoch reports use: a thread-tagged metric whose name contains "watermark"
            Map<MetricName, ? extends Metric> all = h.driver.metrics();
            assertThat(all.entrySet().stream()
                            .filter(e -> e.getKey().name().contains("watermark")
                                    && Thread.currentThread()
                                            .getName()
                                            .equals(e.getKey().tags().get("thread-id")))
                            .map(e -> e.getValue().metricValue()))
                    .containsExactly(4900.0);
        }
    }

    @Test
    void shouldRestoreWatermarkMetricFromChangelogWhenRestarted() {
        try (Harness<String, String> h = Harness.strings(EventTimeTest.builder().build())) {
            h.pipe("a", "wm", 3000);
            h.restartFromChangelog();
            h.pipe("a", "wm", 10); // late against the restored watermark: dropped, watermark loaded
            assertThat(RtmProcessorMetrics.watermark(h.driver.metrics(), "etimers"))
                    .isEqualTo(OptionalLong.of(2900));
            assertThat(total(h, "etimers", RtmProcessorMetrics.LATE_RECORDS_TOTAL))
                    .isEqualTo(1);
        }
    }

    @Test
    void shouldCountLateAndNullKeyRecordsAndFiredTimersWhenEventTime() {
        try (Harness<String, String> h = Harness.strings(EventTimeTest.builder().build())) {
            h.pipe("a", "reg:1500", 1000);
            h.pipe("a", "reg:1700", 1000);
            h.pipe("a", "wm", 2000); // wm 1900: both timers fire
            h.pipe("a", "wm", 1800); // late
            h.pipe("b", "wm", 1700); // late
            h.pipe(null, "wm", 5000); // null key
            assertThat(total(h, "etimers", RtmProcessorMetrics.LATE_RECORDS_TOTAL))
                    .isEqualTo(2);
            assertThat(total(h, "etimers", RtmProcessorMetrics.NULL_KEY_RECORDS_TOTAL))
                    .isEqualTo(1);
            assertThat(total(h, "etimers", RtmProcessorMetrics.TIMERS_FIRED_TOTAL))
                    .isEqualTo(2);
            assertThat(h.drainValues()).containsExactly("wm=900", "fired:a:1500@wm=1900", "fired:a:1700@wm=1900");
        }
    }

    @Test
    void shouldCountTtlRemovalsAndFiredProcessingTimersWhenProcessingTime() {
        TtlConfig ttl = TtlConfig.of(Duration.ofSeconds(1));
        TransformWithState<String, String, String> tws = TransformWithState.builder(
                        ScriptProcessor.supplier(
                                p -> {
                                    p.value = p.getHandle().getValueState("v", Serdes.String(), ttl);
                                    p.list = p.getHandle().getListState("l", Serdes.String(), ttl);
                                    p.map = p.getHandle().getMapState("m", Serdes.String(), Serdes.String(), ttl);
                                },
                                (p, key, row, tv, out) -> {
                                    p.value.update(row);
                                    p.list.appendValue(row);
                                    p.map.updateValue(row, row);
                                    p.getHandle().registerTimer(tv.getCurrentProcessingTimeInMs() + 5_000);
                                },
                                (p, key, tv, expiry, out) -> out.add("fired:" + key),
                                null),
                        TimeMode.PROCESSING_TIME)
                .name("ttlmetrics")
                .timerResolution(Duration.ofMillis(100))
                .build();
        try (Harness<String, String> h = Harness.strings(tws)) {
            h.pipe("a", "x");
            h.pipe("a", "y"); // value overwritten; list 2 elements; map 2 entries
            h.pipe("b", "z");
            assertThat(total(h, "ttlmetrics", RtmProcessorMetrics.TTL_EXPIRED_REMOVED_TOTAL))
                    .isZero();
            assertThat(RtmProcessorMetrics.total(h.driver.metrics(), "ttlmetrics", RtmProcessorMetrics.STORE_ENTRIES))
                    .isPositive();
            h.advanceMs(1100);
            // value: a, b (2); list: a's 2 elements + b's 1 (3); map: a.x, a.y, b.z (3)
            assertThat(total(h, "ttlmetrics", RtmProcessorMetrics.TTL_EXPIRED_REMOVED_TOTAL))
                    .isEqualTo(8);
            assertThat(total(h, "ttlmetrics", RtmProcessorMetrics.TIMERS_FIRED_TOTAL))
                    .isZero();
            h.advanceMs(4000);
            assertThat(h.drainValues()).containsExactly("fired:a", "fired:b");
            assertThat(total(h, "ttlmetrics", RtmProcessorMetrics.TIMERS_FIRED_TOTAL))
                    .isEqualTo(2);
            assertThat(named(h.driver.metrics(), RtmProcessorMetrics.WATERMARK))
                    .as("no watermark in processing time")
                    .isEmpty();
        }
    }

    @Test
    void shouldRemoveMetricsWhenTaskCloses() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        b.stream("in", Consumed.with(Serdes.String(), Serdes.String()))
                .process(EventTimeTest.builder().build());
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "metrics-close");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "dummy:9092");
        p.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        p.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        p.put(
                StreamsConfig.STATE_DIR_CONFIG,
                Files.createTempDirectory("rtm-metrics").toString());
        TopologyTestDriver driver = new TopologyTestDriver(b.build(), p);
        driver.createInputTopic(
                        "in", Serdes.String().serializer(), Serdes.String().serializer())
                .pipeInput("a", "wm", 2000L);
        assertThat(driver.metrics().keySet()).anyMatch(n -> n.group().equals(RtmProcessorMetrics.GROUP));
        driver.close();
        assertThat(driver.metrics().keySet()).noneMatch(n -> n.group().equals(RtmProcessorMetrics.GROUP));
    }

    @Test
    void shouldReadNewRuntimeWhenTaskIsReinitializedWithoutClose() {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "metrics-reinit");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "dummy:9092");
        MockProcessorContext<String, String> ctx = new MockProcessorContext<>(p, new TaskId(0, 0), null);
        ctx.setCurrentSystemTimeMs(0L);
        KeyValueStore<Bytes, byte[]> store = Stores.keyValueStoreBuilder(
                        Stores.inMemoryKeyValueStore("reinit-state"), Serdes.Bytes(), Serdes.ByteArray())
                .withLoggingDisabled()
                .build();
        store.init(ctx.getStateStoreContext(), store);
        ctx.addStateStore(store);
        Processor<String, String, String, String> first = builder().get();
        first.init(ctx);
        first.process(new Record<>("a", "x", 1000L));
        // the task comes back on this thread without the old processor having been closed (unclean close)
        Processor<String, String, String, String> second = builder().get();
        second.init(ctx);
        second.process(new Record<>("a", "x", 5000L));
        assertThat(named(ctx.metrics().metrics(), RtmProcessorMetrics.WATERMARK))
                .hasSize(1);
        assertThat(RtmProcessorMetrics.watermark(ctx.metrics().metrics(), "reinit"))
                .isEqualTo(OptionalLong.of(5000));
        second.close();
    }

    /**
     * TransformWithStateExec#handleTimerRows deletes a fired timer through {@code processorHandle.deleteTimer}, which
     * counts it in numDeletedTimers: a fired timer is counted as expired and as deleted, and a timer its own handler
     * deletes is counted twice (once by the handler's call, once by the engine's), as in Spark.
     */
    @Test
    void shouldCountAFiredTimerAsExpiredAndDeletedWhenItFires() {
        try (Harness<String, String> h = Harness.strings(TransformWithState.builder(
                        ScriptProcessor.supplier(
                                null,
                                ProcessingTimeTimersTest::commands,
                                (p, key, tv, expiry, out) -> {
                                    if (key.equals("b")) {
                                        p.getHandle().deleteTimer(expiry);
                                    }
                                    out.add("fired:" + key);
                                },
                                null),
                        TimeMode.PROCESSING_TIME)
                .name("fired-timers")
                .timerResolution(Duration.ofMillis(10))
                .build())) {
            h.pipe("a", "at:100");
            h.pipe("b", "at:100");
            h.advanceMs(200);
            assertThat(h.drainValues()).containsExactly("fired:a", "fired:b");
            Map<String, Long> m = RtmProcessorMetrics.sparkCustomMetrics(h.driver.metrics(), null)
                    .get("fired-timers");
            assertThat(m)
                    .containsEntry("numRegisteredTimers", 2L)
                    .containsEntry("numExpiredTimers", 2L)
                    .containsEntry("numDeletedTimers", 3L);
        }
    }

    private static TransformWithState<String, String, String> builder() {
        return TransformWithState.builder(ScriptProcessor.supplier(null, null, null, null), TimeMode.EVENT_TIME)
                .name("reinit")
                .keySerde(Serdes.String())
                .build();
    }

    @Test
    void shouldReportSparksCustomMetricsPerOperatorUnderSparksNames() {
        try (Harness<String, String> h = Harness.strings(TransformWithState.builder(
                        ScriptProcessor.supplier(
                                p -> {
                                    p.value = p.getHandle().getValueState("v", Serdes.String());
                                    p.list = p.getHandle()
                                            .getListState("l", Serdes.String(), TtlConfig.of(Duration.ofSeconds(5)));
                                    p.map = p.getHandle().getMapState("m", Serdes.String(), Serdes.String());
                                    p.getHandle().deleteIfExists("never-declared");
                                },
                                ProcessingTimeTimersTest::commands,
                                ProcessingTimeTimersTest::fired,
                                null),
                        TimeMode.PROCESSING_TIME)
                .name("spark-metrics")
                .timerResolution(Duration.ofMillis(10))
                .build())) {
            h.pipe("a", "at:100");
            h.pipe("a", "at:200");
            h.pipe("b", "at:300");
            h.pipe("a", "del:200");
            h.advanceMs(400);
            assertThat(h.drainValues()).containsExactly("fired:a:100@400", "fired:b:300@400");
            Map<String, Long> m = RtmProcessorMetrics.sparkCustomMetrics(h.driver.metrics(), null)
                    .get("spark-metrics");
            assertThat(m)
                    .containsEntry("numValueStateVars", 1L)
                    .containsEntry("numListStateVars", 0L)
                    .containsEntry("numListStateWithTTLVars", 1L)
                    .containsEntry("numMapStateVars", 1L)
                    .containsEntry("numValueStateWithTTLVars", 0L)
                    .containsEntry("numMapStateWithTTLVars", 0L)
                    .containsEntry("numDeletedStateVars", 0L)
                    .containsEntry("numRegisteredTimers", 3L)
                    // one deleteTimer call and the two fired timers, which Spark deletes through the handle
                    .containsEntry("numDeletedTimers", 3L)
                    .containsEntry("numExpiredTimers", 2L)
                    .containsEntry("numValuesRemovedDueToTTLExpiry", 0L)
                    .containsKeys("timerProcessingTimeMs", "initialStateProcessingTimeMs");
            assertThat(m.keySet()).containsExactlyInAnyOrderElementsOf(RtmProcessorMetrics.SPARK_CUSTOM_METRICS);
        }
    }
}
