package dev.rtmstreams.processor;

import static dev.rtmstreams.processor.LifecycleTest.assertCode;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.function.Consumer;
import org.apache.kafka.common.serialization.Serdes;
import org.junit.jupiter.api.Test;

/**
 * Restart-time validation against real state (Spark's operator state metadata, TransformWithStateValidationSuite
 * and the schema evolution tests of TransformWithStateSuite): the operator restarts from its changelog with a new
 * version of the processor.
 */
class RestartValidationTest {

    private static TransformWithState<String, String, String> version(TimeMode mode, Consumer<ScriptProcessor> init) {
        return TransformWithState.builder(
                        ScriptProcessor.supplier(
                                init,
                                (p, k, r, tv, out) -> {
                                    if (p.value != null) {
                                        String before = p.value.get();
                                        p.value.update(r);
                                        out.add(k + ":" + before + "->" + r);
                                    } else {
                                        out.add(k + ":" + r);
                                    }
                                },
                                null,
                                null),
                        mode)
                .name("evolving")
                .build();
    }

    private static Harness<String, String> withValueState() {
        Harness<String, String> h = Harness.strings(version(
                TimeMode.NONE, p -> p.value = p.getHandle().getValueState("v", Serdes.String())));
        h.pipe("a", "1");
        assertThat(h.drainValues()).containsExactly("a:null->1");
        return h;
    }

    @Test
    void shouldFailRestartWithSparkErrorClassWhenAVariableChangesKind() {
        try (Harness<String, String> h = withValueState()) {
            h.restartFromChangelog(version(
                    TimeMode.NONE, p -> p.list = p.getHandle().getListState("v", Serdes.String())));
            assertCode(
                    () -> h.pipe("a", "2"),
                    "STATE_STORE_INVALID_VARIABLE_TYPE_CHANGE",
                    "stateVarName",
                    "v",
                    "oldType",
                    "ValueState",
                    "newType",
                    "ListState");
        }
    }

    @Test
    void shouldFailRestartWithSparkErrorClassWhenTheTimeModeChanges() {
        try (Harness<String, String> h = withValueState()) {
            h.restartFromChangelog(version(
                    TimeMode.PROCESSING_TIME, p -> p.value = p.getHandle().getValueState("v", Serdes.String())));
            assertCode(
                    () -> h.pipe("a", "2"),
                    "STATE_STORE_INVALID_CONFIG_AFTER_RESTART",
                    "configName",
                    "timeMode",
                    "oldConfig",
                    "NoTime",
                    "newConfig",
                    "ProcessingTime");
        }
    }

    @Test
    void shouldFailRestartWhenAVariableSerdeChanges() {
        try (Harness<String, String> h = withValueState()) {
            h.restartFromChangelog(version(TimeMode.NONE, p -> p.getHandle().getValueState("v", Serdes.Long())));
            assertCode(() -> h.pipe("a", "2"), "STATE_STORE_VALUE_SCHEMA_NOT_COMPATIBLE");
        }
    }

    @Test
    void shouldRestartFineWhenAVariableIsAddedOrRemovedAndKeepTheState() {
        try (Harness<String, String> h = withValueState()) {
            // a new variable beside the old one: compatible, the old state is still there
            h.restartFromChangelog(version(TimeMode.NONE, p -> {
                p.value = p.getHandle().getValueState("v", Serdes.String());
                p.map = p.getHandle().getMapState("m", Serdes.String(), Serdes.String());
            }));
            h.pipe("a", "2");
            assertThat(h.drainValues()).containsExactly("a:1->2");
            // the old variable dropped and deleted, a new one of another kind under another name: compatible
            h.restartFromChangelog(version(TimeMode.NONE, p -> {
                p.getHandle().deleteIfExists("v");
                p.list = p.getHandle().getListState("l", Serdes.String());
            }));
            h.pipe("a", "3");
            assertThat(h.drainValues()).containsExactly("a:3");
            // and once deleted, "v" may come back with another kind
            h.restartFromChangelog(version(
                    TimeMode.NONE, p -> p.list = p.getHandle().getListState("v", Serdes.String())));
            h.pipe("a", "4");
            assertThat(h.drainValues()).containsExactly("a:4");
        }
    }
}
