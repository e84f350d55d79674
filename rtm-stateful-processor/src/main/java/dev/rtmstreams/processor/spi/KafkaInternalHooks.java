package dev.rtmstreams.processor.spi;

import java.util.List;
import org.apache.kafka.common.annotation.InterfaceStability;

/**
 * The {@link KafkaInternalHook}s of one rtm-streams module, found with {@link java.util.ServiceLoader} (each module
 * lists its provider in {@code META-INF/services/dev.rtmstreams.processor.spi.KafkaInternalHooks}). Implementations
 * are public with a public no-argument constructor, and cheap: the hooks are listed once per {@code RtmStreams}.
 */
@InterfaceStability.Unstable
public interface KafkaInternalHooks {

    /** @return the module's hooks; never null */
    List<KafkaInternalHook> hooks();
}
