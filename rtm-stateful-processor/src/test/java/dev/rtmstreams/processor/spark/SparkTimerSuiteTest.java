package dev.rtmstreams.processor.spark;

import static dev.rtmstreams.processor.spark.SparkTwsPort.T0;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.processor.TimeMode;
import dev.rtmstreams.processor.TransformWithState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Port of Spark's {@code TimerSuite}
 * (sql/core/src/test/scala/org/apache/spark/sql/execution/streaming/state/TimerSuite.scala). Spark unit-tests
 * {@code TimerStateImpl}: {@code registerTimer}/{@code deleteTimer}/{@code listTimers} under an implicit grouping key
 * and {@code getExpiredTimers(threshold)}, the operator's read of due timers over all keys. Here the same timers go
 * through the handle of a running operator ({@link HandleProbe}) and {@code getExpiredTimers(t)} is observed as the
 * timers that fire, in order, once processing time (real-time mode, 1 ms timer resolution) or the watermark (a row
 * with a later event time) passes {@code t}. Each Spark test runs for "Processing" and "Event" time: one
 * parameterized test per Spark test. Timer times are relative to {@link SparkTwsPort#T0}.
 *
 * <p>Differences from Spark's sequence, because firing a timer deletes it while {@code getExpiredTimers} only reads:
 * the expired-timer checks run after the {@code listTimers} checks of the same test; the check with
 * {@code Long.MinValue} is "nothing fired before time moved". The threshold is inclusive, as in Spark ("if timestamp
 * equals to expiryTimestampsMs, it will be considered expired"): a threshold {@code t} is reached by moving time to
 * {@code t}. Timer times are relative to {@link #BASE}, one millisecond after the operator's start, so that a timer
 * at 0 is not already due when it is registered.
 *
 * <p>Skipped:
 * <ul>
 *   <li>"Timer state operations with non-primitive type": a case-class grouping key through Spark encoders (our
 *       grouping key is any type with a Serde; the timer store works on its bytes).</li>
 * </ul>
 */
class SparkTimerSuiteTest {

    /** Commands: {@code reg:t1,t2,...}, {@code del:t}, {@code list}; every fired timer outputs {@code fired:t}. */
    /** What timer times are relative to: one millisecond after the operator's start ({@link SparkTwsPort#T0}). */
    private static final long BASE = T0 + 1;

    private static final class Timers implements AutoCloseable {
        final TimeMode mode;
        final SparkTwsPort p;
        long eventTime = -1_000_000; // rows carry event times far below the timers until time is moved

        Timers(TimeMode mode) {
            this.mode = mode;
            Supplier<HandleProbe> s = () -> {
                HandleProbe h = new HandleProbe();
                h.onRow = (handle, row, out) -> {
                    if (row.startsWith("reg:")) {
                        Stream.of(row.substring(4).split(","))
                                .forEach(t -> handle.registerTimer(BASE + Long.parseLong(t)));
                    } else if (row.startsWith("del:")) {
                        handle.deleteTimer(BASE + Long.parseLong(row.substring(4)));
                    } else if (row.equals("list")) {
                        List<Long> ts = new ArrayList<>();
                        handle.listTimers().forEachRemaining(t -> ts.add(t - BASE));
                        out.add("timers=" + ts);
                    }
                };
                h.onTimer = (handle, expiry, out) -> out.add("fired:" + (expiry - BASE));
                return h;
            };
            this.p = new SparkTwsPort(TransformWithState.builder(s, mode)
                    .name("timers")
                    .timerResolution(Duration.ofMillis(1))
                    .build());
        }

        void cmd(String key, String row) {
            p.addAt(key, row, ++eventTime);
        }

        List<String> list(String key) {
            cmd(key, "list");
            return p.drain();
        }

        /**
         * Moves processing time or the watermark to {@code t} (relative to {@link #BASE}: {@code t + 1} after
         * {@link SparkTwsPort#T0}); @return the timers that fired.
         */
        List<String> passTime(long t) {
            if (mode == TimeMode.PROCESSING_TIME) {
                p.advance(t + 1 - p.now());
            } else {
                eventTime = t + 1;
                p.addAt("watermark", "noop", eventTime);
            }
            return p.drain();
        }

        @Override
        public void close() {
            p.close();
        }
    }

    private static String fired(String key, long t) {
        return key + ",fired:" + t;
    }

    @ParameterizedTest(name = "{0} timer - single instance with single key")
    @EnumSource(
            value = TimeMode.class,
            names = {"PROCESSING_TIME", "EVENT_TIME"})
    @DisplayName("TimerSuite: $timeMode timer - single instance with single key")
    void shouldRegisterListAndDeleteTimersOfOneKey(TimeMode mode) {
        try (Timers t = new Timers(mode)) {
            t.cmd("test_key", "reg:1000");
            assertThat(t.list("test_key")).containsExactly("test_key,timers=[1000]");
            assertThat(t.p.drain()).isEmpty(); // getExpiredTimers(Long.MinValue) is empty
            t.cmd("test_key", "reg:20000");
            assertThat(t.list("test_key")).containsExactly("test_key,timers=[1000, 20000]");
            t.cmd("test_key", "del:20000");
            assertThat(t.list("test_key")).containsExactly("test_key,timers=[1000]");
            assertThat(t.passTime(Long.MAX_VALUE / 2)).containsExactly(fired("test_key", 1000));
        }
    }

    @ParameterizedTest(name = "{0} timer - multiple instances with single key")
    @EnumSource(
            value = TimeMode.class,
            names = {"PROCESSING_TIME", "EVENT_TIME"})
    @DisplayName("TimerSuite: $timeMode timer - multiple instances with single key")
    void shouldShareTheTimersOfOneKey(TimeMode mode) {
        // Spark's two TimerStateImpl instances over one store are the one handle here
        try (Timers t = new Timers(mode)) {
            t.cmd("test_key", "reg:1000");
            t.cmd("test_key", "reg:15000");
            assertThat(t.list("test_key")).containsExactly("test_key,timers=[1000, 15000]");
            t.cmd("test_key", "reg:20000");
            assertThat(t.list("test_key")).containsExactly("test_key,timers=[1000, 15000, 20000]");
            t.cmd("test_key", "del:20000");
            assertThat(t.list("test_key")).containsExactly("test_key,timers=[1000, 15000]");
            assertThat(t.passTime(15000)).containsExactly(fired("test_key", 1000), fired("test_key", 15000));
        }
    }

    @ParameterizedTest(name = "{0} timer - multiple instances with multiple keys")
    @EnumSource(
            value = TimeMode.class,
            names = {"PROCESSING_TIME", "EVENT_TIME"})
    @DisplayName("TimerSuite: $timeMode timer - multiple instances with multiple keys")
    void shouldKeepTimersPerKeyAndFireThemAcrossKeysInTimeOrder(TimeMode mode) {
        try (Timers t = new Timers(mode)) {
            t.cmd("test_key1", "reg:1000,2000");
            assertThat(t.list("test_key1")).containsExactly("test_key1,timers=[1000, 2000]");
            t.cmd("test_key2", "reg:15000");
            assertThat(t.list("test_key1")).containsExactly("test_key1,timers=[1000, 2000]");
            assertThat(t.list("test_key2")).containsExactly("test_key2,timers=[15000]");
            assertThat(t.passTime(1500)).containsExactly(fired("test_key1", 1000));
            assertThat(t.passTime(10000)).containsExactly(fired("test_key1", 2000));
            assertThat(t.passTime(Long.MAX_VALUE / 2)).containsExactly(fired("test_key2", 15000));
        }
    }

    @ParameterizedTest(
            name = "{0} timer - Range scan on second index timer key - verify timestamp is sorted for"
                    + " single instance")
    @EnumSource(
            value = TimeMode.class,
            names = {"PROCESSING_TIME", "EVENT_TIME"})
    @DisplayName("TimerSuite: $timeMode timer - Range scan on second index timer key - verify timestamp is sorted for"
            + " single instance")
    void shouldFireTimersOfOneKeyInTimeOrder(TimeMode mode) {
        List<Long> ts = List.of(931L, 8000L, 452300L, 4200L, 90L, 1L, 2L, 8L, 3L, 35L, 6L, 9L, 5L);
        try (Timers t = new Timers(mode)) {
            ts.forEach(x -> t.cmd("test_key", "reg:" + x));
            assertThat(t.p.drain()).isEmpty();
            List<String> upTo4200 = ts.stream()
                    .sorted()
                    .filter(x -> x <= 4200L)
                    .map(x -> fired("test_key", x))
                    .toList();
            assertThat(t.passTime(4200)).containsExactlyElementsOf(upTo4200);
            List<String> rest = ts.stream()
                    .sorted()
                    .filter(x -> x > 4200L)
                    .map(x -> fired("test_key", x))
                    .toList();
            assertThat(t.passTime(Long.MAX_VALUE / 2)).containsExactlyElementsOf(rest);
        }
    }

    @ParameterizedTest(
            name = "{0} timer - test range scan on second index timer key - verify timestamp is sorted for"
                    + " multiple instances")
    @EnumSource(
            value = TimeMode.class,
            names = {"PROCESSING_TIME", "EVENT_TIME"})
    @DisplayName("TimerSuite: $timeMode timer - test range scan on second index timer key - verify timestamp is sorted"
            + " for multiple instances")
    void shouldFireTimersOfSeveralKeysInTimeOrder(TimeMode mode) {
        List<Long> ts1 = List.of(64L, 32L, 1024L, 4096L, 0L, 1L);
        List<Long> ts2 = List.of(931L, 8000L, 452300L, 4200L);
        List<Long> ts3 = List.of(1L, 2L, 8L, 3L);
        try (Timers t = new Timers(mode)) {
            ts1.forEach(x -> t.cmd("test_key1", "reg:" + x));
            ts2.forEach(x -> t.cmd("test_key1", "reg:" + x));
            ts3.forEach(x -> t.cmd("test_key3", "reg:" + x));
            assertThat(t.p.drain()).isEmpty();
            List<Long> all =
                    Stream.of(ts1, ts2, ts3).flatMap(List::stream).sorted().toList();
            List<String> fired = new ArrayList<>(t.passTime(8000));
            assertThat(fired.stream().map(f -> Long.parseLong(f.substring(f.indexOf(':') + 1))))
                    .containsExactlyElementsOf(
                            all.stream().filter(x -> x <= 8000L).toList());
            fired = new ArrayList<>(t.passTime(Long.MAX_VALUE / 2));
            assertThat(fired).containsExactly(fired("test_key1", 452300L));
        }
    }
}
