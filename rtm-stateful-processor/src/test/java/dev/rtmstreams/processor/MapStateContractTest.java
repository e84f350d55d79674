package dev.rtmstreams.processor;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.Serdes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Contract of {@link MapState}, run against every {@link StoreBackend} (see the subclasses). */
abstract class MapStateContractTest {

    abstract StoreBackend backend();

    /**
     * The TTL the contract's non-TTL cases run with: none, or (the {@code ...TtlLayerTest} subclasses: the TTL wrapper on) one too long to expire
     * within a test, so that the same contract holds with the TTL layer on.
     */
    TtlConfig contractTtl() {
        return TtlConfig.NONE;
    }

    static void commands(ScriptProcessor p, String key, String row, TimerValues tv, List<String> out) {
        String[] c = row.split(":", 3);
        switch (c[0]) {
            case "put" -> p.map.updateValue(c[1], c[2]);
            case "getValue" -> out.add(String.valueOf(p.map.getValue(c[1])));
            case "contains" -> out.add(String.valueOf(p.map.containsKey(c[1])));
            case "remove" -> p.map.removeKey(c[1]);
            case "entries" -> {
                List<String> all = new ArrayList<>();
                p.map.iterator()
                        .forEachRemaining((Map.Entry<String, String> e) -> all.add(e.getKey() + "=" + e.getValue()));
                out.add(String.join(",", all));
            }
            case "keys" -> {
                List<String> all = new ArrayList<>();
                p.map.keys().forEachRemaining(all::add);
                out.add(String.join(",", all));
            }
            case "values" -> {
                List<String> all = new ArrayList<>();
                p.map.values().forEachRemaining(all::add);
                out.add(String.join(",", all));
            }
            case "exists" -> out.add(String.valueOf(p.map.exists()));
            case "clear" -> p.map.clear();
            default -> throw new IllegalArgumentException(row);
        }
    }

    Harness<String, String> harness(TtlConfig ttl) {
        TimeMode mode = ttl.isEnabled() ? TimeMode.PROCESSING_TIME : TimeMode.NONE;
        return Harness.strings(TransformWithState.builder(
                        ScriptProcessor.supplier(
                                p -> p.map = p.getHandle().getMapState("m", Serdes.String(), Serdes.String(), ttl),
                                MapStateContractTest::commands,
                                null,
                                null),
                        mode)
                .name("map-contract")
                .storeBackend(backend())
                .build());
    }

    @Test
    void shouldStoreEntriesPerGroupingKeyWhenUpdated() {
        try (Harness<String, String> h = harness(contractTtl())) {
            h.pipe("a", "exists");
            h.pipe("a", "put:k2:v2");
            h.pipe("a", "put:k1:v1");
            h.pipe("ab", "put:k1:other");
            h.pipe("a", "put:k2:v2b");
            h.pipe("a", "getValue:k2");
            h.pipe("a", "getValue:k9");
            h.pipe("a", "contains:k1");
            h.pipe("a", "entries");
            h.pipe("a", "keys");
            h.pipe("a", "values");
            h.pipe("a", "remove:k1");
            h.pipe("a", "remove:k9");
            h.pipe("a", "entries");
            h.pipe("ab", "entries");
            h.pipe("a", "clear");
            h.pipe("a", "exists");
            h.pipe("ab", "exists");
            assertThat(h.drainValues())
                    .containsExactly(
                            "false",
                            "v2b",
                            "null",
                            "true",
                            "k1=v1,k2=v2b",
                            "k1,k2",
                            "v1,v2b",
                            "k2=v2b",
                            "k1=other",
                            "false",
                            "true");
        }
    }

    @ParameterizedTest(name = "restoreBetweenSteps={0}")
    @ValueSource(booleans = {false, true})
    void shouldExpireEachEntryOnItsOwnWhenTtlSet(boolean restore) {
        try (Harness<String, String> h = harness(TtlConfig.of(Duration.ofMillis(1000)))) {
            h.pipe("a", "put:k1:v1"); // expires 1000
            h.advanceMs(500);
            ValueStateContractTest.step(h, restore);
            h.pipe("a", "put:k2:v2"); // expires 1500
            h.advanceMs(400);
            ValueStateContractTest.step(h, restore);
            h.pipe("a", "put:k1:v1b"); // reset: expires 1900
            h.advanceMs(200); // t=1100
            ValueStateContractTest.step(h, restore);
            h.pipe("a", "entries");
            h.advanceMs(400); // t=1500: k2 gone
            ValueStateContractTest.step(h, restore);
            h.pipe("a", "entries");
            h.pipe("a", "contains:k2");
            h.pipe("a", "getValue:k2");
            h.advanceMs(400); // t=1900: all gone
            ValueStateContractTest.step(h, restore);
            h.pipe("a", "exists");
            h.pipe("a", "keys");
            assertThat(h.drainValues()).containsExactly("k1=v1b,k2=v2", "k1=v1b", "false", "null", "false", "");
        }
    }

    @Test
    void shouldRemoveExpiredEntriesPhysicallyWhenCleanupRuns() {
        try (Harness<String, String> h = harness(TtlConfig.of(Duration.ofMillis(1000)))) {
            h.pipe("a", "put:k1:v1");
            h.advanceMs(500);
            h.pipe("a", "put:k2:v2");
            h.advanceMs(600);
            assertThat(h.countSection((byte) 1)).isEqualTo(1);
            h.advanceMs(500);
            assertThat(h.countSection((byte) 1)).isZero();
            assertThat(h.countSection((byte) 2)).isZero();
        }
    }
}
