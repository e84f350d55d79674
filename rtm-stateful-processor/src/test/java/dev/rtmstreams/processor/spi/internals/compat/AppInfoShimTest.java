package dev.rtmstreams.processor.spi.internals.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The version record's location is chosen by class presence. */
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

    private static boolean classPresent(String name) {
        try {
            Class.forName(name);
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }
}
