package dev.rtmstreams.reliability.internals;

import dev.rtmstreams.adattribution.model.ServiceTopics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Mixes undecodable records into the service's input topics at a fixed rate and checks that every
 * one of them reaches the dead-letter topic with the error and its source in headers.
 *
 * <p>Each poison record carries the header {@value #POISON_ID_HEADER} (the DLQ keeps the original
 * headers), so the DLQ reader can tell which arrived. Kinds, in turn: random bytes; a valid Avro
 * single-object marker ({@code C3 01}) with an unknown schema fingerprint; truncated Avro (marker,
 * then nothing); an empty value; a record without a key.
 */
public final class PoisonInjector implements AutoCloseable {

    /** Header that identifies a poison record. */
    public static final String POISON_ID_HEADER = "rtm.chaos.poison.id";
    /** Headers every dead-lettered record must carry. */
    public static final List<String> REQUIRED_DLQ_HEADERS = List.of(
            "rtm.dlq.error.class",
            "rtm.dlq.error.message",
            "rtm.dlq.source.topic",
            "rtm.dlq.source.partition",
            "rtm.dlq.source.offset");

    private static final Logger LOG = LoggerFactory.getLogger(PoisonInjector.class);

    private final KafkaConnection kafka;
    private final ServiceTopics topics;
    private final double rate;
    private final AtomicBoolean stop = new AtomicBoolean();
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong sendErrors = new AtomicLong();
    private final Map<String, String> kindById = new ConcurrentHashMap<>();
    private final Map<String, Integer> dlqSeen = new ConcurrentHashMap<>();
    private final AtomicLong dlqMissingHeaders = new AtomicLong();
    private final AtomicLong dlqOther = new AtomicLong();
    private final List<String> headerSamples = new ArrayList<>();
    private Thread sender;
    private Thread reader;
    private final AtomicBoolean stopReader = new AtomicBoolean();

    /**
     * @param kafka the cluster and client settings
     * @param topics topic names
     * @param rate poison records per second
     */
    public PoisonInjector(KafkaConnection kafka, ServiceTopics topics, double rate) {
        this.kafka = kafka;
        this.topics = topics;
        this.rate = rate;
    }

