package dev.rtmstreams.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.rtmstreams.testkit.EmbeddedKafkaCluster;
import dev.rtmstreams.testkit.TestRecords;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaClientSupplier;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * An application's own {@link KafkaClientSupplier} (instrumented clients, a framework's hooks) makes every client of
 * an {@link RtmStreams} application, and real-time mode still measures and reports its epochs through it. Against one
 * real embedded KRaft broker.
 */
class RtmStreamsClientSupplierTest {

    private static EmbeddedKafkaCluster kafka;
    private final List<RtmStreams> apps = new ArrayList<>();

    @BeforeAll
    static void startKafka() {
        kafka = EmbeddedKafkaCluster.builder().brokers(1).build().start();
    }

    @AfterAll
    static void stopKafka() {
        if (kafka != null) {
            kafka.close();
        }
    }

    @AfterEach
    void closeApps() {
        apps.forEach(app -> app.close(Duration.ofSeconds(20)));
    }

    /** A user's supplier: its own client subclasses that count what passes through them, as an instrumented one would. */
    static final class CountingSupplier implements KafkaClientSupplier {
        final Map<String, AtomicLong> created = new ConcurrentHashMap<>();
        final AtomicLong polledRecords = new AtomicLong();
        final AtomicLong sentRecords = new AtomicLong();

        private void created(String kind) {
            created.computeIfAbsent(kind, k -> new AtomicLong()).incrementAndGet();
        }

        @Override
        public Admin getAdmin(Map<String, Object> config) {
            created("admin");
            return Admin.create(config);
        }

        @Override
        public Producer<byte[], byte[]> getProducer(Map<String, Object> config) {
            created("producer");
            return new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer()) {
                @Override
                public Future<RecordMetadata> send(
                        ProducerRecord<byte[], byte[]> record, org.apache.kafka.clients.producer.Callback callback) {
                    sentRecords.incrementAndGet();
                    return super.send(record, callback);
                }
            };
        }

