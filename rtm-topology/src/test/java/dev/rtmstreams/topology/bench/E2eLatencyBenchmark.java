package dev.rtmstreams.topology.bench;

import dev.rtmstreams.processor.OutputMode;
import dev.rtmstreams.processor.StatefulProcessor;
import dev.rtmstreams.processor.TimeMode;
import dev.rtmstreams.processor.TimerValues;
import dev.rtmstreams.processor.TransformWithState;
import dev.rtmstreams.processor.ValueState;
import dev.rtmstreams.testkit.EmbeddedKafkaCluster;
import dev.rtmstreams.topology.EpochProgress;
import dev.rtmstreams.topology.RtmStreams;
import dev.rtmstreams.topology.Trigger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;

/**
 * Not a test: a load run comparing real-time and micro-batch mode in one JVM against one embedded broker.
 * Pipelines: stateless pass-through, and a transformWithState count. Each runs for a fixed time at a fixed rate;
 * the figures are e2eLatencyMs from the epoch reports (warm-up epochs dropped): median over epochs of the epoch p50,
 * median and max over epochs of the epoch p99.
 * <pre>
 * mvn -B -q -pl rtm-topology test-compile \
 *     org.apache.maven.plugins:maven-dependency-plugin:3.9.0:build-classpath -Dmdep.includeScope=test \
 *     -Dmdep.outputFile=target/test-classpath.txt
 * cd rtm-topology &amp;&amp; java -Dlogback.configurationFile=src/test/resources/logback-test.xml \
 *     -cp target/test-classes:target/classes:$(cat target/test-classpath.txt) \
 *     dev.rtmstreams.topology.bench.E2eLatencyBenchmark 2000 20
 * </pre>
 * Arguments: records per second (default 2000), seconds per run (default 20). A discarded 10 s warm-up run comes
 * first. Prints the load average before and after: the machine may be shared.
 */
public final class E2eLatencyBenchmark {

    private static final int PARTITIONS = 2;
    private static final int KEYS = 1000;
    private static final long WARMUP_MS = 5_000;

    private E2eLatencyBenchmark() {}

    /** Counts per key; one output per call. */
    static final class CountProcessor extends StatefulProcessor<String, String, String> {
        private ValueState<Long> count;

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            count = getHandle().getValueState("count", Serdes.Long());
        }

