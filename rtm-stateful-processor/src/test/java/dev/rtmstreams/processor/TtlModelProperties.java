package dev.rtmstreams.processor;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * Randomized map-state TTL operations against a naive model (value visible iff now < write time + ttl), then a check
 * that the bounded cleanup removes everything physically, at most {@code rtm.ttl.cleanup.batch} entries per pass.
 */
class TtlModelProperties {

    static final long TTL = 1000;

    record Op(String kind, String key, String userKey, long arg) {}

    @Provide
    Arbitrary<List<Op>> ops() {
        Arbitrary<String> keys = Arbitraries.of("a", "b");
        Arbitrary<String> uks = Arbitraries.of("x", "y", "z");
        Arbitrary<Op> put = Combinators.combine(keys, uks, Arbitraries.longs().between(0, 99))
                .as((k, u, v) -> new Op("put", k, u, v));
        Arbitrary<Op> get = Combinators.combine(keys, uks).as((k, u) -> new Op("get", k, u, 0));
        Arbitrary<Op> remove = Combinators.combine(keys, uks).as((k, u) -> new Op("remove", k, u, 0));
        Arbitrary<Op> adv = Arbitraries.longs().between(1, 700).map(ms -> new Op("advance", "", "", ms));
        return Arbitraries.frequencyOf(Tuple.of(4, put), Tuple.of(4, get), Tuple.of(1, remove), Tuple.of(3, adv))
                .list()
                .ofMaxSize(40);
    }

    @Property(tries = 40)
    void shouldMatchModelAndCleanUpBoundedWhenEntriesExpire(@ForAll("ops") List<Op> ops) {
        TransformWithState<String, String, String> tws = TransformWithState.builder(
                        ScriptProcessor.supplier(
                                p -> p.map = p.getHandle()
                                        .getMapState(
                                                "m",
                                                org.apache.kafka.common.serialization.Serdes.String(),
                                                org.apache.kafka.common.serialization.Serdes.String(),
                                                TtlConfig.of(Duration.ofMillis(TTL))),
                                MapStateContractTest::commands,
                                null,
                                null),
                        TimeMode.PROCESSING_TIME)
                .name("ttlmodel")
                .storeBackend(StoreBackend.IN_MEMORY)
                .timerResolution(Duration.ofMillis(1))
                .build();
        Properties props = new Properties();
        props.put(RtmProcessorConfig.TTL_CLEANUP_BATCH_CONFIG, "2");
        Map<String, long[]> model = new HashMap<>(); // key|uk -> {value, expiry}
        List<String> expected = new ArrayList<>();
        long now = 0;
        try (Harness<String, String> h = Harness.strings(tws, props)) {
            for (Op op : ops) {
                String mk = op.key() + "|" + op.userKey();
                switch (op.kind()) {
                    case "put" -> {
                        h.pipe(op.key(), "put:" + op.userKey() + ":" + op.arg());
                        model.put(mk, new long[] {op.arg(), now + TTL});
                    }
                    case "get" -> {
                        h.pipe(op.key(), "getValue:" + op.userKey());
                        long[] e = model.get(mk);
                        expected.add(e != null && now < e[1] ? String.valueOf(e[0]) : "null");
                    }
                    case "remove" -> {
                        h.pipe(op.key(), "remove:" + op.userKey());
                        model.remove(mk);
                    }
                    default -> {
                        h.advanceMs(op.arg());
                        now += op.arg();
                    }
                }
            }
            assertThat(h.drainValues()).isEqualTo(expected);
            h.advanceMs(TTL); // everything expired now; cleanup passes run once per advance
            int index = h.countSection((byte) 2);
            while (index > 0) {
                h.advanceMs(1);
                int after = h.countSection((byte) 2);
                assertThat(index - after).as("removed per pass").isBetween(1, 2);
                index = after;
            }
            assertThat(h.countSection((byte) 1)).as("state entries left").isZero();
        }
    }
}
