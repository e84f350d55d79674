package dev.rtmstreams.processor;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Golden changelog fixtures of the operator store: what a release wrote, restored by the current code through the path
 * a restart takes (the changelog records written into the store below its change-logging layer before the operator's
 * init), then checked through the state reader and through the operator's next outputs. The fixtures live in
 * {@code src/test/resources/golden/v<format version>/}, one directory per state format version; a layout change adds a
 * directory and never rewrites one, and every directory stays restorable while its version is readable.
 *
 * <p>Write the fixtures of the current version (into a directory that does not exist yet) with
 * {@code mvn -pl rtm-stateful-processor test -Dtest=GoldenFixtureTest -Drtm.golden.write=true}.
 */
class GoldenFixtureTest {

    static final Path GOLDEN = Path.of("src", "test", "resources", "golden");
    private static final long T0 = Harness.START.toEpochMilli();
    private static final Bytes METADATA_KEY = Bytes.wrap(new byte[] {0x05, 3});

    // ------------------------------------------------------------------ processing time: value, list, map, TTL, timer

    /**
     * Value state with TTL (a count), list state with TTL (the rows seen), map state without TTL (row -> processing time
     * it was last seen) and a processing-time timer one minute after a key's first row, which reports and clears the
     * list.
     */
    static final class ProcessingTimeProcessor extends StatefulProcessor<String, String, String> {
        private ValueState<Long> count;
        private ListState<String> seen;
        private MapState<String, Long> last;

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            count = getHandle().getValueState("count", Serdes.Long(), TtlConfig.of(Duration.ofHours(1)));
            seen = getHandle().getListState("seen", Serdes.String(), TtlConfig.of(Duration.ofHours(1)));
            last = getHandle().getMapState("last", Serdes.String(), Serdes.Long());
        }

        @Override
        public Iterator<String> handleInputRows(String key, Iterator<String> rows, TimerValues tv) {
            List<String> out = new ArrayList<>();
            while (rows.hasNext()) {
                String row = rows.next();
                long n = count.getOption().orElse(0L) + 1;
                count.update(n);
                seen.appendValue(row);
                last.updateValue(row, tv.getCurrentProcessingTimeInMs());
                if (n == 1) {
                    getHandle().registerTimer(tv.getCurrentProcessingTimeInMs() + 60_000);
                }
                out.add(describe(key));
            }
            return out.iterator();
        }

        @Override
        public Iterator<String> handleExpiredTimer(String key, TimerValues tv, ExpiredTimerInfo timer) {
            String out = key + " timer@" + (timer.getExpiryTimeInMs() - T0) + " "
                    + describe(key).substring(2);
            seen.clear();
            return List.of(out).iterator();
        }