    /** Starts the DLQ reader (from the end of the DLQ) and the sender. */
    public void start() {
        KafkaConsumer<byte[], byte[]> consumer =
                kafka.tailConsumer("chaos-dlq-reader", Map.of(), List.of(topics.dlq()));
        reader = new Thread(
                () -> {
                    try (consumer) {
                        while (!stopReader.get()) {
                            for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                                Header id = r.headers().lastHeader(POISON_ID_HEADER);
                                if (id == null) {
                                    dlqOther.incrementAndGet();
                                    continue;
                                }
                                String pid = new String(id.value(), StandardCharsets.UTF_8);
                                dlqSeen.merge(pid, 1, Integer::sum);
                                boolean ok = true;
                                for (String h : REQUIRED_DLQ_HEADERS) {
                                    if (r.headers().lastHeader(h) == null) {
                                        ok = false;
                                    }
                                }
                                if (!ok) {
                                    dlqMissingHeaders.incrementAndGet();
                                }
                                synchronized (headerSamples) {
                                    if (headerSamples.size() < 5) {
                                        Map<String, String> hs = new LinkedHashMap<>();
                                        for (Header h : r.headers()) {
                                            hs.put(h.key(), new String(h.value(), StandardCharsets.UTF_8));
                                        }
                                        headerSamples.add(hs.toString());
                                    }
                                }
                            }
                        }
                    } catch (RuntimeException e) {
                        LOG.error("DLQ reader failed", e);
                    }
                },
                "chaos-dlq-reader");
        reader.setDaemon(true);
        reader.start();
        sender = new Thread(this::sendLoop, "chaos-poison-sender");
        sender.setDaemon(true);
        sender.start();
    }

    private void sendLoop() {
        Map<String, Object> cfg = kafka.config(Map.of());
        cfg.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        cfg.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        cfg.put(ProducerConfig.ACKS_CONFIG, "all");
        cfg.put(ProducerConfig.CLIENT_ID_CONFIG, "chaos-poison");
        Random random = new Random(7);
        List<String> inputs = topics.inputs();
        long t0 = System.nanoTime();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(cfg)) {
            long n = 0;
            while (!stop.get()) {
                long due = t0 + (long) (n * 1e9 / rate);
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    Thread.sleep(Math.min(wait / 1_000_000L + 1, 200));
                    continue;
                }
                String id = "poison-" + n;
                String topic = inputs.get((int) (n % inputs.size()));
                int kind = (int) ((n / inputs.size()) % 5);
                byte[] key = ("poison-key-" + n).getBytes(StandardCharsets.UTF_8);
                byte[] value;
                String kindName;
                switch (kind) {
                    case 0 -> {
                        value = new byte[16 + random.nextInt(48)];
                        random.nextBytes(value);
                        value[0] = 0x7f; // never the Avro single-object marker
                        kindName = "random-bytes";
                    }
                    case 1 -> {
                        value = new byte[] {(byte) 0xC3, 0x01, 1, 2, 3, 4, 5, 6, 7, 8, 42, 42};
                        kindName = "unknown-fingerprint";
                    }
                    case 2 -> {
                        value = new byte[] {(byte) 0xC3, 0x01};
                        kindName = "truncated";
                    }
                    case 3 -> {
                        value = new byte[0];
                        kindName = "empty-value";
                    }
                    default -> {
                        value = new byte[] {0x7f, 0x00, 0x01};
                        key = null;
                        kindName = "no-key";
                    }
                }
                ProducerRecord<byte[], byte[]> rec =
                        new ProducerRecord<>(topic, null, System.currentTimeMillis(), key, value);
                rec.headers().add(POISON_ID_HEADER, id.getBytes(StandardCharsets.UTF_8));
                kindById.put(id, kindName);
                producer.send(rec, (md, ex) -> {
                    if (ex != null) {
                        sendErrors.incrementAndGet();
                        kindById.remove(id);
                    }
                });
                sent.incrementAndGet();
                n++;
            }
            producer.flush();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops sending (the DLQ reader keeps reading until {@link #close()}). */
    public void stopSending() {
        stop.set(true);
        Threads.joinQuietly(sender, 30_000);
    }

    /**
     * Waits until every poison record sent reached the DLQ.
     *
     * @param timeout longest wait
     * @throws InterruptedException when interrupted
     */
    public void awaitDeadLettered(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline && !dlqSeen.keySet().containsAll(kindById.keySet())) {
            Thread.sleep(100);
        }
    }

    /** @return the verdict figures: sent, dead-lettered, missing from the DLQ per kind, header problems */
    public ChaosReport.PoisonFigures figures() {
        Set<String> acked = Set.copyOf(kindById.keySet());
        Map<String, Long> missingByKind = new LinkedHashMap<>();
        long missing = 0;
        for (String id : acked) {
            if (!dlqSeen.containsKey(id)) {
                missing++;
                missingByKind.merge(kindById.get(id), 1L, Long::sum);
            }
        }
        long dup = dlqSeen.values().stream()
                .filter(c -> c > 1)
                .mapToLong(c -> c - 1)
                .sum();
        List<String> samples;
        synchronized (headerSamples) {
            samples = List.copyOf(headerSamples);
        }
        return new ChaosReport.PoisonFigures(
                sent.get(),
                sendErrors.get(),
                acked.size(),
                dlqSeen.size(),
                missing,
                missingByKind,
                dup,
                dlqMissingHeaders.get(),
                dlqOther.get(),
                samples);
    }

    @Override
    public void close() {
        stopSending();
        stopReader.set(true);
        Threads.joinQuietly(reader, 10_000);
    }
}
