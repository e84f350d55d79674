package dev.rtmstreams.loadgen.internals;

import dev.rtmstreams.adattribution.workload.LoadRun;
import dev.rtmstreams.adattribution.workload.TopicNames;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The floor of the benchmark: a plain consume-and-produce pass-through. One consumer (a group
 * member) reads the input topics; every record of one of them is copied unchanged (key, value,
 * timestamp) to the echo topic, the others are read and dropped. For the attribution workload it reads
 * impressions and clicks and copies the clicks, so the broker and network load match the join's; for
 * a published latency workload it copies every row. Same latency-oriented client settings as the
 * generator (linger 1 ms, acks=1; acks=all on a replicated cluster).
 */
public final class EchoPipeline implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(EchoPipeline.class);

    private final AtomicBoolean running = new AtomicBoolean(true);
    private final CountDownLatch assigned = new CountDownLatch(1);
    private final Thread thread;

    /**
     * Starts the attribution workload's pass-through on its own thread: reads impressions and clicks, copies clicks.
     *
     * @param bootstrapServers the cluster
     * @param topics topic names (reads impressions and clicks, writes echo)
     * @param groupId the consumer group
     */
    public EchoPipeline(String bootstrapServers, TopicNames topics, String groupId) {
        this(bootstrapServers, topics, groupId, "1");
    }

    /**
     * Starts the attribution workload's pass-through with a producer {@code acks} setting.
     *
     * @param bootstrapServers the cluster
     * @param topics topic names (reads impressions and clicks, writes echo)
     * @param groupId the consumer group
     * @param acks the producer's {@code acks}: {@code 1} (the generator's) or {@code all} (a replicated cluster)
     */
    public EchoPipeline(String bootstrapServers, TopicNames topics, String groupId, String acks) {
        this(
                bootstrapServers,
                List.of(topics.impressions(), topics.clicks()),
                topics.clicks(),
                topics.echo(),
                groupId,
                acks);
    }

    /**
     * Starts a pass-through on its own thread.
     *
     * @param bootstrapServers the cluster
     * @param readTopics the topics to read
     * @param copyTopic the one of them whose records are copied
     * @param echoTopic where the copies go
     * @param groupId the consumer group
     * @throws IllegalArgumentException if {@code copyTopic} is not read
     */
    public EchoPipeline(
            String bootstrapServers, List<String> readTopics, String copyTopic, String echoTopic, String groupId) {
        this(bootstrapServers, readTopics, copyTopic, echoTopic, groupId, "1");
    }

    /**
     * Starts a pass-through on its own thread with a producer {@code acks} setting.
     *
     * @param bootstrapServers the cluster
     * @param readTopics the topics to read
     * @param copyTopic the one of them whose records are copied
     * @param echoTopic where the copies go
     * @param groupId the consumer group
     * @param acks the producer's {@code acks}: {@code 1} (the generator's) or {@code all} (a replicated cluster)
     * @throws IllegalArgumentException if {@code copyTopic} is not read
     */
    public EchoPipeline(
            String bootstrapServers,
            List<String> readTopics,
            String copyTopic,
            String echoTopic,
            String groupId,
            String acks) {
        if (!readTopics.contains(copyTopic)) {
            throw new IllegalArgumentException("the copied topic must be read: " + copyTopic + " not in " + readTopics);
        }
        List<String> read = List.copyOf(readTopics);
        Map<String, Object> c = new HashMap<>();
        c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        c.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        c.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        c.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
        c.put(ConsumerConfig.FETCH_MIN_BYTES_CONFIG, 1);
        c.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 100);
        c.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000);
        Map<String, Object> p = LoadRun.latencyProducerConfig(bootstrapServers);
        p.put(ProducerConfig.ACKS_CONFIG, acks);
        this.thread = new Thread(() -> loop(c, p, read, copyTopic, echoTopic), "echo-pipeline");
        this.thread.setDaemon(true);
        this.thread.start();
    }

    private void loop(
            Map<String, Object> consumerConfig,
            Map<String, Object> producerConfig,
            List<String> readTopics,
            String copyTopic,
            String echoTopic) {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerConfig);
                KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(producerConfig)) {
            consumer.subscribe(readTopics);
            while (running.get()) {
                ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(50));
                if (assigned.getCount() > 0 && !consumer.assignment().isEmpty()) {
                    // resolve the "latest" positions now, so every record produced after awaitReady is copied
                    consumer.assignment().forEach(consumer::position);
                    assigned.countDown();
                }
                for (ConsumerRecord<byte[], byte[]> r : records) {
                    if (r.topic().equals(copyTopic)) {
                        producer.send(new ProducerRecord<>(echoTopic, null, r.timestamp(), r.key(), r.value()));
                    }
                }
            }
        } catch (RuntimeException e) {
            LOG.error("echo pipeline failed", e);
        }
    }

    /**
     * Waits until the consumer has its partitions (and so will see records produced from now on).
     *
     * @param timeout how long to wait
     * @return whether it is ready
     * @throws InterruptedException if interrupted
     */
    public boolean awaitReady(Duration timeout) throws InterruptedException {
        return assigned.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Stops the pass-through and waits for its thread. */
    @Override
    public void close() {
        running.set(false);
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
