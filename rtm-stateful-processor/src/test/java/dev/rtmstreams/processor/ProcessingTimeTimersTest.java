package dev.rtmstreams.processor;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;

class ProcessingTimeTimersTest {

    static final long T0 = Harness.START.toEpochMilli();

    /** Commands: reg:+ms (relative to now), del:+ms (relative to START), list. Output times are relative to START. */
    static void commands(ScriptProcessor p, String key, String row, TimerValues tv, List<String> out) {
        String[] c = row.split(":", 2);
        StatefulProcessorHandle h = p.getHandle();
        switch (c[0]) {
            case "reg" -> h.registerTimer(tv.getCurrentProcessingTimeInMs() + Long.parseLong(c[1]));
            case "at" -> h.registerTimer(T0 + Long.parseLong(c[1]));
            case "del" -> h.deleteTimer(T0 + Long.parseLong(c[1]));
            case "list" -> {
                List<Long> ts = new ArrayList<>();
                h.listTimers().forEachRemaining(t -> ts.add(t - T0));
                out.add("timers=" + ts);
            }
            case "noop" -> {}
            default -> throw new IllegalArgumentException(row);
        }
    }

    static void fired(ScriptProcessor p, String key, TimerValues tv, long expiry, List<String> out) {
        out.add("fired:" + key + ":" + (expiry - T0) + "@" + (tv.getCurrentProcessingTimeInMs() - T0));
    }

    static Harness<String, String> harness(StoreBackend backend, Duration resolution) {
        return Harness.strings(TransformWithState.builder(
                        ScriptProcessor.supplier(
                                null, ProcessingTimeTimersTest::commands, ProcessingTimeTimersTest::fired, null),
                        TimeMode.PROCESSING_TIME)
                .name("ptimers")
                .storeBackend(backend)
                .timerResolution(resolution)
                .build());
    }

    @Test
    void shouldFireTimerWithoutInputWhenWallClockPassesIt() {
        try (Harness<String, String> h = harness(StoreBackend.ROCKS_DB, Duration.ofMillis(100))) {
            h.pipe("a", "reg:1000");
            h.advanceMs(900);
            assertThat(h.drainValues()).isEmpty();
            h.advanceMs(100); // now = 1000: due at equality (Spark 4.2 fires at t <= processing time)
            List<TestRecord<String, String>> out = h.drainRecords();
            assertThat(out).hasSize(1);
            assertThat(out.get(0).key()).isEqualTo("a");
            assertThat(out.get(0).value()).isEqualTo("fired:a:1000@1000");
            assertThat(out.get(0).timestamp()).isEqualTo(T0 + 1000);
            h.advanceMs(1000);
            assertThat(h.drainValues()).isEmpty();
        }
    }

    @Test
    void shouldFireAtMostOneResolutionLateWhenResolutionIsCoarse() {
        try (Harness<String, String> h = harness(StoreBackend.IN_MEMORY, Duration.ofMillis(500))) {
            h.pipe("a", "reg:100");
            h.advanceMs(400);
            assertThat(h.drainValues()).isEmpty();
            h.advanceMs(100);
            assertThat(h.drainValues()).containsExactly("fired:a:100@500");
        }
    }

    @Test
    void shouldKeepSeveralTimersPerKeyAndOneWhenRegisteredTwice() {
        try (Harness<String, String> h = harness(StoreBackend.ROCKS_DB, Duration.ofMillis(100))) {
            h.pipe("a", "at:300");
            h.pipe("a", "at:100");
            h.pipe("a", "at:300");
            h.pipe("a", "at:200");
            h.pipe("b", "at:100");
            h.pipe("a", "list");
            h.pipe("b", "list");
            assertThat(h.drainValues()).containsExactly("timers=[100, 200, 300]", "timers=[100]");
            h.advanceMs(1000);
            assertThat(h.drainValues())
                    .containsExactly("fired:a:100@1000", "fired:b:100@1000", "fired:a:200@1000", "fired:a:300@1000");
        }
    }

    @Test
    void shouldNotFireDeletedTimerWhenDeletedBeforeDue() {
        try (Harness<String, String> h = harness(StoreBackend.ROCKS_DB, Duration.ofMillis(100))) {
            h.pipe("a", "at:500");
            h.pipe("a", "at:600");
            h.pipe("a", "del:500");
            h.pipe("a", "del:999");
            h.pipe("a", "list");
            assertThat(h.drainValues()).containsExactly("timers=[600]");
            h.advanceMs(700);
            assertThat(h.drainValues()).containsExactly("fired:a:600@700");
            h.pipe("a", "list");
            assertThat(h.drainValues()).containsExactly("timers=[]");
        }
    }

