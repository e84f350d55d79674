package dev.rtmstreams.topology.internals;

import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * A stream thread's main consumer under the classic rebalance protocol: stamps polled records with their poll time,
 * and closes a checkpoint epoch after every successful {@code commitSync} (the at-least-once commit of Kafka Streams).
 * Its {@link #metrics()} include the rtm metrics, so they show in {@code KafkaStreams#metrics()}. The streams protocol's
 * counterpart is {@link StreamsProtocolConsumer}.
 */
final class InstrumentedConsumer extends KafkaConsumer<byte[], byte[]> {

    private final EpochRuntime runtime;

    InstrumentedConsumer(Map<String, Object> config, EpochRuntime runtime) {
        super(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        this.runtime = runtime;
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
