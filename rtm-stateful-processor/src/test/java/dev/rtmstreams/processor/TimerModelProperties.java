package dev.rtmstreams.processor;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Randomized processing-time timer operations checked against a naive in-memory model. */
class TimerModelProperties {

    static final long T0 = Harness.START.toEpochMilli();

    record Op(String kind, String key, long arg) {}

    @Provide
    Arbitrary<List<Op>> ops() {
        Arbitrary<String> keys = Arbitraries.of("a", "b", "c");
        Arbitrary<Op> reg =
                Combinators.combine(keys, Arbitraries.longs().between(0, 3000)).as((k, t) -> new Op("at", k, t));
        Arbitrary<Op> del =
                Combinators.combine(keys, Arbitraries.longs().between(0, 3000)).as((k, t) -> new Op("del", k, t));
        Arbitrary<Op> list = keys.map(k -> new Op("list", k, 0));
        Arbitrary<Op> adv = Arbitraries.longs().between(1, 600).map(ms -> new Op("advance", "", ms));
        return Arbitraries.frequencyOf(
                        net.jqwik.api.Tuple.of(4, reg),
                        net.jqwik.api.Tuple.of(2, del),
                        net.jqwik.api.Tuple.of(2, list),
                        net.jqwik.api.Tuple.of(3, adv))
                .list()
                .ofMaxSize(40);
    }

    @Property(tries = 40)
    void shouldMatchModelWhenTimersRegisteredDeletedAndFired(@ForAll("ops") List<Op> ops) {
        TransformWithState<String, String, String> tws = TransformWithState.builder(
                        ScriptProcessor.supplier(
                                null, ProcessingTimeTimersTest::commands, ProcessingTimeTimersTest::fired, null),
                        TimeMode.PROCESSING_TIME)
                .name("tmodel")
                .storeBackend(StoreBackend.IN_MEMORY)
                .timerResolution(Duration.ofMillis(1))
                .build();
        Map<String, TreeSet<Long>> model = new TreeMap<>();
        List<String> expected = new ArrayList<>();
        long now = 0;
        try (Harness<String, String> h = Harness.strings(tws)) {
            for (Op op : ops) {
                switch (op.kind()) {
                    case "at" -> {
                        h.pipe(op.key(), "at:" + op.arg());
                        model.computeIfAbsent(op.key(), k -> new TreeSet<>()).add(op.arg());
                    }
                    case "del" -> {
                        h.pipe(op.key(), "del:" + op.arg());
                        model.getOrDefault(op.key(), new TreeSet<>()).remove(op.arg());
                    }
                    case "list" -> {
                        h.pipe(op.key(), "list");
                        expected.add("timers=" + new ArrayList<>(model.getOrDefault(op.key(), new TreeSet<>())));
                    }
                    default -> {
                        h.advanceMs(op.arg());
                        now += op.arg();
                    }
                }
                fireDue(model, now, expected);
            }
            assertThat(h.drainValues()).isEqualTo(expected);
        }
    }

    /**
     * Model: every timer at or before now fires once (Spark 4.2's {@code TimerStateImpl.getExpiredTimers}:
     * {@code <=}), ordered by time then key.
     */
    static void fireDue(Map<String, TreeSet<Long>> model, long now, List<String> expected) {
        TreeMap<Long, TreeSet<String>> byTime = new TreeMap<>();
        model.forEach((k, ts) -> ts.headSet(now, true)
                .forEach(t -> byTime.computeIfAbsent(t, x -> new TreeSet<>()).add(k)));
        byTime.forEach((t, ks) -> ks.forEach(k -> {
            expected.add("fired:" + k + ":" + t + "@" + now);
            model.get(k).remove(t);
        }));
    }
}
