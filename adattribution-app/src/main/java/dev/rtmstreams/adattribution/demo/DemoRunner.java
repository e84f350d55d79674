package dev.rtmstreams.adattribution.demo;

import dev.rtmstreams.adattribution.AdAttributionService;
import dev.rtmstreams.adattribution.AppConfig;
import dev.rtmstreams.adattribution.avro.AdAck;
import dev.rtmstreams.adattribution.avro.AdRequest;
import dev.rtmstreams.adattribution.avro.AttributedClick;
import dev.rtmstreams.adattribution.avro.Click;
import dev.rtmstreams.adattribution.avro.Device;
import dev.rtmstreams.adattribution.avro.Geo;
import dev.rtmstreams.adattribution.avro.Impression;
import dev.rtmstreams.adattribution.avro.LogRecord;
import dev.rtmstreams.adattribution.avro.User;
import dev.rtmstreams.adattribution.model.AdAttributionSerdes;
import dev.rtmstreams.adattribution.model.AdAttributionTopics;
import dev.rtmstreams.adattribution.model.AvroSerde;
import dev.rtmstreams.processor.ExecutionMode;
import dev.rtmstreams.testkit.EmbeddedKafkaCluster;
import dev.rtmstreams.testkit.ProgressBar;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one-command demo: an embedded single-node KRaft broker, the service in process in real-time mode and then in
 * micro-batch mode, and for each mode a paced load of the seed workload (impressions, ~10% of them clicked a moment
 * later, plus a small share of ad requests with their acks). End-to-end latency is measured as seed 001 does: from
 * the send of the input record that completes a match (the click; the ack) to the receipt of the output record by a
 * consumer, all in this JVM (one clock). Prints a table and writes a report directory.
 */
public final class DemoRunner {

    private static final Logger LOG = LoggerFactory.getLogger(DemoRunner.class);

    /** Demo parameters. */
    public record Settings(
            Duration duration,
            double rate,
            Duration warmup,
            int partitions,
            Path reportDir,
            List<ExecutionMode> modes,
            Duration microBatchInterval,
            long seed,
            Map<String, String> kafkaOverrides,
            boolean progress) {}

    /** Results of one mode. */
    public record ModeResult(
            ExecutionMode mode,
            Histogram attribution,
            Histogram correlation,
            long sentEvents,
            double sentPerSecond,
            long expectedAttributed,
            long receivedAttributed,
            long duplicateAttributed,
            long expectedLogRecords,
            long receivedLogRecords,
            double outputsPerSecond,
            Duration measured) {}

    private final Settings settings;
    private final PrintWriter out;

    /**
     * @param settings the parameters
     * @param out where the table goes
     */
    public DemoRunner(Settings settings, PrintWriter out) {
        this.settings = settings;
        this.out = out;
    }

    /**
     * Runs the demo.
     *
     * @return the results per mode
     * @throws Exception on failure (everything started is cleaned up)
     */
    public List<ModeResult> run() throws Exception {
        List<ModeResult> results = new ArrayList<>();
        Path stateRoot = Files.createTempDirectory("adattribution-demo-state");
        out.printf(Locale.ROOT, "Starting an embedded single-node KRaft broker...%n");
        out.flush();
        try (EmbeddedKafkaCluster kafka = EmbeddedKafkaCluster.builder().build().start()) {
            out.printf(
                    Locale.ROOT,
                    "Broker up at %s in %d ms. Load: %.0f events/s for %s per mode (first %s not measured).%n",
                    kafka.bootstrapServers(),
                    kafka.startupTime().toMillis(),
                    settings.rate(),
                    settings.duration(),
                    settings.warmup());
            out.flush();
            for (ExecutionMode mode : settings.modes()) {
                results.add(runMode(kafka, mode, stateRoot.resolve(mode.configValue())));
            }
        } finally {
            deleteRecursively(stateRoot);
        }
        Files.createDirectories(settings.reportDir());
        Path report = settings.reportDir().resolve("demo-report.json");
        Files.writeString(report, DemoReport.of(settings, results).toJson(), StandardCharsets.UTF_8);
        for (ModeResult r : results) {
            writeHistogram(
                    settings.reportDir()
                            .resolve("latency-attribution-" + r.mode().configValue() + ".hgrm"),
                    r.attribution());
            writeHistogram(
                    settings.reportDir()
                            .resolve("latency-correlation-" + r.mode().configValue() + ".hgrm"),
                    r.correlation());
        }
        printTable(results);
        out.printf(
                Locale.ROOT,
                "Full report: %s (JSON) and latency-*.hgrm percentile distributions in %s%n",
                report.toAbsolutePath(),
                settings.reportDir().toAbsolutePath());
        out.flush();
        return results;
    }