        @Override
        public Consumer<byte[], byte[]> getConsumer(Map<String, Object> config) {
            created("consumer");
            return new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer()) {
                @Override
                public ConsumerRecords<byte[], byte[]> poll(Duration timeout) {
                    ConsumerRecords<byte[], byte[]> records = super.poll(timeout);
                    polledRecords.addAndGet(records.count());
                    return records;
                }
            };
        }

        @Override
        public Consumer<byte[], byte[]> getRestoreConsumer(Map<String, Object> config) {
            created("restore-consumer");
            return new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        }

        @Override
        public Consumer<byte[], byte[]> getGlobalConsumer(Map<String, Object> config) {
            created("global-consumer");
            return new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        }
    }

    /** Named by {@code default.client.supplier}: Kafka Streams instantiates it, so it counts in a static. */
    public static final class ConfiguredSupplier implements KafkaClientSupplier {
        static final CountingSupplier COUNTS = new CountingSupplier();

        @Override
        public Admin getAdmin(Map<String, Object> config) {
            return COUNTS.getAdmin(config);
        }

        @Override
        public Producer<byte[], byte[]> getProducer(Map<String, Object> config) {
            return COUNTS.getProducer(config);
        }

        @Override
        public Consumer<byte[], byte[]> getConsumer(Map<String, Object> config) {
            return COUNTS.getConsumer(config);
        }

        @Override
        public Consumer<byte[], byte[]> getRestoreConsumer(Map<String, Object> config) {
            return COUNTS.getRestoreConsumer(config);
        }

        @Override
        public Consumer<byte[], byte[]> getGlobalConsumer(Map<String, Object> config) {
            return COUNTS.getGlobalConsumer(config);
        }
    }

    private static Properties props(String appId) throws Exception {
        Path dir = Files.createTempDirectory("rtm-supplier-");
        dir.toFile().deleteOnExit();
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, appId);
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        p.put(StreamsConfig.STATE_DIR_CONFIG, dir.toString());
        p.put("consumer.auto.offset.reset", "earliest");
        return p;
    }

    private static Topology passThrough(String in, String out) {
        StreamsBuilder b = new StreamsBuilder();
        b.stream(in, Consumed.with(Serdes.String(), Serdes.String()))
                .to(out, Produced.with(Serdes.String(), Serdes.String()));
        return b.build();
    }

    private RtmStreams started(RtmStreams app) {
        apps.add(app);
        app.start();
        await().atMost(Duration.ofSeconds(60)).until(() -> app.state() == KafkaStreams.State.RUNNING);
        return app;
    }

    private static void produce(String topic, int n) {
        List<ProducerRecord<String, String>> records = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            records.add(new ProducerRecord<>(topic, "k" + (i % 5), "v" + i));
        }
        TestRecords.produce(kafka, records, new StringSerializer(), new StringSerializer());
    }

    private static long inputRows(List<EpochProgress> epochs, String topic) {
        return epochs.stream()
                .map(e -> e.sources().get(topic))
                .filter(java.util.Objects::nonNull)
                .mapToLong(SourceProgress::numInputRows)
                .sum();
    }

    private static void assertRealTimeRanThrough(
            CountingSupplier supplier, List<EpochProgress> epochs, String in, String out, int n) {
        assertThat(TestRecords.consumeStrings(kafka, out, n, Duration.ofSeconds(30)))
                .hasSize(n);
        await().atMost(Duration.ofSeconds(30)).until(() -> inputRows(epochs, in) >= n);
        assertThat(inputRows(epochs, in)).isEqualTo(n);
        assertThat(supplier.created)
                .as("clients the application's supplier made")
                .containsKeys("admin", "producer", "consumer", "restore-consumer");
        assertThat(supplier.polledRecords.get())
                .as("records the application's own main consumer polled")
                .isEqualTo(n);
        assertThat(supplier.sentRecords.get())
                .as("records the application's own producer sent")
                .isEqualTo(n);
        assertThat(epochs.stream().mapToLong(e -> e.e2eLatencyMs().count()).sum())
                .as("end-to-end latencies measured through the wrapped clients")
                .isEqualTo(n);
    }

    @Test
    void shouldCreateEveryClientWithTheApplicationsSupplierAndStillReportEpochsWhenOneIsGiven() throws Exception {
        kafka.createTopic("supplier-in", 2);
        kafka.createTopic("supplier-out", 2);
        CountingSupplier supplier = new CountingSupplier();
        List<EpochProgress> epochs = new CopyOnWriteArrayList<>();
        started(RtmStreams.builder(passThrough("supplier-in", "supplier-out"), props("supplier-app"))
                .trigger(Trigger.realTime(Duration.ofMillis(200)))
                .tasksPerSlot(2)
                .clientSupplier(supplier)
                .addProgressListener(epochs::add)
                .build());

        produce("supplier-in", 200);

        assertRealTimeRanThrough(supplier, epochs, "supplier-in", "supplier-out", 200);
    }

    @Test
    void shouldUseTheConfiguredDefaultClientSupplierWhenNoneIsGivenToTheBuilder() throws Exception {
        kafka.createTopic("configured-in", 1);
        kafka.createTopic("configured-out", 1);
        Properties p = props("configured-app");
        p.put(StreamsConfig.DEFAULT_CLIENT_SUPPLIER_CONFIG, ConfiguredSupplier.class.getName());
        List<EpochProgress> epochs = new CopyOnWriteArrayList<>();
        started(RtmStreams.builder(passThrough("configured-in", "configured-out"), p)
                .trigger(Trigger.realTime(Duration.ofMillis(200)))
                .addProgressListener(epochs::add)
                .build());

        produce("configured-in", 100);

        assertRealTimeRanThrough(ConfiguredSupplier.COUNTS, epochs, "configured-in", "configured-out", 100);
    }
}
