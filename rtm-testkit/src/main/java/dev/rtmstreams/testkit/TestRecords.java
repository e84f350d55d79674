package dev.rtmstreams.testkit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Produces and consumes records in tests, synchronously and without consumer groups.
 *
 * <p>{@code produce} sends with {@code acks=all} and idempotence, in list order, and returns when
 * every record is acknowledged. {@code consume} reads a topic from the beginning of every
 * partition (assignment, no group, no committed offsets) until it has at least the expected
 * number of records or the timeout passes; it never throws on timeout, so the test asserts on
 * what arrived. Records come in offset order per partition.
 *
 * <pre>{@code
 * TestRecords.produceStrings(kafka, "in", List.of(Map.entry("k1", "a"), Map.entry("k2", "b")));
 * List<ConsumerRecord<String, String>> out = TestRecords.consumeStrings(kafka, "out", 2, Duration.ofSeconds(10));
 * assertThat(out).extracting(ConsumerRecord::value).containsExactly("A", "B");
 * }</pre>
 */
public final class TestRecords {

    private static final Duration SEND_TIMEOUT = Duration.ofSeconds(30);

    private TestRecords() {}

    /**
     * Sends records and waits for every acknowledgement.
     *
     * @param cluster the target cluster; not null
     * @param records the records, sent in order; not null, may hold null keys/values
     * @param keySerializer serializer of the keys; not null
     * @param valueSerializer serializer of the values; not null
     * @param <K> key type
     * @param <V> value type
     * @return the metadata of each record, in the same order
     * @throws IllegalStateException if a send fails or is not acknowledged within 30 s
     */
    public static <K, V> List<RecordMetadata> produce(
            KafkaCluster cluster,
            List<ProducerRecord<K, V>> records,
            Serializer<K> keySerializer,
            Serializer<V> valueSerializer) {
        return produce(cluster, records, keySerializer, valueSerializer, Map.of());
    }

    /**
     * Sends records with extra producer settings (e.g. {@code linger.ms}, {@code compression.type};
     * not {@code transactional.id}: no transaction is begun) and waits for every acknowledgement.
     *
     * @param cluster the target cluster; not null
     * @param records the records, sent in order; not null
     * @param keySerializer serializer of the keys; not null
     * @param valueSerializer serializer of the values; not null
     * @param producerOverrides producer configs applied last; not null
     * @param <K> key type
     * @param <V> value type
     * @return the metadata of each record, in the same order
     * @throws IllegalStateException if a send fails or is not acknowledged within 30 s
     */
    public static <K, V> List<RecordMetadata> produce(
            KafkaCluster cluster,
            List<ProducerRecord<K, V>> records,
            Serializer<K> keySerializer,
            Serializer<V> valueSerializer,
            Map<String, Object> producerOverrides) {
        Objects.requireNonNull(records, "records");
        Map<String, Object> config = cluster.clientConfig();
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        config.putAll(producerOverrides);
        long deadline = System.nanoTime() + SEND_TIMEOUT.toNanos();
        try (KafkaProducer<K, V> producer = new KafkaProducer<>(config, keySerializer, valueSerializer)) {
            List<Future<RecordMetadata>> futures = new ArrayList<>(records.size());
            for (ProducerRecord<K, V> record : records) {
                futures.add(producer.send(record));
            }
            producer.flush();
            List<RecordMetadata> result = new ArrayList<>(futures.size());
            for (Future<RecordMetadata> future : futures) {
                result.add(await(future, deadline));
            }
            return result;
        }
    }

    /**
     * Sends key/value records to one topic (no explicit partition or timestamp).
     *
     * @param cluster the target cluster; not null
     * @param topic the topic; not null
     * @param keyValues the keys and values, in order; not null
     * @param keySerializer serializer of the keys; not null
     * @param valueSerializer serializer of the values; not null
     * @param <K> key type
     * @param <V> value type
     * @return the metadata of each record, in the same order
     * @throws IllegalStateException if a send fails or is not acknowledged within 30 s
     */
    public static <K, V> List<RecordMetadata> produce(
            KafkaCluster cluster,
            String topic,
            List<? extends Map.Entry<K, V>> keyValues,
            Serializer<K> keySerializer,
            Serializer<V> valueSerializer) {
        Objects.requireNonNull(topic, "topic");
        List<ProducerRecord<K, V>> records = new ArrayList<>(keyValues.size());
        for (Map.Entry<K, V> kv : keyValues) {
            records.add(new ProducerRecord<>(topic, kv.getKey(), kv.getValue()));
        }
        return produce(cluster, records, keySerializer, valueSerializer);
    }

