package dev.rtmstreams.topology.internals;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * A stream thread's main consumer: stamps polled records with their poll time, and closes a checkpoint epoch after
 * every successful {@code commitSync} (the at-least-once commit of Kafka Streams). Its {@link #metrics()} include
 * the rtm metrics, so they show in {@code KafkaStreams#metrics()}.
 */
final class InstrumentedConsumer extends KafkaConsumer<byte[], byte[]> {

    private final EpochRuntime runtime;

    InstrumentedConsumer(Map<String, Object> config, EpochRuntime runtime) {
        super(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        this.runtime = runtime;
    }

    @Override
    public ConsumerRecords<byte[], byte[]> poll(Duration timeout) {
        ConsumerRecords<byte[], byte[]> records = super.poll(timeout);
        if (!records.isEmpty()) {
            runtime.onPoll(records);
        } else {
            runtime.onIdlePoll();
        }
        return records;
    }

    @Override
    public void commitSync(Map<TopicPartition, OffsetAndMetadata> offsets) {
        long start = System.nanoTime();
        super.commitSync(offsets);
        runtime.onCommit(offsets, false, start, System.nanoTime());
    }

    @Override
    public void commitSync(Map<TopicPartition, OffsetAndMetadata> offsets, Duration timeout) {
        long start = System.nanoTime();
        super.commitSync(offsets, timeout);
        runtime.onCommit(offsets, false, start, System.nanoTime());
    }

    @Override
    public Map<MetricName, ? extends Metric> metrics() {
        Map<MetricName, Metric> all = new HashMap<>(super.metrics());
        all.putAll(runtime.rtmMetrics());
        return all;
    }
}
