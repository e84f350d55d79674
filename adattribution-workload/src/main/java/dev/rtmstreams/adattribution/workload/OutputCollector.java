package dev.rtmstreams.adattribution.workload;

import dev.rtmstreams.tools.LatencyRecorder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.HdrHistogram.Histogram;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The consuming side of a {@link LoadRun}: a consumer on the run's output topics, positioned at their end when the
 * collector is opened, and the thread that decodes every output, hands it to the run's {@link Matcher} and records
 * the latency of each measured match (receive time minus the send time of the input that completed it).
 */
final class OutputCollector {

    /** Logs under the run's category, {@link LoadRun}. */
    private static final Logger LOG = LoggerFactory.getLogger(LoadRun.class);

    private final RunSpec spec;
    private final Matcher matcher;
    private final AtomicLongArray sendNanos;
    private final int firstMeasured;
    private final LatencyRecorder recorder;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Map<OutputKind, Histogram> latencyByKind = new EnumMap<>(OutputKind.class);
    private final AtomicLong undecodable = new AtomicLong();
    private final AtomicLong foreign = new AtomicLong();
    private final AtomicBoolean stop = new AtomicBoolean();
    private final AtomicLong lastOutputNanos = new AtomicLong(System.nanoTime());
    private final Thread thread;

    /**
     * Opens the consumer and positions it at the end of every output topic; {@link #start} starts consuming.
     *
     * @param spec the run's output topics and decoding
     * @param settings the cluster and client overrides
     * @param matcher gets every decoded output of this run
     * @param sendNanos send time of each input ({@link System#nanoTime()}, 0 until sent)
     * @param firstMeasured matches completed by an input before it are not recorded (warm-up)
     * @param recorder records the latency of the measured matches
     * @throws IllegalStateException naming an output topic that does not exist (the consumer is closed)
     */
    OutputCollector(
            RunSpec spec,
            LoadRun.Settings settings,
            Matcher matcher,
            AtomicLongArray sendNanos,
            int firstMeasured,
            LatencyRecorder recorder) {
        this.spec = spec;
        this.matcher = matcher;
        this.sendNanos = sendNanos;
        this.firstMeasured = firstMeasured;
        this.recorder = recorder;
        for (OutputKind kind : OutputKind.values()) {
            latencyByKind.put(kind, LatencyRecorder.newHistogram());
        }
        consumer = new KafkaConsumer<>(consumerConfig(settings));
        List<TopicPartition> partitions = new ArrayList<>();
        for (String topic : spec.outputTopics()) {
            List<PartitionInfo> infos = consumer.partitionsFor(topic, Duration.ofSeconds(30));
            if (infos == null || infos.isEmpty()) {
                consumer.close();
                throw new IllegalStateException("output topic does not exist: " + topic);
            }
            for (PartitionInfo p : infos) {
                partitions.add(new TopicPartition(p.topic(), p.partition()));
            }
        }
        consumer.assign(partitions);
        consumer.seekToEnd(partitions);
        for (TopicPartition tp : partitions) {
            consumer.position(tp);
        }
        thread = new Thread(this::consume, "loadgen-output-consumer");
        thread.setDaemon(true);
    }

    /** Starts the consumer thread. */
    void start() {
        thread.start();
    }

    /**
     * Stops the consumer thread and waits up to 5 s for it (it closes the consumer).
     *
     * @throws InterruptedException if interrupted while waiting
     */
    void stop() throws InterruptedException {
        stop.set(true);
        thread.join(5000);
    }

    /** @return {@link System#nanoTime()} when the last non-empty poll returned (the opening time before that) */
    long lastOutputNanos() {
        return lastOutputNanos.get();
    }

    /** @return outputs that could not be decoded */
    long undecodable() {
        return undecodable.get();
    }

    /** @return outputs of another run, ignored */
    long foreign() {
        return foreign.get();
    }

    /** @return per output kind, the latency of its measured matches in microseconds */
    Map<OutputKind, Histogram> latencyByKind() {
        return latencyByKind;
    }

    private void consume() {
        try (consumer) {
            while (!stop.get()) {
                ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(50));
                long received = System.nanoTime();
                if (records.isEmpty()) {
                    continue;
                }
                lastOutputNanos.set(received);
                for (ConsumerRecord<byte[], byte[]> r : records) {
                    Observed o;
                    try {
                        o = spec.decode(r, received);
                    } catch (RuntimeException e) {
                        undecodable.incrementAndGet();
                        LOG.debug("undecodable output at {}-{}@{}", r.topic(), r.partition(), r.offset(), e);
                        continue;
                    }
                    if (o == null) {
                        foreign.incrementAndGet();
                        continue;
                    }
                    Expected match = matcher.accept(o);
                    if (match != null) {
                        long sentAt = sendNanos.get((int) match.completingSeq());
                        if (sentAt != 0 && match.completingSeq() >= firstMeasured) {
                            recorder.record(received, received - sentAt);
                            LatencyRecorder.recordNanos(latencyByKind.get(match.kind()), received - sentAt);
                        }
                    }
                }
            }
        } catch (RuntimeException e) {
            LOG.error("output consumer failed", e);
        }
    }

    private static Map<String, Object> consumerConfig(LoadRun.Settings settings) {
        Map<String, Object> c = new HashMap<>();
        c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, settings.bootstrapServers());
        c.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        c.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        c.put(ConsumerConfig.FETCH_MIN_BYTES_CONFIG, 1);
        c.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 100);
        c.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000);
        c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        c.put(ConsumerConfig.CLIENT_ID_CONFIG, "loadgen-output-consumer");
        settings.clientOverrides().forEach((k, v) -> {
            if (ConsumerConfig.configNames().contains(k)) {
                c.put(k, v);
            }
        });
        return c;
    }
}
