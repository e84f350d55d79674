package dev.rtmstreams.topology.internals.compat;

import dev.rtmstreams.processor.spi.KafkaInternalHook;
import dev.rtmstreams.processor.spi.KafkaInternalHooks;
import dev.rtmstreams.topology.internals.StreamsProtocolConsumer;
import dev.rtmstreams.topology.internals.TopologySizer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.Topology;

/**
 * The Kafka Streams internals rtm-topology relies on, listed for the compatibility check through
 * {@code META-INF/services}: the main-consumer wrapper of the streams rebalance protocol, the internal topology
 * builder's repartition partition counts, and the close shim ({@link CloseShim}).
 */
public final class TopologyInternalHooks implements KafkaInternalHooks {

    static final String MODULE = "rtm-topology";

    /** The main-consumer wrapper hook; its effect is checked once Kafka Streams has created its stream threads. */
    public static final String CONSUMER_WRAPPER = "topology.streams-consumer-wrapper";

    /** The internal topology builder hook. */
    public static final String REPARTITION_COUNTS = "topology.repartition-counts";

    /** The close shim hook. */
    public static final String CLOSE = "topology.close-leave-group";

    /** For {@link java.util.ServiceLoader}. */
    public TopologyInternalHooks() {}

    @Override
    public List<KafkaInternalHook> hooks() {
        return List.of(
                new KafkaInternalHook(
                        CONSUMER_WRAPPER,
                        MODULE,
                        "epoch progress, latency metrics and the micro-batch output gate of main consumers under"
                                + " group.protocol=streams (Kafka Streams' internal config "
                                + StreamsProtocolConsumer.WRAPPER_CONFIG + ")",
                        TopologyInternalHooks::verifyConsumerWrapper),
                new KafkaInternalHook(
                        REPARTITION_COUNTS,
                        MODULE,
                        "slot sizing with the partition counts a topology sets on repartition topics"
                                + " (Repartitioned#withNumberOfPartitions); without it they are inferred",
                        TopologyInternalHooks::verifyRepartitionCounts),
                new KafkaInternalHook(
                        CLOSE,
                        MODULE,
                        "leaving the consumer group on close in real-time mode (RtmStreams.close)",
                        TopologyInternalHooks::verifyClose));
    }

    static void verifyConsumerWrapper() throws ReflectiveOperationException {
        ClassLoader loader = TopologyInternalHooks.class.getClassLoader();
        Class<?> wrapper = Class.forName("org.apache.kafka.streams.internals.ConsumerWrapper", false, loader);
        wrapper.getMethod(
                "wrapConsumer",
                Class.forName("org.apache.kafka.clients.consumer.internals.AsyncKafkaConsumer", false, loader),
                Map.class,
                Optional.class);
        Object name = Class.forName("org.apache.kafka.streams.StreamsConfig$InternalConfig", false, loader)
                .getField("INTERNAL_CONSUMER_WRAPPER")
                .get(null);
        if (!StreamsProtocolConsumer.WRAPPER_CONFIG.equals(name)) {
            throw new IllegalStateException("Kafka Streams' consumer wrapper config is " + name + ", not "
                    + StreamsProtocolConsumer.WRAPPER_CONFIG);
        }
        if (!wrapper.isAssignableFrom(Class.forName(StreamsProtocolConsumer.class.getName(), true, loader))) {
            throw new IllegalStateException(StreamsProtocolConsumer.class.getName() + " is no " + wrapper.getName());
        }
    }

    static void verifyRepartitionCounts() throws ReflectiveOperationException {
        TopologySizer.explicitRepartitionCountsOrThrow(new Topology());
        Class<?> properties = Class.forName(
                "org.apache.kafka.streams.processor.internals.InternalTopicProperties",
                false,
                TopologyInternalHooks.class.getClassLoader());
        if (properties.getMethod("numberOfPartitions").getReturnType() != Optional.class) {
            throw new IllegalStateException(properties.getName() + "#numberOfPartitions no longer returns Optional");
        }
    }

    static void verifyClose() throws ReflectiveOperationException {
        CloseShim shim = CloseShim.current();
        if (shim instanceof CloseShim.LeaveGroupFlagClose) {
            Class<?> options = Class.forName(KafkaStreams.class.getName() + "$CloseOptions");
            options.getMethod("timeout", Duration.class);
            options.getMethod("leaveGroup", boolean.class);
            KafkaStreams.class.getMethod("close", options);
            // the main consumers' internal config that lets them leave on close (Kafka Streams 4.1 sets it false)
            java.lang.reflect.Field f = org.apache.kafka.clients.consumer.ConsumerConfig.class.getDeclaredField(
                    "LEAVE_GROUP_ON_CLOSE_CONFIG");
            f.setAccessible(true);
            if (!CloseShim.LEAVE_GROUP_ON_CLOSE_CONFIG.equals(f.get(null))) {
                throw new IllegalStateException("the consumer's leave-group-on-close config is " + f.get(null)
                        + ", not " + CloseShim.LEAVE_GROUP_ON_CLOSE_CONFIG);
            }
        }
    }
}
