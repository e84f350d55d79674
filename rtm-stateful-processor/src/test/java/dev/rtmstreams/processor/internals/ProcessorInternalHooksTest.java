package dev.rtmstreams.processor.internals;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.processor.spi.KafkaInternalHook;
import java.util.List;
import org.junit.jupiter.api.Test;

/** This module's Kafka Streams internals are all there, and a missing one is reported. */
class ProcessorInternalHooksTest {

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
}
