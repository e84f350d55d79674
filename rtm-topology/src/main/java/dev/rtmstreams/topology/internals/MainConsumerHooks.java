package dev.rtmstreams.topology.internals;

import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;

/**
 * What a stream thread's main consumer reports to the {@link EpochRuntime}, whichever consumer Kafka Streams uses: the
 * classic protocol's {@link InstrumentedConsumer} (from the client supplier) and the streams protocol's
 * {@link StreamsProtocolConsumer} (Kafka Streams' consumer wrapper) both call these.
 */
final class MainConsumerHooks {

    private MainConsumerHooks() {}

    /** Stamps a poll's records with their poll time, or counts an idle poll; returns the records. */
    static ConsumerRecords<byte[], byte[]> polled(EpochRuntime runtime, ConsumerRecords<byte[], byte[]> records) {
        if (!records.isEmpty()) {
            runtime.onPoll(records);
        } else {
            runtime.onIdlePoll();
        }
        return records;
    }

    /** Runs an at-least-once {@code commitSync} and closes a checkpoint epoch once it succeeded. */
    static void commitSync(EpochRuntime runtime, Map<TopicPartition, OffsetAndMetadata> offsets, Runnable commit) {
        long start = System.nanoTime();
        commit.run();
        runtime.onCommit(offsets, false, start, System.nanoTime());
    }

    /** @return the consumer's own metrics and the rtm metrics, so both show in {@code KafkaStreams#metrics()} */
    static Map<MetricName, ? extends Metric> metrics(EpochRuntime runtime, Map<MetricName, ? extends Metric> own) {
        Map<MetricName, Metric> all = new HashMap<>(own);
        all.putAll(runtime.rtmMetrics());
        return all;
    }
}