        @Override
        public Iterator<String> handleInputRows(String key, Iterator<String> rows, TimerValues timerValues) {
            long n = count.getOption().orElse(0L);
            while (rows.hasNext()) {
                rows.next();
                n++;
            }
            count.update(n);
            return List.of(Long.toString(n)).iterator();
        }
    }

    public static void main(String[] args) throws Exception {
        int rate = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        System.out.println(
                "load before: " + Files.readString(Path.of("/proc/loadavg")).trim());
        List<String> rows = new ArrayList<>();
        try (EmbeddedKafkaCluster kafka =
                EmbeddedKafkaCluster.builder().brokers(1).build().start()) {
            int run = 0;
            // a discarded warm-up run (JIT, broker page cache, group coordinator) before the measured runs
            kafka.createTopics(Map.of("bench-in-0", PARTITIONS, "bench-out-0", PARTITIONS));
            System.out.println("warm-up (discarded): "
                    + runOnce(
                            kafka,
                            "passthrough",
                            Trigger.realTime(Duration.ofSeconds(1)),
                            "bench-in-0",
                            "bench-out-0",
                            rate,
                            Math.min(seconds, 10),
                            run,
                            Map.of()));
            for (String pipeline : List.of("passthrough", "tws-count")) {
                // alternate the order (RT, MB, MB, RT) so that drift in machine load does not favour one mode
                for (boolean realTime : List.of(true, false, false, true)) {
                    Trigger trigger = realTime
                            ? Trigger.realTime(Duration.ofSeconds(1))
                            : Trigger.microBatch(Duration.ofSeconds(1));
                    run++;
                    String in = "bench-in-" + run;
                    String out = "bench-out-" + run;
                    kafka.createTopics(Map.of(in, PARTITIONS, out, PARTITIONS));
                    rows.add(runOnce(kafka, pipeline, trigger, in, out, rate, seconds, run, Map.of()));
                }
            }
            // real-time with a 5 ms producer linger instead of 0: fewer, larger produce requests
            run++;
            kafka.createTopics(Map.of("bench-in-" + run, PARTITIONS, "bench-out-" + run, PARTITIONS));
            rows.add(runOnce(
                            kafka,
                            "passthrough",
                            Trigger.realTime(Duration.ofSeconds(1)),
                            "bench-in-" + run,
                            "bench-out-" + run,
                            rate,
                            seconds,
                            run,
                            Map.of("producer.linger.ms", "5"))
                    + "  linger.ms=5");
        }
        System.out.println(
                "load after: " + Files.readString(Path.of("/proc/loadavg")).trim());
        System.out.println();
        System.out.printf(
                "%-12s %-28s %8s %8s %10s %10s %10s %8s%n",
                "pipeline", "trigger", "epochs", "records", "e2e p50", "e2e p99", "p99 worst", "sent/s");
        rows.forEach(System.out::println);
    }

    private static Topology topology(String pipeline, String in, String out) {
        StreamsBuilder b = new StreamsBuilder();
        var stream = b.stream(in, Consumed.with(Serdes.String(), Serdes.String()));
        if (pipeline.equals("passthrough")) {
            stream.to(out, Produced.with(Serdes.String(), Serdes.String()));
        } else {
            stream.process(
                            TransformWithState.builder(CountProcessor::new, TimeMode.NONE)
                                    .name("count")
                                    .keySerde(Serdes.String())
                                    .valueSerde(Serdes.String())
                                    .build(),
                            Named.as("count"))
                    .to(out, Produced.with(Serdes.String(), Serdes.String()));
        }
        return b.build();
    }

    private static String runOnce(
            EmbeddedKafkaCluster kafka,
            String pipeline,
            Trigger trigger,
            String in,
            String out,
            int rate,
            int seconds,
            int run,
            Map<String, String> extra)
            throws Exception {
        Path dir = Files.createTempDirectory("rtm-bench-");
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "bench-" + run);
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        p.put(StreamsConfig.STATE_DIR_CONFIG, dir.toString());
        p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, "1");
        p.put("consumer.auto.offset.reset", "earliest");
        p.putAll(extra);
        List<EpochProgress> epochs = new CopyOnWriteArrayList<>();
        RtmStreams rtm = RtmStreams.builder(topology(pipeline, in, out), p)
                .trigger(trigger)
                .tasksPerSlot(PARTITIONS)
                .addProgressListener(epochs::add)
                .build();
        rtm.start();
        long deadline = System.currentTimeMillis() + 60_000;
        while (rtm.state() != KafkaStreams.State.RUNNING && System.currentTimeMillis() < deadline) {
            Thread.sleep(50);
        }
        Map<String, Object> pc = Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                kafka.bootstrapServers(),
                ProducerConfig.LINGER_MS_CONFIG,
                "0",
                ProducerConfig.ACKS_CONFIG,
                "1");
        AtomicLong sent = new AtomicLong();
        long start = System.currentTimeMillis();
        try (KafkaProducer<String, String> producer =
                new KafkaProducer<>(pc, new StringSerializer(), new StringSerializer())) {
            long end = start + seconds * 1000L;
            int perTick = Math.max(1, rate / 200); // a burst every 5 ms
            long next = System.nanoTime();
            while (System.currentTimeMillis() < end) {
                for (int i = 0; i < perTick; i++) {
                    long n = sent.getAndIncrement();
                    producer.send(new ProducerRecord<>(in, "k" + (n % KEYS), Long.toString(n)));
                }
                next += 5_000_000L;
                long sleep = next - System.nanoTime();
                if (sleep > 0) {
                    Thread.sleep(sleep / 1_000_000L, (int) (sleep % 1_000_000L));
                }
            }
        }
        Thread.sleep(3_000); // let the last batches and checkpoints close
        rtm.close(Duration.ofSeconds(30));
        double sentPerSecond = sent.get() * 1000.0 / (seconds * 1000.0);
        List<EpochProgress> measured = epochs.stream()
                .filter(e ->
                        e.startTimeMs() >= start + WARMUP_MS && e.e2eLatencyMs().count() > 0)
                .toList();
        long records =
                measured.stream().mapToLong(e -> e.e2eLatencyMs().count()).sum();
        long p50 = median(measured.stream()
                .mapToLong(e -> e.e2eLatencyMs().p50())
                .sorted()
                .toArray());
        long p99 = median(measured.stream()
                .mapToLong(e -> e.e2eLatencyMs().p99())
                .sorted()
                .toArray());
        long worst =
                measured.stream().mapToLong(e -> e.e2eLatencyMs().p99()).max().orElse(-1);
        return String.format(
                "%-12s %-28s %8d %8d %10d %10d %10d %8.0f",
                pipeline, trigger, measured.size(), records, p50, p99, worst, sentPerSecond);
    }

    private static long median(long[] sorted) {
        return sorted.length == 0 ? -1 : sorted[sorted.length / 2];
    }
}
