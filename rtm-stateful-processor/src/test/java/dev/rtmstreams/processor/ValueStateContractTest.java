package dev.rtmstreams.processor;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.apache.kafka.common.serialization.Serdes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Contract of {@link ValueState}, run against every {@link StoreBackend} (see the subclasses). */
abstract class ValueStateContractTest {

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
            case "update" -> p.value.update(c[1]);
            case "get" -> out.add(p.value.getOption().orElse("<none>"));
            case "strict" -> out.add(String.valueOf(p.value.get())); // null when absent, as in Spark's Java API
            case "exists" -> out.add(String.valueOf(p.value.exists()));
            case "clear" -> p.value.clear();
            default -> throw new IllegalArgumentException(row);
        }
    }

    Harness<String, String> harness(TtlConfig ttl) {
        TimeMode mode = ttl.isEnabled() ? TimeMode.PROCESSING_TIME : TimeMode.NONE;
        return Harness.strings(TransformWithState.builder(
                        ScriptProcessor.supplier(
                                p -> p.value = p.getHandle().getValueState("v", Serdes.String(), ttl),
                                ValueStateContractTest::commands,
                                null,
                                null),
                        mode)
                .name("value-contract")
                .storeBackend(backend())
                .build());
    }

    @Test
    void shouldReturnLastValuePerKeyWhenUpdated() {
        try (Harness<String, String> h = harness(contractTtl())) {
            h.pipe("a", "update:1");
            h.pipe("b", "update:2");
            h.pipe("a", "update:3");
            h.pipe("a", "get");
            h.pipe("b", "get");
            h.pipe("c", "get");
            assertThat(h.drainValues()).containsExactly("3", "2", "<none>");
        }
    }

    @Test
    void shouldReturnNullFromGetAndReportAbsentWhenNoValueOrCleared() {
        try (Harness<String, String> h = harness(contractTtl())) {
            h.pipe("a", "strict");
            h.pipe("a", "exists");
            h.pipe("a", "update:x");
            h.pipe("a", "exists");
            h.pipe("a", "clear");
            h.pipe("a", "exists");
            h.pipe("a", "strict");
            assertThat(h.drainValues()).containsExactly("null", "false", "true", "false", "null");
        }
    }

    @ParameterizedTest(name = "restoreBetweenSteps={0}")
    @ValueSource(booleans = {false, true})
    void shouldExpireValueAndResetExpiryOnUpdateWhenTtlSet(boolean restore) {
        try (Harness<String, String> h = harness(TtlConfig.of(Duration.ofMillis(1000)))) {
            h.pipe("a", "update:v1");
            h.advanceMs(600);
            step(h, restore);
            h.pipe("a", "get");
            h.pipe("a", "update:v2"); // expiry now at +1600
            h.advanceMs(600);
            step(h, restore);
            h.pipe("a", "get");
            h.pipe("a", "exists");
            h.advanceMs(400); // exactly at expiry: expired
            step(h, restore);
            h.pipe("a", "get");
            h.pipe("a", "exists");
            assertThat(h.drainValues()).containsExactly("v1", "v2", "true", "<none>", "false");
        }
    }

    @Test
    void shouldRemoveExpiredValuePhysicallyWhenCleanupRuns() {
        try (Harness<String, String> h = harness(TtlConfig.of(Duration.ofMillis(1000)))) {
            h.pipe("a", "update:v1");
            h.pipe("b", "update:v1");
            assertThat(h.countSection((byte) 1)).isEqualTo(2);
            assertThat(h.countSection((byte) 2)).isEqualTo(2);
            h.advanceMs(1100);
            assertThat(h.countSection((byte) 1)).isZero();
            assertThat(h.countSection((byte) 2)).isZero();
        }
    }

    @Test
    void shouldKeepValuesWhenRestoredFromChangelog() {
        try (Harness<String, String> h = harness(contractTtl())) {
            h.pipe("a", "update:1");
            h.pipe("b", "update:2");
            h.pipe("b", "clear");
            h.restartFromChangelog();
            h.pipe("a", "get");
            h.pipe("b", "get");
            assertThat(h.drainValues()).containsExactly("1", "<none>");
        }
    }

    static void step(Harness<?, ?> h, boolean restore) {
        if (restore) {
            h.restartFromChangelog();
        }
    }
}
