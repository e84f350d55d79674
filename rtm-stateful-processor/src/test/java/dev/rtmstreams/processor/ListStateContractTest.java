package dev.rtmstreams.processor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.kafka.common.serialization.Serdes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Contract of {@link ListState}, run against every {@link StoreBackend} (see the subclasses). */
abstract class ListStateContractTest {

    abstract StoreBackend backend();

    /**
     * The TTL the contract's non-TTL cases run with: none, or (the {@code ...TtlLayerTest} subclasses: the TTL wrapper on) one too long to expire
     * within a test, so that the same contract holds with the TTL layer on.
     */
    TtlConfig contractTtl() {
        return TtlConfig.NONE;
    }

    static void commands(ScriptProcessor p, String key, String row, TimerValues tv, List<String> out) {
        String[] c = row.split(":", 2);
        switch (c[0]) {
            case "append" -> p.list.appendValue(c[1]);
            case "appendList" -> p.list.appendList(Arrays.asList(c[1].split(",")));
            case "put" -> p.list.put(Arrays.asList(c[1].split(",")));
            case "get" -> {
                List<String> all = new ArrayList<>();
                p.list.get().forEachRemaining(all::add);
                out.add(String.join(",", all));
            }
            case "exists" -> out.add(String.valueOf(p.list.exists()));
            case "clear" -> p.list.clear();
            case "appendNull" -> p.list.appendValue(null);
            case "putEmpty" -> p.list.put(List.of());
            case "appendListWithNull" -> p.list.appendList(Arrays.asList("x", null));
            default -> throw new IllegalArgumentException(row);
        }
    }

    Harness<String, String> harness(TtlConfig ttl) {
        TimeMode mode = ttl.isEnabled() ? TimeMode.PROCESSING_TIME : TimeMode.NONE;
        return Harness.strings(TransformWithState.builder(
                        ScriptProcessor.supplier(
                                p -> p.list = p.getHandle().getListState("l", Serdes.String(), ttl),
                                ListStateContractTest::commands,
                                null,
                                null),
                        mode)
                .name("list-contract")
                .storeBackend(backend())
                .build());
    }

    @Test
    void shouldKeepInsertionOrderWhenAppendingAndPutting() {
        try (Harness<String, String> h = harness(contractTtl())) {
            h.pipe("a", "get");
            h.pipe("a", "exists");
            h.pipe("a", "append:1");
            h.pipe("a", "appendList:2,3");
            h.pipe("b", "append:z");
            h.pipe("a", "get");
            h.pipe("a", "put:9,8");
            h.pipe("a", "get");
            h.pipe("b", "get");
            h.pipe("a", "clear");
            h.pipe("a", "exists");
            assertThat(h.drainValues()).containsExactly("", "false", "1,2,3", "9,8", "z", "false");
        }
    }

    @Test
    void shouldRejectNullsAndEmptyListsWithStableCodes() {
        try (Harness<String, String> h = harness(contractTtl())) {
            assertThatThrownBy(() -> h.pipe("a", "appendNull"))
                    .rootCause()
                    .isInstanceOfSatisfying(RtmException.class, e -> {
                        assertThat(e.errorCode()).isEqualTo("ILLEGAL_STATE_STORE_VALUE.NULL_VALUE");
                        assertThat(e.parameters()).containsEntry("stateName", "l");
                    });
        }
        try (Harness<String, String> h = harness(contractTtl())) {
            assertThatThrownBy(() -> h.pipe("a", "putEmpty"))
                    .rootCause()
                    .isInstanceOfSatisfying(
                            RtmException.class,
                            e -> assertThat(e.errorCode()).isEqualTo("ILLEGAL_STATE_STORE_VALUE.EMPTY_LIST_VALUE"));
        }
        try (Harness<String, String> h = harness(contractTtl())) {
            assertThatThrownBy(() -> h.pipe("a", "appendListWithNull"))
                    .rootCause()
                    .isInstanceOfSatisfying(
                            RtmException.class,
                            e -> assertThat(e.errorCode()).isEqualTo("ILLEGAL_STATE_STORE_VALUE.NULL_VALUE"));
        }
    }

    @ParameterizedTest(name = "restoreBetweenSteps={0}")
    @ValueSource(booleans = {false, true})
    void shouldExpireEachElementOnItsOwnWhenTtlSet(boolean restore) {
        try (Harness<String, String> h = harness(TtlConfig.of(Duration.ofMillis(1000)))) {
            h.pipe("a", "append:e0"); // expires at 1000
            h.advanceMs(400);
            ValueStateContractTest.step(h, restore);
            h.pipe("a", "appendList:e1,e2"); // expire at 1400
            h.advanceMs(400);
            ValueStateContractTest.step(h, restore);
            h.pipe("a", "append:e3"); // expires at 1800
            h.pipe("a", "get");
            h.advanceMs(200); // t=1000: e0 gone
            ValueStateContractTest.step(h, restore);
            h.pipe("a", "get");
            h.advanceMs(400); // t=1400: e1,e2 gone
            ValueStateContractTest.step(h, restore);
            h.pipe("a", "get");
            h.pipe("a", "put:p1,p2"); // all refreshed: expire at 2400
            h.advanceMs(500); // t=1900: e3 would be gone anyway
            ValueStateContractTest.step(h, restore);
            h.pipe("a", "get");
            h.advanceMs(500); // t=2400
            ValueStateContractTest.step(h, restore);
            h.pipe("a", "get");
            h.pipe("a", "exists");
            assertThat(h.drainValues()).containsExactly("e0,e1,e2,e3", "e1,e2,e3", "e3", "p1,p2", "", "false");
        }
    }

    @Test
    void shouldRemoveExpiredElementsPhysicallyWhenCleanupRuns() {
        try (Harness<String, String> h = harness(TtlConfig.of(Duration.ofMillis(1000)))) {
            h.pipe("a", "append:old");
            h.advanceMs(500);
            h.pipe("a", "append:new");
            assertThat(h.countSection((byte) 1)).isEqualTo(1);
            h.advanceMs(600); // old expired at 1000, new lives until 1500
            assertThat(h.countSection((byte) 1)).isEqualTo(1);
            assertThat(h.countSection((byte) 2)).isEqualTo(1);
            h.pipe("a", "get");
            assertThat(h.drainValues()).containsExactly("new");
            h.advanceMs(500);
            assertThat(h.countSection((byte) 1)).isZero();
            assertThat(h.countSection((byte) 2)).isZero();
        }
    }
}
