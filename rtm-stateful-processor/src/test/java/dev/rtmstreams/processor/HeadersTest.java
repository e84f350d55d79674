package dev.rtmstreams.processor;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;

/** Record timestamps and headers (e.g. rtm-topology's 16-byte {@code rtm.lat} latency header) on operator output. */
class HeadersTest {

    static final long T0 = Harness.START.toEpochMilli();

    static Headers lat(long a, long b) {
        return new RecordHeaders()
                .add("rtm.lat", ByteBuffer.allocate(16).putLong(a).putLong(b).array());
    }

    static byte[] latValue(TestRecord<String, String> r) {
        Header h = r.headers().lastHeader("rtm.lat");
        return h == null ? null : h.value();
    }

    static TransformWithState.Builder<String, String, String> builder() {
        return ExecutionContractTest.builder(null).name("headers");
    }

    @Test
    void shouldForwardHeadersOfKeysLatestRowWhenMicroBatchRunsAfterRestore() {
        for (StoreBackend backend : StoreBackend.values()) {
            try (Harness<String, String> h = Harness.strings(builder()
                    .storeBackend(backend)
                    .executionMode(ExecutionMode.MICRO_BATCH)
                    .microBatchInterval(Duration.ofSeconds(1))
                    .build())) {
                Headers a2 = lat(2, 20).add("other", null);
                h.pipe("a", "a1", T0 + 9, lat(1, 10));
                h.pipe("b", "b1", T0 + 3, lat(3, 30));
                h.pipe("a", "a2", T0 + 5, a2);
                h.pipe("c", "c1", T0 + 4); // no headers
                h.restartFromChangelog();
                h.advanceMs(1000);
                List<TestRecord<String, String>> out = h.drainRecords();
                assertThat(out)
                        .extracting(TestRecord::value)
                        .as(backend.name())
                        .containsExactly("a1", "a2", "b1", "c1");
                assertThat(out).extracting(TestRecord::timestamp).containsExactly(T0 + 9, T0 + 9, T0 + 3, T0 + 4);
                assertThat(out.get(0).headers().toArray()).containsExactly(a2.toArray());
                assertThat(out.get(1).headers().toArray()).containsExactly(a2.toArray());
                assertThat(latValue(out.get(2)))
                        .isEqualTo(lat(3, 30).lastHeader("rtm.lat").value());
                assertThat(out.get(3).headers().toArray()).isEmpty();
            }
        }
    }

    @Test
    void shouldForwardInputHeadersAndNoHeadersOnTimerOutputWhenRealTime() {
        try (Harness<String, String> h = Harness.strings(builder()
                .executionMode(ExecutionMode.REAL_TIME)
                .timerResolution(Duration.ofMillis(100))
                .build())) {
            h.pipe("a", "a1", T0 + 1, lat(7, 70));
            h.pipe("a", "reg:500", T0 + 2, lat(8, 80));
            h.advanceMs(400); // now = 400: the timer at 500 is not due yet
            List<TestRecord<String, String>> in = h.drainRecords();
            assertThat(in).extracting(TestRecord::value).containsExactly("a1");
            assertThat(latValue(in.get(0)))
                    .isEqualTo(lat(7, 70).lastHeader("rtm.lat").value());
            assertThat(in.get(0).timestamp()).isEqualTo(T0 + 1);
            h.advanceMs(100); // now = 500: due at equality (Spark 4.2 fires at t <= processing time)
            List<TestRecord<String, String>> out = h.drainRecords();
            assertThat(out).extracting(TestRecord::value).containsExactly("fired:a:500@500");
            assertThat(out.get(0).headers().toArray()).isEmpty();
        }
    }
}
