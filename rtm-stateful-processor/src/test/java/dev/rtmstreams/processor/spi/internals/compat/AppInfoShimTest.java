package dev.rtmstreams.processor.spi.internals.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rtmstreams.processor.spi.KafkaInternalHook;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The version record's location is chosen by class presence; this module's hooks are all there. */
class AppInfoShimTest {

    @Test
    void shouldUseTheLocationThisKafkaHas() {
        AppInfoShim shim = AppInfoShim.current();

        assertThat(shim.className()).isIn(AppInfoShim.LOCATIONS);
        assertThat(shim.version()).isNotEqualTo(AppInfoShim.UNKNOWN);
        boolean kafka44 = classPresent("org.apache.kafka.common.utils.internals.AppInfoParser");
        assertThat(shim.className()).isEqualTo(AppInfoShim.LOCATIONS.get(kafka44 ? 0 : 1));
    }

    @Test
    void shouldSkipAMissingLocationAndSayUnknownWhenNoneIsThere() {
        AppInfoShim later = AppInfoShim.select(
                List.of("no.such.AppInfoParser", AppInfoShim.current().className()));
        assertThat(later.version()).isEqualTo(AppInfoShim.current().version());

        AppInfoShim none = AppInfoShim.select(List.of("no.such.AppInfoParser"));
        assertThat(none.version()).isEqualTo(AppInfoShim.UNKNOWN);
        assertThatThrownBy(none::verify)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("AppInfoParser");
    }

    @Test
    void shouldFindEveryInternalThisModuleReliesOn() {
        List<KafkaInternalHook> hooks = new ProcessorInternalHooks().hooks();

        assertThat(hooks)
                .extracting(KafkaInternalHook::name)
                .containsExactly("kafka-streams.version", "processor.store-layers", "processor.batching-restore");
        for (KafkaInternalHook h : hooks) {
            assertThat(h.check()).as(h.name()).isNull();
            assertThat(h.module()).isEqualTo("rtm-stateful-processor");
        }
    }

    @Test
    void shouldReportAMissingInternalWithoutThrowing() {
        KafkaInternalHook h = new ProcessorInternalHooks().hooks().get(1).withProbe(() -> {
            throw new NoSuchFieldException("gone");
        });

        assertThat(h.check()).isInstanceOf(NoSuchFieldException.class).hasMessage("gone");
    }

    private static boolean classPresent(String name) {
        try {
            Class.forName(name);
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }
}
