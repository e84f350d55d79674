package dev.rtmstreams.topology.internals;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.internals.AsyncKafkaConsumer;
import org.apache.kafka.clients.consumer.internals.StreamsRebalanceData;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.internals.ConsumerWrapper;

/**
 * A stream thread's main consumer under the streams rebalance protocol (KIP-1071, {@code group.protocol=streams}),
 * where Kafka Streams builds the main consumer itself and ignores the client supplier's. It reports to the
 * {@link EpochRuntime} exactly what {@link InstrumentedConsumer} reports under the classic protocol.
 *
 * <p>Kafka Streams (4.1 to 4.4) wraps its streams-protocol consumer in the class named by its internal main-consumer config
 * {@value #WRAPPER_CONFIG} (an internal hook of Kafka Streams, {@link ConsumerWrapper}; it may change with a Kafka
 * version, which the integration test under the streams protocol would show). {@link #configure} sets it, and the
 * runtime travels in the same main-consumer config under {@value #RUNTIME_CONFIG}.
 */
public final class StreamsProtocolConsumer extends ConsumerWrapper {

    /** Kafka Streams' internal config naming the main consumer's wrapper class (streams protocol only). */
    public static final String WRAPPER_CONFIG = "__internal.consumer.wrapper__";

    /** The main-consumer config entry that hands the wrapper its runtime. */
    static final String RUNTIME_CONFIG = "__rtm.epoch.runtime__";

    private EpochRuntime runtime;

    /** Called by Kafka Streams (by reflection) once per stream thread. */
    public StreamsProtocolConsumer() {}

    /**
     * @return a copy of the application's properties that wraps each main consumer under the streams protocol, or the
     *     properties themselves under the classic protocol (whose main consumers come from the client supplier)
     */
    public static Properties configure(Properties streamsConfig, EpochRuntime runtime) {
        if (!streamsProtocol(streamsConfig)) {
            return streamsConfig;
        }
        Properties p = new Properties();
        p.putAll(streamsConfig);
        p.put(StreamsConfig.mainConsumerPrefix(WRAPPER_CONFIG), StreamsProtocolConsumer.class);
        p.put(StreamsConfig.mainConsumerPrefix(RUNTIME_CONFIG), runtime);
        return p;
    }

    /** @return whether the application's properties select the streams rebalance protocol ({@code group.protocol}) */
    public static boolean streamsProtocol(Properties streamsConfig) {
        return "streams".equalsIgnoreCase(String.valueOf(streamsConfig.get(StreamsConfig.GROUP_PROTOCOL_CONFIG)));
    }

    @Override
    public void wrapConsumer(
            AsyncKafkaConsumer<byte[], byte[]> delegate,
            Map<String, Object> config,
            Optional<StreamsRebalanceData> streamsRebalanceData) {
        super.wrapConsumer(delegate, config, streamsRebalanceData);
        Object r = config.get(RUNTIME_CONFIG);
        if (!(r instanceof EpochRuntime)) {
            throw new IllegalStateException("main consumer config " + RUNTIME_CONFIG + " holds " + r
                    + ", not the epoch runtime: this wrapper is set up by RtmStreams only");
        }
        this.runtime = (EpochRuntime) r;
        runtime.mainConsumerCreated();
    }

    @Override
    public ConsumerRecords<byte[], byte[]> poll(Duration timeout) {
        return MainConsumerHooks.polled(runtime, super.poll(timeout));
    }

    @Override
    public void commitSync(Map<TopicPartition, OffsetAndMetadata> offsets) {
        MainConsumerHooks.commitSync(runtime, offsets, () -> super.commitSync(offsets));
    }

    @Override
    public void commitSync(Map<TopicPartition, OffsetAndMetadata> offsets, Duration timeout) {
        MainConsumerHooks.commitSync(runtime, offsets, () -> super.commitSync(offsets, timeout));
    }

    @Override
    public Map<MetricName, ? extends Metric> metrics() {
        return MainConsumerHooks.metrics(runtime, super.metrics());
    }
}
