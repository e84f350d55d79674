package dev.rtmstreams.processor;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;

class ExecutionContractTest {

    static final long T0 = Harness.START.toEpochMilli();

    static void echo(ScriptProcessor p, String key, String row, TimerValues tv, List<String> out) {
        if (row.startsWith("reg:")) {
            p.getHandle().registerTimer(tv.getCurrentProcessingTimeInMs() + Long.parseLong(row.substring(4)));
        } else if (row.equals("batch")) {
            out.add("batch=" + p.getHandle().getQueryInfo().getBatchId());
        } else {
            out.add(row);
        }
    }

    static TransformWithState.Builder<String, String, String> builder(List<String> calls) {
        return TransformWithState.builder(
                        ScriptProcessor.supplier(
                                null,
                                ExecutionContractTest::echo,
                                (p, key, tv, expiry, out) -> out.add("fired:" + key + ":" + (expiry - T0) + "@"
                                        + (tv.getCurrentProcessingTimeInMs() - T0)),
                                calls),
                        TimeMode.PROCESSING_TIME)
                .name("contract");
    }

    @Test
    void shouldCallOncePerRecordAndForwardAtOnceWhenRealTime() {
        List<String> calls = Collections.synchronizedList(new ArrayList<>());
        try (Harness<String, String> h = Harness.strings(
                builder(calls).executionMode(ExecutionMode.REAL_TIME).build())) {
            h.pipe("a", "a1");
            assertThat(h.drainValues()).containsExactly("a1");
            h.pipe("b", "b1");
            h.pipe("a", "a2");
            assertThat(h.drainValues()).containsExactly("b1", "a2");
            assertThat(calls).containsExactly("rows:a:[a1]@" + T0, "rows:b:[b1]@" + T0, "rows:a:[a2]@" + T0);
        }
    }

    @Test
    void shouldCallOncePerKeyWithAllRowsInOrderWhenMicroBatch() {
        List<String> calls = Collections.synchronizedList(new ArrayList<>());
        try (Harness<String, String> h = Harness.strings(builder(calls)
                .executionMode(ExecutionMode.MICRO_BATCH)
                .microBatchInterval(Duration.ofSeconds(1))
                .build())) {
            h.pipe("a", "a1", T0 + 5);
            h.pipe("b", "b1", T0 + 7);
            h.pipe("a", "a2", T0 + 6);
            h.advanceMs(500);
            h.pipe("a", "a3", T0 + 1);
            assertThat(h.drainValues()).isEmpty();
            assertThat(calls).isEmpty();
            h.advanceMs(500);
            List<TestRecord<String, String>> out = h.drainRecords();
            assertThat(out).extracting(TestRecord::value).containsExactly("a1", "a2", "a3", "b1");
            assertThat(out).extracting(TestRecord::timestamp).containsExactly(T0 + 6, T0 + 6, T0 + 6, T0 + 7);
            long batchTime = T0 + 1000;
            assertThat(calls).containsExactly("rows:a:[a1, a2, a3]@" + batchTime, "rows:b:[b1]@" + batchTime);
            h.advanceMs(1000);
            assertThat(calls).hasSize(2); // no call for keys without rows
        }
    }

    @Test
    void shouldFireTimersInBatchWithoutDataAndCountBatchesWhenMicroBatch() {
        List<String> calls = Collections.synchronizedList(new ArrayList<>());
        try (Harness<String, String> h = Harness.strings(builder(calls)
                .executionMode(ExecutionMode.MICRO_BATCH)
                .microBatchInterval(Duration.ofSeconds(1))
                .build())) {
            h.pipe("a", "batch");
            h.pipe("a", "reg:1500");
            h.advanceMs(1000); // batch 0 at t=1000: timer at 2500
            h.advanceMs(1000); // batch 1 at t=2000: nothing due
            assertThat(h.drainValues()).containsExactly("batch=0");
            h.advanceMs(1000); // batch 2 at t=3000, no data: fires
            h.pipe("a", "batch");
            h.advanceMs(1000); // batch 3
            assertThat(h.drainValues()).containsExactly("fired:a:2500@3000", "batch=3");
        }
    }