    /**
     * Sends string key/value records to one topic.
     *
     * @param cluster the target cluster; not null
     * @param topic the topic; not null
     * @param keyValues the keys and values, in order; not null
     * @return the metadata of each record, in the same order
     * @throws IllegalStateException if a send fails or is not acknowledged within 30 s
     */
    public static List<RecordMetadata> produceStrings(
            KafkaCluster cluster, String topic, List<? extends Map.Entry<String, String>> keyValues) {
        return produce(cluster, topic, keyValues, new StringSerializer(), new StringSerializer());
    }

    /**
     * Reads a topic from the beginning until at least {@code expected} records arrived or the
     * timeout passed, with {@code isolation.level=read_committed}.
     *
     * @param cluster the cluster; not null
     * @param topic the topic; it may be created while this waits
     * @param expected the number of records to wait for; not negative
     * @param timeout how long to wait at most; positive
     * @param keyDeserializer key deserializer; not null
     * @param valueDeserializer value deserializer; not null
     * @param <K> key type
     * @param <V> value type
     * @return the records read (possibly fewer or more than {@code expected}); never null
     * @throws IllegalArgumentException if {@code expected} is negative
     */
    public static <K, V> List<ConsumerRecord<K, V>> consume(
            KafkaCluster cluster,
            String topic,
            int expected,
            Duration timeout,
            Deserializer<K> keyDeserializer,
            Deserializer<V> valueDeserializer) {
        return consume(cluster, topic, expected, timeout, keyDeserializer, valueDeserializer, Map.of());
    }

    /**
     * Like {@link #consume(KafkaCluster, String, int, Duration, Deserializer, Deserializer)} with
     * extra consumer settings (e.g. {@code isolation.level=read_uncommitted}).
     *
     * @param cluster the cluster; not null
     * @param topic the topic; it may be created while this waits
     * @param expected the number of records to wait for; not negative
     * @param timeout how long to wait at most; positive
     * @param keyDeserializer key deserializer; not null
     * @param valueDeserializer value deserializer; not null
     * @param consumerOverrides consumer configs applied last; not null
     * @param <K> key type
     * @param <V> value type
     * @return the records read (possibly fewer or more than {@code expected}); never null
     * @throws IllegalArgumentException if {@code expected} is negative
     */
    public static <K, V> List<ConsumerRecord<K, V>> consume(
            KafkaCluster cluster,
            String topic,
            int expected,
            Duration timeout,
            Deserializer<K> keyDeserializer,
            Deserializer<V> valueDeserializer,
            Map<String, Object> consumerOverrides) {
        if (expected < 0) {
            throw new IllegalArgumentException("expected must not be negative: " + expected);
        }
        Map<String, Object> config = cluster.clientConfig();
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.putAll(consumerOverrides);
        long deadline = System.nanoTime() + timeout.toNanos();
        List<ConsumerRecord<K, V>> received = new ArrayList<>();
        try (KafkaConsumer<K, V> consumer = new KafkaConsumer<>(config, keyDeserializer, valueDeserializer)) {
            List<TopicPartition> partitions = List.of();
            while (partitions.isEmpty() && System.nanoTime() < deadline) {
                List<PartitionInfo> infos;
                try {
                    long remainingMs = Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
                    infos = consumer.partitionsFor(topic, Duration.ofMillis(Math.min(remainingMs, 5_000)));
                } catch (org.apache.kafka.common.errors.TimeoutException slow) {
                    // the first metadata fetch can outlast one wait (a TLS handshake on a busy machine): try again
                    // until the deadline, as for a topic not created yet
                    infos = null;
                }
                partitions = infos == null
                        ? List.of()
                        : infos.stream()
                                .map(p -> new TopicPartition(p.topic(), p.partition()))
                                .toList();
                if (partitions.isEmpty()) {
                    pause();
                }
            }
            if (partitions.isEmpty()) {
                return received;
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            while (received.size() < expected) {
                long remainingMs = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (remainingMs <= 0) {
                    break;
                }
                consumer.poll(Duration.ofMillis(Math.min(remainingMs, 200))).forEach(received::add);
            }
        }
        return received;
    }

    /**
     * Reads string records; see
     * {@link #consume(KafkaCluster, String, int, Duration, Deserializer, Deserializer)}.
     *
     * @param cluster the cluster; not null
     * @param topic the topic
     * @param expected the number of records to wait for; not negative
     * @param timeout how long to wait at most
     * @return the records read; never null
     */
    public static List<ConsumerRecord<String, String>> consumeStrings(
            KafkaCluster cluster, String topic, int expected, Duration timeout) {
        return consume(cluster, topic, expected, timeout, new StringDeserializer(), new StringDeserializer());
    }

    private static <T> T await(Future<T> future, long deadlineNanos) {
        try {
            return future.get(Math.max(1, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException("send failed: " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("send not acknowledged within " + SEND_TIMEOUT, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while sending", e);
        }
    }

    private static void pause() {
        try {
            Thread.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