        private String describe(String key) {
            List<String> s = new ArrayList<>();
            seen.get().forEachRemaining(s::add);
            List<String> m = new ArrayList<>();
            last.iterator().forEachRemaining(e -> m.add(e.getKey() + "@" + (e.getValue() - T0)));
            return key + " count=" + count.getOption().orElse(0L) + " seen=" + s + " last=" + m;
        }
    }

    static TransformWithState<String, String, String> processingTime() {
        return TransformWithState.<String, String, String>builder(
                        ProcessingTimeProcessor::new, TimeMode.PROCESSING_TIME)
                .name("golden-pt")
                .keySerde(Serdes.String())
                .valueSerde(Serdes.String())
                .build();
    }

    /** Ends at T0 + 61 s: c's timer fired (its list cleared), a and b hold state and a pending timer each. */
    static void writeProcessingTime(Harness<String, String> h) {
        h.pipe("c", "w");
        h.advance(Duration.ofSeconds(61));
        h.pipe("a", "x");
        h.pipe("a", "y");
        h.pipe("b", "z");
        assertThat(h.drainValues())
                .containsExactly(
                        "c count=1 seen=[w] last=[w@0]",
                        "c timer@60000 count=1 seen=[w] last=[w@0]",
                        "a count=1 seen=[x] last=[x@61000]",
                        "a count=2 seen=[x, y] last=[x@61000, y@61000]",
                        "b count=1 seen=[z] last=[z@61000]");
    }

    static void checkProcessingTime(Harness<String, String> h, List<KeyValue<Bytes, byte[]>> fixture) {
        long expiry = T0 + 61_000 + 3_600_000;
        for (StateReader reader : List.of(StateReader.ofEntries(fixture), StateReader.of(h.store()))) {
            StateReader.KeyState a =
                    reader.read("a".getBytes(StandardCharsets.UTF_8)).orElseThrow();
            assertThat(a.variables().get("count")).containsExactly(new StateReader.StoredValue(null, 2L, expiry));
            assertThat(a.variables().get("seen"))
                    .containsExactly(
                            new StateReader.StoredValue(null, "x", expiry),
                            new StateReader.StoredValue(null, "y", expiry));
            assertThat(a.variables().get("last"))
                    .containsExactly(
                            new StateReader.StoredValue("x", T0 + 61_000, null),
                            new StateReader.StoredValue("y", T0 + 61_000, null));
            assertThat(a.timers()).containsExactly(T0 + 121_000);
            assertThat(reader.readAll()).extracting(StateReader.KeyState::key).containsExactly("a", "b", "c");
            assertThat(reader.description().orElseThrow().variables())
                    .isEqualTo(Map.of("count", "ValueState", "seen", "ListState", "last", "MapState"));
        }
        // value, list and map state read back by the operator
        h.pipe("a", "q");
        assertThat(h.drainValues()).containsExactly("a count=3 seen=[x, y, q] last=[q@61000, x@61000, y@61000]");
        // the restored processing-time timers fire (once the processing time is past them)
        h.advance(Duration.ofSeconds(61));
        assertThat(h.drainValues())
                .containsExactly(
                        "a timer@121000 count=3 seen=[x, y, q] last=[q@61000, x@61000, y@61000]",
                        "b timer@121000 count=1 seen=[z] last=[z@61000]");
        // the restored TTL index: once expired, the cleaner removes the values it lists
        assertThat(h.countSection((byte) 0x02)).isPositive();
        h.advance(Duration.ofHours(1));
        assertThat(h.countSection((byte) 0x02)).isZero();
        h.pipe("b", "r");
        assertThat(h.drainValues()).containsExactly("b count=1 seen=[r] last=[r@3722000, z@61000]");
    }

    // ------------------------------------------------------------------ event time: watermark, event-time timer

    /** Value state (the max event time of a key) and an event-time timer 10 s after a key's first row. */
    static final class EventTimeProcessor extends StatefulProcessor<String, String, String> {
        private ValueState<Long> max;

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            max = getHandle().getValueState("max", Serdes.Long());
        }

        @Override
        public Iterator<String> handleInputRows(String key, Iterator<String> rows, TimerValues tv) {
            List<String> out = new ArrayList<>();
            while (rows.hasNext()) {
                long t = Long.parseLong(rows.next());
                if (!max.exists()) {
                    getHandle().registerTimer(t + 10_000);
                }
                max.update(Math.max(max.getOption().orElse(Long.MIN_VALUE), t));
                out.add(key + " max=" + max.get());
            }
            return out.iterator();
        }

        @Override
        public Iterator<String> handleExpiredTimer(String key, TimerValues tv, ExpiredTimerInfo timer) {
            String out = key + " timer@" + timer.getExpiryTimeInMs() + " max=" + max.get();
            max.clear();
            return List.of(out).iterator();
        }
    }

    static TransformWithState<String, String, String> eventTime() {
        return TransformWithState.<String, String, String>builder(EventTimeProcessor::new, TimeMode.EVENT_TIME)
                .name("golden-et")
                .keySerde(Serdes.String())
                .valueSerde(Serdes.String())
                .eventTimeExtractor((k, v, ts) -> Long.parseLong(v))
                .watermarkDelay(Duration.ofSeconds(5))
                .build();
    }

    /** Ends with watermark 107 000 and timers at 110 000 (a) and 115 000 (b). */
    static void writeEventTime(Harness<String, String> h) {
        h.pipe("a", "100000");
        h.pipe("b", "105000");
        h.pipe("a", "112000");
        assertThat(h.drainValues()).containsExactly("a max=100000", "b max=105000", "a max=112000");
    }

    static void checkEventTime(Harness<String, String> h, List<KeyValue<Bytes, byte[]>> fixture) {
        for (StateReader reader : List.of(StateReader.ofEntries(fixture), StateReader.of(h.store()))) {
            assertThat(reader.watermark()).hasValue(107_000);
            StateReader.KeyState a =
                    reader.read("a".getBytes(StandardCharsets.UTF_8)).orElseThrow();
            assertThat(a.variables().get("max")).containsExactly(new StateReader.StoredValue(null, 112_000L, null));
            assertThat(a.timers()).containsExactly(110_000L);
        }
        // the restored watermark drops a late row
        h.pipe("a", "106000");
        assertThat(h.drainValues()).isEmpty();
        // the restored event-time timers fire once the watermark passes them
        h.pipe("c", "121000");
        assertThat(h.drainValues())
                .containsExactly("c max=121000", "a timer@110000 max=112000", "b timer@115000 max=105000");
    }

    // ------------------------------------------------------------------ evolvable encoding (format version 3)

    /**
     * Value, list and map state of an evolvable serde ({@link VersionedTextSerde} of schema {@code v<version>}): the
     * last row, every row, and the rows seen as map keys with their row as value.
     */
    static final class EvolvableProcessor extends StatefulProcessor<String, String, String> {
        private final int version;
        private ValueState<String> last;
        private ListState<String> all;
        private MapState<String, String> seen;

        EvolvableProcessor(int version) {
            this.version = version;
        }

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            last = getHandle().getValueState("last", new VersionedTextSerde(version));
            all = getHandle().getListState("all", new VersionedTextSerde(version));
            seen = getHandle().getMapState("seen", Serdes.String(), new VersionedTextSerde(version));
        }

        @Override
        public Iterator<String> handleInputRows(String key, Iterator<String> rows, TimerValues tv) {
            List<String> out = new ArrayList<>();
            while (rows.hasNext()) {
                String row = rows.next();
                List<String> a = new ArrayList<>();
                all.get().forEachRemaining(a::add);
                List<String> m = new ArrayList<>();
                seen.iterator().forEachRemaining(e -> m.add(e.getKey() + "=" + e.getValue()));
                out.add(key + " last=" + last.get() + " all=" + a + " seen=" + m);
                last.update(row);
                all.appendValue(row);
                seen.updateValue(row, row);
            }
            return out.iterator();
        }
    }

    static TransformWithState<String, String, String> evolvable(int version) {
        return TransformWithState.<String, String, String>builder(() -> new EvolvableProcessor(version), TimeMode.NONE)
                .name("golden-ev")
                .keySerde(Serdes.String())
                .valueSerde(Serdes.String())
                .build();
    }

    /** Schema v1 writes a and b, then schema v2 (restored from the changelog) writes a again. */
    static void writeEvolvable(Harness<String, String> h) {
        h.pipe("a", "x");
        h.pipe("b", "y");
        h.restartFromChangelog(evolvable(2));
        h.pipe("a", "z");
        assertThat(h.drainValues())
                .containsExactly(
                        "a last=null all=[] seen=[]",
                        "b last=null all=[] seen=[]",
                        "a last=v1:x all=[v1:x] seen=[x=v1:x]");
    }

    static void checkEvolvable(Harness<String, String> h, List<KeyValue<Bytes, byte[]>> fixture) {
        for (StateReader reader : List.of(StateReader.ofEntries(fixture), StateReader.of(h.store()))) {
            StateReader current =
                    reader.withSerde("last", new VersionedTextSerde(2)).withSerde("all", new VersionedTextSerde(2));
            assertThat(current.read("a".getBytes(StandardCharsets.UTF_8))
                            .orElseThrow()
                            .variables())
                    .containsEntry("last", List.of(new StateReader.StoredValue(null, "z", null)))
                    .containsEntry(
                            "all",
                            List.of(
                                    new StateReader.StoredValue(null, "v1:x", null),
                                    new StateReader.StoredValue(null, "z", null)));
            assertThat(current.asWritten()
                            .read("b".getBytes(StandardCharsets.UTF_8))
                            .orElseThrow()
                            .variables())
                    .containsEntry("last", List.of(new StateReader.StoredValue(null, "y", null)));
        }
        h.pipe("b", "w");
        h.pipe("a", "x");
        assertThat(h.drainValues())
                .containsExactly("b last=v1:y all=[v1:y] seen=[y=v1:y]", "a last=z all=[v1:x, z] seen=[x=v1:x, z=z]");
    }

    // ------------------------------------------------------------------ fixtures

    /**
     * One operator kind: how to build it, how its fixture was written, how a restore of it is checked, and how far the
     * writer moved the wall clock from {@link Harness#START} (the restored operator starts there).
     */
    record Scenario(
            String file,
            java.util.function.Supplier<TransformWithState<String, String, String>> operator,
            java.util.function.Consumer<Harness<String, String>> write,
            java.util.function.BiConsumer<Harness<String, String>, List<KeyValue<Bytes, byte[]>>> check,
            long wallClockAdvanceMs,
            String description,
            java.util.function.Supplier<TransformWithState<String, String, String>> writer) {

        /** A scenario whose writer starts with the operator it is restored with. */
        Scenario(
                String file,
                java.util.function.Supplier<TransformWithState<String, String, String>> operator,
                java.util.function.Consumer<Harness<String, String>> write,
                java.util.function.BiConsumer<Harness<String, String>, List<KeyValue<Bytes, byte[]>>> check,
                long wallClockAdvanceMs,
                String description) {
            this(file, operator, write, check, wallClockAdvanceMs, description, operator);
        }

        @Override
        public String toString() {
            return file;
        }
    }

    static List<Scenario> scenarios() {
        return List.of(
                new Scenario(
                        "tws-processing-time.changelog",
                        GoldenFixtureTest::processingTime,
                        GoldenFixtureTest::writeProcessingTime,
                        GoldenFixtureTest::checkProcessingTime,
                        61_000,
                        "processing time: value and list state with TTL, map state, TTL index, processing-time timers"),
                new Scenario(
                        "tws-event-time.changelog",
                        GoldenFixtureTest::eventTime,
                        GoldenFixtureTest::writeEventTime,
                        GoldenFixtureTest::checkEventTime,
                        0,
                        "event time: value state, persisted watermark, event-time timers"),
                new Scenario(
                        "tws-evolvable.changelog",
                        () -> evolvable(2),
                        GoldenFixtureTest::writeEvolvable,
                        GoldenFixtureTest::checkEvolvable,
                        0,
                        "evolvable encoding: value, list and map state with a schema id per value, schemas v1 and v2",
                        () -> evolvable(1)));
    }

    /** Runs the scenario's writer on a fresh operator: @return the changelog of its store. */
    private static List<KeyValue<Bytes, byte[]>> generate(Scenario s) {
        try (Harness<String, String> h = Harness.strings(s.writer().get())) {
            s.write().accept(h);
            return h.changelogSoFar();
        }
    }

    /** @return the format version the current code writes: the first byte of the operator's metadata record */
    private static int currentVersion(List<KeyValue<Bytes, byte[]>> changelog) {
        return changelog.stream()
                .filter(kv -> kv.key.equals(METADATA_KEY))
                .reduce((x, y) -> y)
                .orElseThrow()
                .value[0];
    }

    static Stream<Object[]> fixtures() throws IOException {
        List<Object[]> out = new ArrayList<>();
        try (Stream<Path> dirs = Files.list(GOLDEN)) {
            for (Path dir : dirs.sorted().toList()) {
                for (Scenario s : scenarios()) {
                    Path f = dir.resolve(s.file());
                    if (Files.exists(f)) {
                        out.add(new Object[] {dir.getFileName().toString(), s});
                    }
                }
            }
        }
        assertThat(out).as("golden fixtures under %s", GOLDEN.toAbsolutePath()).isNotEmpty();
        return out.stream();
    }

    @ParameterizedTest(name = "{0}/{1}")
    @MethodSource("fixtures")
    void shouldRestoreEveryGoldenFixtureWithTheCurrentCode(String version, Scenario s) {
        List<KeyValue<Bytes, byte[]>> fixture =
                GoldenChangelog.read(GOLDEN.resolve(version).resolve(s.file()));
        try (Harness<String, String> h = Harness.strings(s.operator().get())) {
            // the operator restarts where the writer stopped: same wall clock, store restored from the fixture
            h.advanceWhileDown(s.wallClockAdvanceMs());
            h.restartFrom(fixture);
            s.check().accept(h, fixture);
        }
    }

    @Test
    void shouldWriteWhatTheFixturesOfTheCurrentFormatVersionHold() {
        for (Scenario s : scenarios()) {
            List<KeyValue<Bytes, byte[]>> now = generate(s);
            Path file = GOLDEN.resolve("v" + currentVersion(now)).resolve(s.file());
            assertThat(file)
                    .as("the fixture of the current format version (a layout change raises the version and adds a"
                            + " directory; write it with -Drtm.golden.write=true)")
                    .exists();
            assertThat(GoldenChangelog.format(storeName(s), s.description(), now))
                    .as("the changelog the current code writes for %s, byte for byte", file)
                    .isEqualTo(read(file));
        }
    }

    private static String storeName(Scenario s) {
        return s.operator().get().storeName();
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * The generator: writes each scenario's fixture into the directory of the format version it is written in (the
     * lowest that holds its record: an operator without evolvable variables writes version 2), never over a fixture.
     */
    @Test
    @EnabledIfSystemProperty(named = "rtm.golden.write", matches = "true")
    void writeFixturesOfTheCurrentFormatVersion() throws IOException {
        for (Scenario s : scenarios()) {
            List<KeyValue<Bytes, byte[]>> now = generate(s);
            Path file = GOLDEN.resolve("v" + currentVersion(now)).resolve(s.file());
            if (Files.exists(file)) {
                continue; // fixtures are never rewritten; a scenario of a plain operator stays in its version
            }
            Files.createDirectories(file.getParent());
            Files.writeString(file, GoldenChangelog.format(storeName(s), s.description(), now), StandardCharsets.UTF_8);
        }
    }
}
