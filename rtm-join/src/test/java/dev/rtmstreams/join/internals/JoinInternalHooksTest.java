package dev.rtmstreams.join.internals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rtmstreams.processor.spi.KafkaInternalHook;
import dev.rtmstreams.processor.spi.KafkaInternalHooks;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

/** rtm-join's Kafka internals, listed for RtmStreams' compatibility check (which KafkaStreamsCompatibilityTest runs). */
class JoinInternalHooksTest {

    @Test
    void shouldBeListedThroughTheServiceLoaderAndAllBeThere() {
        List<KafkaInternalHook> hooks = new ArrayList<>();
        for (KafkaInternalHooks p : ServiceLoader.load(KafkaInternalHooks.class)) {
            hooks.addAll(p.hooks());
        }

        assertThat(hooks)
                .extracting(KafkaInternalHook::name)
                .contains("join.repartition-required", "join.copartition-group");
        for (KafkaInternalHook h : new JoinInternalHooks().hooks()) {
            assertThat(h.check()).as(h.name()).isNull();
        }
    }

    @Test
    void shouldFailTheProbeWhenTheFieldIsMissing() {
        assertThatThrownBy(() -> KafkaStreamsInternals.repartitionRequiredField(String.class))
                .isInstanceOf(NoSuchFieldException.class);
    }
}