    private ModeResult runMode(EmbeddedKafkaCluster kafka, ExecutionMode mode, Path stateDir) throws Exception {
        String prefix = mode == ExecutionMode.REAL_TIME ? "rt." : "mb.";
        AppConfig.Builder builder = AppConfig.builder();
        settings.kafkaOverrides().forEach(builder::kafkaOverride);
        AppConfig config = builder.bootstrapServers(kafka.bootstrapServers())
                .applicationId("adattribution-demo-" + mode.configValue())
                .trigger(mode)
                .microBatchInterval(settings.microBatchInterval())
                .stateDir(stateDir)
                .createTopics(true)
                .topicPartitions(settings.partitions())
                .numStreamThreads(2 * settings.partitions())
                .httpPort(-1)
                .impressionsTopic(prefix + AdAttributionTopics.IMPRESSIONS)
                .clicksTopic(prefix + AdAttributionTopics.CLICKS)
                .attributedClicksTopic(prefix + AdAttributionTopics.ATTRIBUTED_CLICKS)
                .requestsTopic(prefix + AdAttributionTopics.REQUESTS)
                .acksTopic(prefix + AdAttributionTopics.ACKS)
                .logRecordsTopic(prefix + AdAttributionTopics.LOG_RECORDS)
                .dlqTopic(prefix + AdAttributionTopics.DLQ)
                .build();
        out.printf(
                Locale.ROOT,
                "[%s] starting the service (%d partitions, %d stream threads)...%n",
                mode.configValue(),
                settings.partitions(),
                config.numStreamThreads());
        out.flush();
        try (AdAttributionService service = new AdAttributionService(config)) {
            service.start();
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (!"RUNNING".equals(service.state())) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("service did not reach RUNNING: " + service.state());
                }
                Thread.sleep(50);
            }
            return load(kafka, config, mode);
        }
    }

    private ModeResult load(EmbeddedKafkaCluster kafka, AppConfig config, ExecutionMode mode) throws Exception {
        AppConfig.Topics topics = config.topics();
        Map<String, Long> clickSentNanos = new ConcurrentHashMap<>();
        Map<String, Long> ackSentNanos = new ConcurrentHashMap<>();
        Histogram attribution = new Histogram(3_600_000_000L, 3);
        Histogram correlation = new Histogram(3_600_000_000L, 3);
        AtomicLong received = new AtomicLong();
        AtomicLong duplicates = new AtomicLong();
        AtomicLong logReceived = new AtomicLong();
        AtomicBoolean stop = new AtomicBoolean();
        java.util.Set<String> seenClicks = ConcurrentHashMap.newKeySet();
        long[] measureFromNanos = {Long.MAX_VALUE};

        Properties cp = new Properties();
        cp.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        cp.put(ConsumerConfig.GROUP_ID_CONFIG, "demo-reader-" + mode.configValue());
        cp.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        cp.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 5);
        KafkaConsumer<String, byte[]> consumer =
                new KafkaConsumer<>(cp, new StringDeserializer(), new ByteArrayDeserializer());
        consumer.subscribe(List.of(topics.attributedClicks(), topics.logRecords()));
        AvroSerde<AttributedClick> attributedSerde = AdAttributionSerdes.attributedClick();
        AvroSerde<LogRecord> logSerde = AdAttributionSerdes.logRecord();
        Thread reader = new Thread(
                () -> {
                    try {
                        while (!stop.get()) {
                            for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(20))) {
                                long now = System.nanoTime();
                                if (r.topic().equals(topics.attributedClicks())) {
                                    AttributedClick a = attributedSerde.decode(r.value());
                                    if (!seenClicks.add(a.getClickId())) {
                                        duplicates.incrementAndGet();
                                        continue;
                                    }
                                    received.incrementAndGet();
                                    Long sent = clickSentNanos.get(a.getClickId());
                                    if (sent != null && sent >= measureFromNanos[0]) {
                                        attribution.recordValue(Math.max(0, (now - sent) / 1000));
                                    }
                                } else {
                                    LogRecord l = logSerde.decode(r.value());
                                    logReceived.incrementAndGet();
                                    Long sent = ackSentNanos.get(l.getTransactionId());
                                    if (sent != null && sent >= measureFromNanos[0]) {
                                        correlation.recordValue(Math.max(0, (now - sent) / 1000));
                                    }
                                }
                            }
                        }
                    } finally {
                        consumer.close();
                    }
                },
                "demo-reader");
        reader.start();
        // Let the reader join its group before load starts, so no output waits for an assignment.
        Thread.sleep(3000);

        Properties pp = new Properties();
        pp.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        pp.put(ProducerConfig.LINGER_MS_CONFIG, 1);
        pp.put(ProducerConfig.ACKS_CONFIG, "1");
        AtomicLong sentCount = new AtomicLong();
        AtomicLong clickCount = new AtomicLong();
        AtomicLong ackCount = new AtomicLong();
        Random random = new Random(settings.seed());
        PriorityQueue<Scheduled> pending = new PriorityQueue<>(Comparator.comparingLong(Scheduled::dueNanos));
        out.printf(Locale.ROOT, "[%s] running the load...%n", mode.configValue());
        out.flush();
        long start;
        long end;
        long[] startNanos = {System.nanoTime()};
        long plannedEvents = (long) (settings.rate() * settings.duration().toSeconds());
        try (KafkaProducer<String, byte[]> producer =
                        new KafkaProducer<>(pp, new StringSerializer(), new ByteArraySerializer());
                ProgressBar bar = new ProgressBar(
                        System.err,
                        () -> new ProgressBar.State(
                                mode.configValue(),
                                sentCount.get(),
                                plannedEvents,
                                (System.nanoTime() - startNanos[0]) / 1e9,
                                received.get(),
                                clickCount.get(),
                                Double.NaN),
                        settings.progress())) {
            start = System.nanoTime();
            startNanos[0] = start;
            measureFromNanos[0] = start + settings.warmup().toNanos();
            long durationNanos = settings.duration().toNanos();
            // The loop paces impressions and requests; clicks (10% of impressions) and acks (one per request)
            // follow them, so the base rate is scaled for the total to match --rate.
            double intervalNanos = 1e9 / (settings.rate() / (1 + 0.95 * 0.1 + 0.05));
            long i = 0;
            String run = mode.configValue();
            while (true) {
                long now = System.nanoTime();
                while (!pending.isEmpty() && pending.peek().dueNanos() <= now) {
                    Scheduled s = pending.poll();
                    long wall = System.currentTimeMillis();
                    if (s.click() != null) {
                        clickSentNanos.put(s.click().getClickId(), System.nanoTime());
                        producer.send(new ProducerRecord<>(
                                topics.clicks(),
                                null,
                                wall,
                                s.click().getImpressionId(),
                                AdAttributionSerdes.click().encode(s.click())));
                        clickCount.incrementAndGet();
                    } else {
                        ackSentNanos.put(s.ack().getTransactionId(), System.nanoTime());
                        producer.send(new ProducerRecord<>(
                                topics.acks(),
                                null,
                                wall,
                                s.ack().getTransactionId(),
                                AdAttributionSerdes.adAck().encode(s.ack())));
                        ackCount.incrementAndGet();
                    }
                    sentCount.incrementAndGet();
                }
                if (now - start >= durationNanos) {
                    if (pending.isEmpty()) {
                        break;
                    }
                    Thread.sleep(1);
                    continue;
                }
                long due = start + (long) (i * intervalNanos);
                if (due > now) {
                    long waitNanos = due - now;
                    if (!pending.isEmpty()) {
                        waitNanos = Math.min(waitNanos, pending.peek().dueNanos() - now);
                    }
                    if (waitNanos > 200_000) {
                        Thread.sleep(waitNanos / 1_000_000, (int) (waitNanos % 1_000_000));
                    }
                    continue;
                }
                long wall = System.currentTimeMillis();
                if (i % 20 == 19) {
                    String tx = "tx-" + run + "-" + i;
                    AdRequest request = request(tx, wall);
                    producer.send(new ProducerRecord<>(
                            topics.requests(),
                            null,
                            wall,
                            tx,
                            AdAttributionSerdes.adRequest().encode(request)));
                    long delayMs = 20 + random.nextInt(200);
                    AdAck ack = AdAck.newBuilder()
                            .setTransactionId(tx)
                            .setAdId(request.getAdId())
                            .setStatus("delivered")
                            .setDeliveryTime(Instant.ofEpochMilli(wall + delayMs))
                            .build();
                    pending.add(new Scheduled(System.nanoTime() + delayMs * 1_000_000, null, ack));
                } else {
                    String id = "imp-" + run + "-" + i;
                    Impression imp = Impression.newBuilder()
                            .setImpressionId(id)
                            .setUserId("user-" + random.nextInt(100_000))
                            .setCampaignId("campaign-" + random.nextInt(50))
                            .setAdId("ad-" + random.nextInt(500))
                            .setPublisherId("pub-" + random.nextInt(20))
                            .setBidMicros(100 + random.nextInt(5000))
                            .setImpressionTime(Instant.ofEpochMilli(wall))
                            .build();
                    producer.send(new ProducerRecord<>(
                            topics.impressions(),
                            null,
                            wall,
                            id,
                            AdAttributionSerdes.impression().encode(imp)));
                    if (random.nextInt(10) == 0) {
                        long delayMs = 50 + random.nextInt(450);
                        Click click = Click.newBuilder()
                                .setClickId("clk-" + run + "-" + i)
                                .setImpressionId(id)
                                .setUserId(imp.getUserId())
                                .setClickTime(Instant.ofEpochMilli(wall + delayMs))
                                .build();
                        pending.add(new Scheduled(System.nanoTime() + delayMs * 1_000_000, click, null));
                    }
                }
                sentCount.incrementAndGet();
                i++;
            }
            end = System.nanoTime();
            producer.flush();
        }
        long drainDeadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while ((received.get() < clickCount.get() || logReceived.get() < ackCount.get())
                && System.nanoTime() < drainDeadline) {
            Thread.sleep(50);
        }
        Thread.sleep(500); // a late duplicate would show up here
        stop.set(true);
        reader.join(10_000);
        double seconds = (end - start) / 1e9;
        out.printf(
                Locale.ROOT,
                "[%s] sent %d events in %.1f s; attributed %d/%d clicks, %d/%d log records%n",
                mode.configValue(),
                sentCount.get(),
                seconds,
                received.get(),
                clickCount.get(),
                logReceived.get(),
                ackCount.get());
        out.flush();
        return new ModeResult(
                mode,
                attribution,
                correlation,
                sentCount.get(),
                sentCount.get() / seconds,
                clickCount.get(),
                received.get(),
                duplicates.get(),
                ackCount.get(),
                logReceived.get(),
                (received.get() + logReceived.get()) / seconds,
                Duration.ofNanos(end - start));
    }

    private record Scheduled(long dueNanos, Click click, AdAck ack) {}

    private static AdRequest request(String tx, long wall) {
        return AdRequest.newBuilder()
                .setTransactionId(tx)
                .setAdId("ad-" + (tx.hashCode() & 511))
                .setCampaignId("campaign-1")
                .setBid(0.5)
                .setUser(User.newBuilder()
                        .setUserId("user-" + tx)
                        .setGeo(Geo.newBuilder()
                                .setCountry("US")
                                .setCity("Austin")
                                .build())
                        .build())
                .setDevice(Device.newBuilder()
                        .setOs("android-tv")
                        .setModel("shield")
                        .build())
                .setRequestTime(Instant.ofEpochMilli(wall))
                .build();
    }

    private static String ms(Histogram h, double percentile) {
        if (h.getTotalCount() == 0) {
            return "-";
        }
        long micros = percentile >= 100 ? h.getMaxValue() : h.getValueAtPercentile(percentile);
        return String.format(Locale.ROOT, "%.1f", micros / 1000.0);
    }

    private void printTable(List<ModeResult> results) {
        String fmt = "%-12s %-18s %8s %8s %8s %8s %8s %9s %10s %10s%n";
        out.println();
        out.printf(Locale.ROOT, "End-to-end latency (ms), input record send -> output record received%n");
        out.printf(
                Locale.ROOT,
                fmt,
                "mode",
                "pipeline",
                "p50",
                "p90",
                "p95",
                "p99",
                "max",
                "samples",
                "in ev/s",
                "out rec/s");
        for (ModeResult r : results) {
            out.printf(
                    Locale.ROOT,
                    fmt,
                    r.mode().configValue(),
                    "click-attribution",
                    ms(r.attribution(), 50),
                    ms(r.attribution(), 90),
                    ms(r.attribution(), 95),
                    ms(r.attribution(), 99),
                    ms(r.attribution(), 100),
                    r.attribution().getTotalCount(),
                    String.format(Locale.ROOT, "%.0f", r.sentPerSecond()),
                    String.format(Locale.ROOT, "%.0f", r.outputsPerSecond()));
            out.printf(
                    Locale.ROOT,
                    fmt,
                    "",
                    "request-ack",
                    ms(r.correlation(), 50),
                    ms(r.correlation(), 90),
                    ms(r.correlation(), 95),
                    ms(r.correlation(), 99),
                    ms(r.correlation(), 100),
                    r.correlation().getTotalCount(),
                    "",
                    "");
        }
        out.printf(Locale.ROOT, "%nCorrectness: ");
        for (ModeResult r : results) {
            out.printf(
                    Locale.ROOT,
                    "%s attributed %d of %d clicks (%d duplicates), %d of %d log records. ",
                    r.mode().configValue(),
                    r.receivedAttributed(),
                    r.expectedAttributed(),
                    r.duplicateAttributed(),
                    r.receivedLogRecords(),
                    r.expectedLogRecords());
        }
        out.println();
        if (results.size() == 2
                && results.get(0).attribution().getTotalCount() > 0
                && results.get(1).attribution().getTotalCount() > 0) {
            double p99a = results.get(0).attribution().getValueAtPercentile(99);
            double p99b = results.get(1).attribution().getValueAtPercentile(99);
            String a = results.get(0).mode().configValue();
            String b = results.get(1).mode().configValue();
            if (p99a <= p99b) {
                out.printf(
                        Locale.ROOT,
                        "p99 click attribution: %s is %.1fx lower than %s (same machine, same run).%n",
                        a,
                        p99b / Math.max(1, p99a),
                        b);
            } else {
                out.printf(
                        Locale.ROOT,
                        "p99 click attribution: %s is %.1fx HIGHER than %s (same machine, same run):"
                                + " it did not keep up with the load; try a lower --rate.%n",
                        a,
                        p99a / Math.max(1, p99b),
                        b);
            }
        }
        out.flush();
    }

    private static void writeHistogram(Path file, Histogram h) throws IOException {
        try (java.io.PrintStream ps =
                new java.io.PrintStream(Files.newOutputStream(file), true, StandardCharsets.UTF_8)) {
            if (h.getTotalCount() > 0) {
                h.outputPercentileDistribution(ps, 1000.0); // values in ms
            }
        }
    }

    private static void deleteRecursively(Path root) {
        try (var paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    LOG.debug("cannot delete {}: {}", p, e.toString());
                }
            });
        } catch (IOException e) {
            LOG.debug("cannot delete {}: {}", root, e.toString());
        }
    }
}