    /** Spark: TransformWithStateExec runs processorHandle.doTtlCleanup() when it commits every batch. */
    @Test
    void shouldEvictExpiredTtlStateInABatchWithoutDataWhenMicroBatch() {
        try (Harness<String, String> h = Harness.strings(TransformWithState.builder(
                        ScriptProcessor.supplier(
                                p -> p.value = p.getHandle()
                                        .getValueState("v", Serdes.String(), TtlConfig.of(Duration.ofSeconds(10))),
                                (p, k, r, tv, out) -> p.value.update(r),
                                null,
                                null),
                        TimeMode.PROCESSING_TIME)
                .name("contract-ttl")
                .executionMode(ExecutionMode.MICRO_BATCH)
                .microBatchInterval(Duration.ofSeconds(1))
                .build())) {
            h.pipe("a", "x");
            h.advanceMs(1000); // batch at t=1000: expiry 11000
            assertThat(h.countSection((byte) 1)).isEqualTo(1);
            h.advanceMs(9000); // no-data batch at t=10000: not yet expired
            assertThat(h.countSection((byte) 1)).isEqualTo(1);
            h.advanceMs(1000); // no-data batch at t=11000: expired (now >= expiry) and evicted
            assertThat(h.countSection((byte) 1)).isZero();
        }
    }

    @Test
    void shouldRunNoBatchWithoutDataWhenMicroBatchInEventTime() {
        // Spark runs a no-data batch in event time only when the watermark moved; without data it cannot move here
        List<String> calls = Collections.synchronizedList(new ArrayList<>());
        try (Harness<String, String> h = Harness.strings(TransformWithState.builder(
                        ScriptProcessor.supplier(
                                null,
                                ExecutionContractTest::echo,
                                (p, key, tv, expiry, out) -> out.add("fired"),
                                calls),
                        TimeMode.EVENT_TIME)
                .name("contract-et")
                .executionMode(ExecutionMode.MICRO_BATCH)
                .microBatchInterval(Duration.ofSeconds(1))
                .build())) {
            h.pipe("a", "batch", T0);
            h.advanceMs(1000); // batch 0
            h.advanceMs(1000); // no data: no batch
            h.advanceMs(1000); // no data: no batch
            h.pipe("a", "batch", T0 + 1);
            h.advanceMs(1000); // batch 1
            assertThat(h.drainValues()).containsExactly("batch=0", "batch=1");
        }
    }

    @Test
    void shouldKeepBufferedRowsWhenRestoredBeforeTheBatchRuns() {
        List<String> calls = Collections.synchronizedList(new ArrayList<>());
        for (StoreBackend backend : StoreBackend.values()) {
            calls.clear();
            try (Harness<String, String> h = Harness.strings(builder(calls)
                    .storeBackend(backend)
                    .executionMode(ExecutionMode.MICRO_BATCH)
                    .microBatchInterval(Duration.ofSeconds(1))
                    .build())) {
                h.pipe("a", "a1");
                h.pipe("a", "a2");
                h.restartFromChangelog();
                h.pipe("a", "a3");
                h.advanceMs(1000);
                assertThat(h.drainValues()).as(backend.name()).containsExactly("a1", "a2", "a3");
                h.restartFromChangelog();
                h.advanceMs(1000);
                assertThat(h.drainValues())
                        .as("buffer is emptied after the batch")
                        .isEmpty();
            }
        }
    }

    @Test
    void shouldReadExecutionModeFromAppConfigWhenBuilderLeavesItOpen() {
        List<String> calls = Collections.synchronizedList(new ArrayList<>());
        Properties p = new Properties();
        p.put(RtmProcessorConfig.EXECUTION_MODE_CONFIG, RtmProcessorConfig.EXECUTION_MODE_MICRO_BATCH);
        p.put(RtmProcessorConfig.MICRO_BATCH_INTERVAL_MS_CONFIG, "200");
        try (Harness<String, String> h = Harness.strings(builder(calls).build(), p)) {
            h.pipe("a", "a1");
            h.pipe("a", "a2");
            assertThat(h.drainValues()).isEmpty();
            h.advanceMs(200);
            assertThat(h.drainValues()).containsExactly("a1", "a2");
            assertThat(calls).containsExactly("rows:a:[a1, a2]@" + (T0 + 200));
        }
    }

    @Test
    void shouldCountEpochsOfCommitIntervalWhenRealTime() {
        Properties p = new Properties();
        p.put("commit.interval.ms", "1000");
        try (Harness<String, String> h = Harness.strings(builder(null).build(), p)) {
            h.pipe("a", "batch");
            h.advanceMs(1000);
            h.pipe("a", "batch");
            h.advanceMs(1000);
            h.pipe("a", "batch");
            assertThat(h.drainValues()).containsExactly("batch=0", "batch=1", "batch=2");
        }
    }
}
