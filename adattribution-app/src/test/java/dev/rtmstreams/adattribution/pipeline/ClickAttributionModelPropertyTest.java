package dev.rtmstreams.adattribution.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.adattribution.avro.AttributedClick;
import dev.rtmstreams.join.IntervalJoin;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Click attribution against a reference model of Spark's watermark join semantics: random impressions and clicks
 * (few ids, so matches, duplicates and window-edge cases are common; event times spread over 20 minutes in random
 * order, so some records are late). Model: global watermark = min over both inputs of (max event time - delay),
 * defined once both inputs have a record; a record at or below it on arrival is late (Spark's rule; counted, not
 * joined); copies are dropped before the join, first copy wins, as Spark's {@code dropDuplicatesWithinWatermark} on
 * each input: an impression whose impression_id, or a click whose (impression_id, click_id), equals that of an earlier
 * accepted one that is still held by the join (an impression until the watermark passes its time + window, a click
 * until it passes its own time) is dropped; every record, copies included, feeds its input's max event time;
 * output = one AttributedClick per pair of accepted impression and click with the same impression_id and
 * impression_time <= click_time <= impression_time + window.
 */
class ClickAttributionModelPropertyTest {

    private static final long T = DriverFixture.START.toEpochMilli();
    private static final long MIN = 60_000L;
    private static final long WINDOW = 2 * MIN;
    private static final long DELAY = 5 * MIN;

    record Ev(boolean impression, String impressionId, String clickId, long time) {}

    @Provide
    Arbitrary<List<Ev>> events() {
        Arbitrary<String> impIds = Arbitraries.of("i1", "i2", "i3", "i4");
        Arbitrary<String> clickIds = Arbitraries.of("c1", "c2", "c3", "c4", "c5", "c6");
        // times on a 30 s grid plus window-edge offsets, so inclusive bounds are hit often
        Arbitrary<Long> times = Arbitraries.longs()
                .between(0, 40)
                .map(k -> T + k * 30_000L)
                .flatMap(t -> Arbitraries.of(0L, 0L, 0L, 1L, -1L).map(d -> t + d));
        Arbitrary<Ev> ev = Combinators.combine(Arbitraries.of(true, false), impIds, clickIds, times)
                .as((isImp, imp, clk, t) -> new Ev(isImp, imp, isImp ? null : clk, t));
        return ev.list().ofMinSize(1).ofMaxSize(40);
    }

    @Property(tries = 20)
    void shouldMatchReferenceModelWhenEventsArriveInAnyOrderWithDuplicatesAndLateRecords(
            @ForAll("events") List<Ev> events) throws Exception {
        // model
        long maxImp = Long.MIN_VALUE;
        long maxClick = Long.MIN_VALUE;
        List<Ev> imps = new ArrayList<>();
        List<Ev> clicks = new ArrayList<>();
        List<String> expected = new ArrayList<>();
        long late = 0;
        long copies = 0;
        for (Ev e : events) {
            boolean defined = maxImp != Long.MIN_VALUE && maxClick != Long.MIN_VALUE;
            long wm = defined ? Math.min(maxImp, maxClick) - DELAY : Long.MIN_VALUE;
            if (defined && e.time() <= wm) {
                late++;
                continue;
            }
            if (e.impression()) {
                maxImp = Math.max(maxImp, e.time());
                boolean copy = imps.stream()
                        .anyMatch(p -> p.impressionId().equals(e.impressionId()) && p.time() + WINDOW >= wm);
                if (copy) {
                    copies++;
                    continue;
                }
                imps.add(e);
                for (Ev c : clicks) {
                    if (matches(e, c)) {
                        expected.add(c.clickId() + "@" + c.impressionId());
                    }
                }
            } else {
                maxClick = Math.max(maxClick, e.time());
                boolean copy = clicks.stream()
                        .anyMatch(p -> p.impressionId().equals(e.impressionId())
                                && p.clickId().equals(e.clickId())
                                && p.time() >= wm);
                if (copy) {
                    copies++;
                    continue;
                }
                clicks.add(e);
                for (Ev i : imps) {
                    if (matches(i, e)) {
                        expected.add(e.clickId() + "@" + e.impressionId());
                    }
                }
            }
        }

        Path dir = Files.createTempDirectory("attribution-model");
        try (DriverFixture f = new DriverFixture(DriverFixture.defaults(), "real-time", dir)) {
            check(f, events, expected, late, copies);
        } finally {
            // one directory per try: delete it, or every run of the property leaves a hundred behind in the temp dir
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static void check(DriverFixture f, List<Ev> events, List<String> expected, long late, long copies) {
        {
            for (Ev e : events) {
                if (e.impression()) {
                    f.impressions.pipeInput(
                            e.impressionId(), Events.encode(Events.impression(e.impressionId(), e.time())), e.time());
                } else {
                    f.clicks.pipeInput(
                            e.impressionId(),
                            Events.encode(Events.click(e.clickId(), e.impressionId(), e.time())),
                            e.time());
                }
            }
            List<String> actual = f.attributed.readValuesToList().stream()
                    .map((AttributedClick a) -> a.getClickId() + "@" + a.getImpressionId())
                    .toList();
            // click ids are reused across impression ids here, so (click, impression) is the unit; a pair comes out
            // twice only when the model accepted two copies of it (the first no longer held when the second came)
            assertThat(actual).containsExactlyInAnyOrderElementsOf(expected);
            assertThat(IntervalJoin.lateRecordsTotal(f.driver.metrics(), AdAttributionTopology.JOIN_NAME))
                    .isEqualTo(late);
            assertThat(IntervalJoin.duplicateRecordsTotal(f.driver.metrics(), AdAttributionTopology.JOIN_NAME))
                    .isEqualTo(copies);
        }
    }

    private static boolean matches(Ev imp, Ev click) {
        return imp.impressionId().equals(click.impressionId())
                && imp.time() <= click.time()
                && click.time() <= imp.time() + WINDOW;
    }
}