    @Test
    void shouldListDueButUnfiredTimersWhenHandlingInput() {
        try (Harness<String, String> h = harness(StoreBackend.ROCKS_DB, Duration.ofSeconds(10))) {
            h.pipe("a", "at:100");
            h.advanceMs(200); // no punctuation yet (resolution 10 s)
            h.pipe("a", "list"); // listed during the call, fired right after it
            assertThat(h.drainValues()).containsExactly("timers=[100]", "fired:a:100@200");
        }
    }

    @Test
    void shouldFireOverdueTimersPromptlyWhenRestartedAfterDowntime() {
        try (Harness<String, String> h = harness(StoreBackend.ROCKS_DB, Duration.ofMillis(100))) {
            h.pipe("a", "at:1000");
            h.pipe("b", "at:5000");
            h.advanceWhileDown(1400);
            h.restartFromChangelog();
            h.advanceMs(100); // first punctuation after restore
            assertThat(h.drainValues()).containsExactly("fired:a:1000@1500");
            h.advanceMs(4000);
            assertThat(h.drainValues()).containsExactly("fired:b:5000@5500");
        }
    }

    @Test
    void shouldKeepPendingTimersWhenRestoredFromChangelog() {
        for (StoreBackend backend : StoreBackend.values()) {
            try (Harness<String, String> h = harness(backend, Duration.ofMillis(100))) {
                h.pipe("a", "at:1000");
                h.pipe("a", "at:2000");
                h.pipe("a", "del:2000");
                h.pipe("b", "at:3000");
                h.restartFromChangelog();
                h.pipe("a", "list");
                assertThat(h.drainValues()).containsExactly("timers=[1000]");
                h.advanceMs(3100);
                assertThat(h.drainValues())
                        .as(backend.name())
                        .containsExactly("fired:a:1000@3100", "fired:b:3000@3100");
            }
        }
    }

    @Test
    void shouldFireATimerRegisteredBeforeTheTimesAlreadyFiredWhenItIsDue() {
        try (Harness<String, String> h = harness(StoreBackend.ROCKS_DB, Duration.ofMillis(100))) {
            h.pipe("a", "at:1000");
            h.pipe("b", "at:2000");
            h.advanceMs(2100);
            assertThat(h.drainValues()).containsExactly("fired:a:1000@2100", "fired:b:2000@2100");
            h.pipe("c", "at:500"); // earlier than every timer fired so far: the next scan must still find it
            h.pipe("c", "at:3000");
            h.advanceMs(100);
            assertThat(h.drainValues()).containsExactly("fired:c:500@2100"); // due at once: fired after the input
            h.advanceMs(1000);
            assertThat(h.drainValues()).containsExactly("fired:c:3000@3200");
        }
    }

    @Test
    void shouldChangelogOnlyTheTimeOrderedTimerIndexAndStillListTimersPerKeyAfterARestore() {
        byte timeIndex = 0x03; // Layout.TIMER: [TIMER][time][key]
        byte keyIndex = 0x04; // Layout.TIMER_BY_KEY: [TIMER/KEY][key][time], kept beside the store, not changelogged
        for (StoreBackend backend : StoreBackend.values()) {
            try (Harness<String, String> h = harness(backend, Duration.ofMillis(100))) {
                h.pipe("a", "at:1000");
                h.pipe("a", "at:2000");
                h.pipe("b", "at:3000");
                h.pipe("a", "del:2000");

                List<Byte> sections =
                        h.changelogSoFar().stream().map(kv -> kv.key.get()[0]).toList();
                assertThat(sections).as(backend.name()).doesNotContain(keyIndex);
                assertThat(sections.stream().filter(t -> t == timeIndex))
                        .as(backend.name() + ": three registrations and one deletion")
                        .hasSize(4);

                h.pipe("a", "list");
                h.restartFromChangelog();
                h.pipe("a", "list");
                h.pipe("b", "list");
                assertThat(h.drainValues())
                        .as(backend.name())
                        .containsExactly("timers=[1000]", "timers=[1000]", "timers=[3000]");
            }
        }
    }

    @Test
    void shouldFireTimerRegisteredFromTimerHandlerWhenItComesDue() {
        List<String> calls = new ArrayList<>();
        TransformWithState<String, String, String> tws = TransformWithState.builder(
                        ScriptProcessor.supplier(
                                null,
                                ProcessingTimeTimersTest::commands,
                                (p, key, tv, expiry, out) -> {
                                    out.add("fired:" + (expiry - T0));
                                    if (expiry - T0 < 300) {
                                        p.getHandle().registerTimer(expiry + 100);
                                    }
                                },
                                calls),
                        TimeMode.PROCESSING_TIME)
                .name("chain")
                .build();
        try (Harness<String, String> h = Harness.strings(tws, new Properties())) {
            h.pipe("a", "at:100");
            for (int i = 0; i < 5; i++) {
                h.advanceMs(100);
            }
            assertThat(h.drainValues()).containsExactly("fired:100", "fired:200", "fired:300");
        }
    }
}
