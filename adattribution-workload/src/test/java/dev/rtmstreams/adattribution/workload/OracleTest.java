package dev.rtmstreams.adattribution.workload;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class OracleTest {

    private static final long T0 = 1_000_000_000L;
    private static final long MIN = 60_000L;
    private static final Oracle ORACLE = new Oracle(Duration.ofMinutes(2), Duration.ofMinutes(5));

    /** Builds a hand-made event list in send order. */
    private static final class Script {
        final List<Event> events = new ArrayList<>();
        final Map<String, Long> seqOf = new HashMap<>();

        Script imp(String id, long time) {
            return add(Event.impression(id, time, "u-" + id, "cmp", "ad", "pub", 42, EventTag.NORMAL), "imp:" + id);
        }

        Script click(String id, String impression, long time) {
            return add(Event.click(id, impression, time, "u-" + impression, EventTag.NORMAL), "click:" + id);
        }

        Script request(String txn) {
            return add(Event.request(txn, T0, "user", "cmp", "ad7", 1_500_000, EventTag.NORMAL), "req:" + txn);
        }

        Script ack(String txn, String status, long time) {
            return add(Event.ack(txn, time, "ad7", status, EventTag.NORMAL), "ack:" + txn + ":" + status);
        }

        private Script add(Event e, String label) {
            long seq = events.size();
            events.add(e.at(seq, seq * 1000));
            seqOf.putIfAbsent(label, seq);
            return this;
        }
    }

    private static Map<String, Long> completingByIdentity(List<Expected> expected) {
        Map<String, Long> m = new HashMap<>();
        for (Expected e : expected) {
            assertThat(m.put(e.identity(), e.completingSeq()))
                    .as("identity %s once", e.identity())
                    .isNull();
        }
        return m;
    }

    @Test
    void shouldAttributeClicksOnlyInsideTheInclusiveWindowWhenTimesSitAtTheEdges() {
        Script s = new Script()
                .imp("A", T0)
                .click("a-at-start", "A", T0)
                .click("a-at-end", "A", T0 + 2 * MIN)
                .click("a-after-end", "A", T0 + 2 * MIN + 1)
                .click("a-before-start", "A", T0 - 1)
                .click("a-inside", "A", T0 + 30_000);
        Map<String, Long> out = completingByIdentity(ORACLE.service(s.events).expected());
        assertThat(out).containsOnlyKeys("a-at-start", "a-at-end", "a-inside");
        assertThat(out.get("a-at-end")).isEqualTo(s.seqOf.get("click:a-at-end"));
    }

    @Test
    void shouldMatchWhicheverArrivesFirstAndTimeTheMatchFromTheLaterRecord() {
        Script s = new Script()
                .click("b1", "B", T0 + 5_000)
                .click("b2", "B", T0 + 3 * MIN)
                .imp("B", T0);
        Oracle.Result r = ORACLE.service(s.events);
        assertThat(r.expected()).singleElement().satisfies(e -> {
            assertThat(e.identity()).isEqualTo("b1");
            assertThat(e.key()).isEqualTo("B");
            assertThat(e.kind()).isEqualTo(OutputKind.ATTRIBUTED_CLICK);
            assertThat(e.completingSeq()).isEqualTo(s.seqOf.get("imp:B"));
            assertThat(e.fingerprint())
                    .isEqualTo(Fingerprints.attributedClick("b1", "B", "u-B", "cmp", "ad", "pub", 42, T0, T0 + 5_000));
        });
    }

    @Test
    void shouldEmitOneOutputPerDistinctClickWhenImpressionsAndClicksAreDuplicated() {
        Script s = new Script()
                .imp("C", T0)
                .imp("C", T0) // duplicate impression before the click
                .click("c1", "C", T0 + 1_000)
                .click("c1", "C", T0 + 1_000) // duplicate click
                .imp("C", T0) // duplicate impression after the click
                .click("c2", "C", T0 + 2_000);
        Oracle.Result r = ORACLE.service(s.events);
        assertThat(completingByIdentity(r.expected())).containsOnlyKeys("c1", "c2");
        assertThat(r.duplicatesDropped()).isEqualTo(3);
    }

    @Test
    void shouldNotAttributeOrphanClicks() {
        Script s = new Script().imp("D", T0).click("z1", "never-sent", T0 + 1_000);
        assertThat(ORACLE.service(s.events).expected()).isEmpty();
    }

    @Test
    void shouldDropRecordsAtOrBehindTheGlobalWatermarkAndKeepThoseAfterIt() {
        Script s = new Script()
                // before both sides are seen nothing is late, however old
                .imp("K", T0 - 10 * MIN)
                .click("k1", "K", T0 - 10 * MIN + 1_000)
                // impressions sent early, while the watermark is still low
                .imp("H", T0 + 50_000)
                .imp("I", T0 + 250_000)
                .imp("J", T0 + 250_000)
                // both sides advance: watermark = min(T0+10min, T0+10min+1s) - 5min = T0 + 5min
                .imp("M", T0 + 10 * MIN)
                .click("m1", "M", T0 + 10 * MIN + 1_000)
                // a click whose impression is in state but which is itself behind the watermark
                .click("h1", "H", T0 + 100_000)
                // one millisecond after the watermark: not late; exactly at it: late (Spark's rule, t <= wm)
                .click("i1", "I", T0 + 5 * MIN + 1)
                .click("j1", "J", T0 + 5 * MIN)
                // a late pair: both behind the watermark
                .imp("E", T0 + 200_000)
                .click("e1", "E", T0 + 250_000);
        Oracle.Result r = ORACLE.service(s.events);
        assertThat(completingByIdentity(r.expected())).containsOnlyKeys("k1", "m1", "i1");
        assertThat(r.lateDropped()).isEqualTo(4);
    }

    @Test
    void shouldUseTheMinimumOfBothSidesForTheWatermarkWhenOneSideRunsAhead() {
        Script s = new Script()
                .imp("P", T0)
                .click("p-future", "P", T0 + 2 * MIN) // clicks run 2 min ahead: watermark = T0 - 5min
                .imp("Q", T0 - 4 * MIN) // 4 min behind the impression side: not late
                .click("q1", "Q", T0 - 4 * MIN + 10_000);
        assertThat(completingByIdentity(ORACLE.service(s.events).expected())).containsOnlyKeys("p-future", "q1");
    }

    @Test
    void shouldEmitOneLogRecordPerAckWhicheverArrivesFirst() {
        Script s = new Script()
                .request("t1")
                .ack("t1", "delivered", T0 + 1)
                .ack("t1", "clicked", T0 + 2)
                .ack("t2", "delivered", T0 + 3)
                .request("t2")
                .ack("t3", "skipped", T0 + 4) // orphan ack
                .request("t4") // orphan request
                .ack("t5", "delivered", T0 + 5)
                .request("t5")
                .ack("t5", "clicked", T0 + 6)
                .request("t1"); // a repeated request changes nothing
        List<Expected> expected = ORACLE.service(s.events).expected();
        Map<String, Long> out = completingByIdentity(expected);
        assertThat(out)
                .containsOnlyKeys(
                        "t1|delivered|" + (T0 + 1),
                        "t1|clicked|" + (T0 + 2),
                        "t2|delivered|" + (T0 + 3),
                        "t5|delivered|" + (T0 + 5),
                        "t5|clicked|" + (T0 + 6));
        assertThat(out.get("t2|delivered|" + (T0 + 3))).isEqualTo(s.seqOf.get("req:t2"));
        assertThat(out.get("t1|clicked|" + (T0 + 2))).isEqualTo(s.seqOf.get("ack:t1:clicked"));
        assertThat(expected).allSatisfy(e -> assertThat(e.kind()).isEqualTo(OutputKind.LOG_RECORD));
        assertThat(expected.get(0).fingerprint())
                .isEqualTo(
                        Fingerprints.logRecord("t1", "ad7", "cmp", "user", 1_500_000, T0, "ad7", "delivered", T0 + 1));
    }

    @Test
    void shouldExpectOneEchoPerClickSentWhenEchoing() {
        Script s = new Script()
                .imp("A", T0)
                .click("a1", "A", T0)
                .click("a1", "A", T0)
                .click("z", "none", T0);
        List<Expected> echo = Oracle.echo(s.events).expected();
        assertThat(echo).extracting(Expected::identity).containsExactly("a1", "a1", "z");
    }

    @Test
    void shouldAgreeWithTheGeneratorTagsWhenGeneratedWorkloadsAreJudged() {
        for (long seed = 1; seed <= 5; seed++) {
            WorkloadConfig c = WorkloadConfig.builder()
                    .seed(seed)
                    .rate(3000)
                    .duration(Duration.ofSeconds(20))
                    .build();
            List<Event> events = WorkloadGenerator.generate(c, T0);
            Set<String> attributed = ORACLE.service(events).expected().stream()
                    .filter(e -> e.kind() == OutputKind.ATTRIBUTED_CLICK)
                    .map(Expected::identity)
                    .collect(Collectors.toSet());
            Map<String, Event> impressions = new HashMap<>();
            Set<String> clickIds = new HashSet<>();
            for (Event e : events) {
                if (e.kind() == EventKind.IMPRESSION) {
                    impressions.putIfAbsent(e.id(), e);
                } else if (e.kind() == EventKind.CLICK && clickIds.add(e.id())) {
                    boolean shouldMatch = e.tag() == EventTag.NORMAL || e.tag() == EventTag.WINDOW_EDGE;
                    assertThat(attributed.contains(e.id()))
                            .as("seed %s click %s tagged %s", seed, e.id(), e.tag())
                            .isEqualTo(shouldMatch);
                }
            }
            assertThat(attributed).isNotEmpty();
        }
    }
}
