package dev.rtmstreams.join.bench;

import dev.rtmstreams.join.IntervalJoin;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Random;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.JoinWindows;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.StreamJoined;

/**
 * Inner-join throughput of {@link IntervalJoin} vs Kafka Streams' built-in {@code KStream#join} with
 * {@code JoinWindows.ofTimeDifferenceAndGrace(2 min, 5 min).before(0)} (same condition:
 * {@code imp.ts <= click.ts <= imp.ts + 2 min}) on the same input, both on RocksDB, record caches off, through
 * TopologyTestDriver in one JVM. Runs are interleaved (A B A B ...) after warm-up; prints records/s (wall clock) and
 * process CPU µs/record (all threads, so less sensitive to other load on a shared machine).
 * Not a CI test. Args: [records per run, default 100000] [measured rounds, default 3].
 */
public final class JoinThroughputBenchmark {

    record Input(boolean impression, String key, String value, long ts) {}

    public static void main(String[] args) throws Exception {
        int records = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        List<Input> input = workload(records, 42L);
        System.out.printf(
                "workload: %d records (%d impressions, %d clicks), seed 42%n",
                input.size(),
                input.stream().filter(Input::impression).count(),
                input.stream().filter(i -> !i.impression()).count());
        if (args.length > 2) { // profiling: one implementation only
            for (int r = 0; r < rounds; r++) {
                run(args[2], input);
            }
            return;
        }
        // warm-up
        run("rtm", input);
        run("builtin", input);
        List<Double> rtm = new ArrayList<>();
        List<Double> builtin = new ArrayList<>();
        List<Double> cpuRatios = new ArrayList<>();
        for (int r = 0; r < rounds; r++) {
            builtin.add(run("builtin", input));
            double builtinCpu = lastCpuNanos;
            rtm.add(run("rtm", input));
            cpuRatios.add(builtinCpu / lastCpuNanos);
        }
        double rtmBest = rtm.stream().mapToDouble(d -> d).max().orElse(0);
        double builtinBest = builtin.stream().mapToDouble(d -> d).max().orElse(0);
        double rtmMedian = median(rtm);
        double builtinMedian = median(builtin);
        System.out.printf(
                "IntervalJoin       median %.0f rec/s (%.2f us/rec), best %.0f rec/s, runs %s%n",
                rtmMedian, 1e6 / rtmMedian, rtmBest, rtm);
        System.out.printf(
                "KStream#join       median %.0f rec/s (%.2f us/rec), best %.0f rec/s, runs %s%n",
                builtinMedian, 1e6 / builtinMedian, builtinBest, builtin);
        System.out.printf(
                "ratio IntervalJoin/builtin: median %.3f, best %.3f%n",
                rtmMedian / builtinMedian, rtmBest / builtinBest);
        System.out.printf(
                "ratio of process-CPU throughput (builtin cpu / IntervalJoin cpu, per round): median %.3f,"
                        + " rounds %s%n",
                median(cpuRatios), cpuRatios);
    }

    private static double median(List<Double> xs) {
        List<Double> s = new ArrayList<>(xs);
        s.sort(Double::compare);
        return s.get(s.size() / 2);
    }

    /** Seed-001-like: ~27k impressions/s event time, ~10% clicked 0..120 s later, 90% of clicks in order. */
    static List<Input> workload(int n, long seed) {
        Random rnd = new Random(seed);
        long t0 = Instant.parse("2026-01-01T00:00:00Z").toEpochMilli();
        List<Input> out = new ArrayList<>(n);
        List<Input> pendingClicks = new ArrayList<>();
        int imp = 0;
        long now = t0;
        String payload = "x".repeat(60);
        while (out.size() < n) {
            now += rnd.nextInt(3) == 0 ? 1 : 0; // ~ 27 records per ms of event time on average... plus clicks
            String key = "imp-" + imp++;
            out.add(new Input(true, key, "imp:" + payload, now));
            if (rnd.nextInt(10) == 0) {
                pendingClicks.add(new Input(false, key, "click:" + payload, now + rnd.nextInt(120_000)));
            }
            // release clicks whose time has come (their event time is <= now + a bit)
            if (!pendingClicks.isEmpty() && rnd.nextInt(10) == 0) {
                Input c = pendingClicks.remove(0);
                out.add(new Input(false, c.key(), c.value(), Math.max(c.ts(), now)));
            }
        }
        return out.subList(0, n);
    }

    /** Process CPU time (all threads, including RocksDB's native threads) of the last run, in ns. */
    private static double lastCpuNanos;

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean)
                        java.lang.management.ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private static double run(String which, List<Input> input) throws Exception {
        StreamsBuilder sb = new StreamsBuilder();
        KStream<String, String> imps = sb.stream("imps", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> clicks = sb.stream("clicks", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> joined;
        if (which.equals("rtm")) {
            joined = IntervalJoin.<String, String, String>builder()
                    .keySerde(Serdes.String())
                    .leftSerde(Serdes.String())
                    .rightSerde(Serdes.String())
                    .lowerBound(Duration.ZERO)
                    .upperBound(Duration.ofMinutes(2))
                    .leftWatermarkDelay(Duration.ofMinutes(5))
                    .rightWatermarkDelay(Duration.ofMinutes(5))
                    .name("bench")
                    .build()
                    .join(imps, clicks, (k, i, c) -> i.length() + ":" + c.length());
        } else {
            joined = imps.join(
                    clicks,
                    (i, c) -> i.length() + ":" + c.length(),
                    JoinWindows.ofTimeDifferenceAndGrace(Duration.ofMinutes(2), Duration.ofMinutes(5))
                            .before(Duration.ZERO),
                    StreamJoined.with(Serdes.String(), Serdes.String(), Serdes.String()));
        }
        joined.to("out", Produced.with(Serdes.String(), Serdes.String()));
        Topology topology = sb.build();
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "bench-" + which);
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "dummy:9092");
        p.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
        p.put(
                StreamsConfig.STATE_DIR_CONFIG,
                Files.createTempDirectory("rtm-join-bench").toString());
        long outputs;
        long elapsed;
        try (TopologyTestDriver d = new TopologyTestDriver(topology, p)) {
            TestInputTopic<String, String> in1 = d.createInputTopic(
                    "imps", Serdes.String().serializer(), Serdes.String().serializer());
            TestInputTopic<String, String> in2 = d.createInputTopic(
                    "clicks", Serdes.String().serializer(), Serdes.String().serializer());
            TestOutputTopic<String, String> out = d.createOutputTopic(
                    "out", Serdes.String().deserializer(), Serdes.String().deserializer());
            long start = System.nanoTime();
            long cpuStart = processCpuNanos();
            int i = 0;
            outputs = 0;
            for (Input r : input) {
                (r.impression() ? in1 : in2).pipeInput(r.key(), r.value(), r.ts());
                if ((++i & 8191) == 0) {
                    outputs += out.readValuesToList().size(); // drain so memory stays flat
                }
            }
            elapsed = System.nanoTime() - start;
            lastCpuNanos = processCpuNanos() - cpuStart;
            outputs += out.getQueueSize();
        }
        double rate = input.size() / (elapsed / 1e9);
        System.out.printf(
                "  %-8s %d records in %.2f s = %.0f rec/s, process cpu %.1f us/rec (%d join outputs)%n",
                which, input.size(), elapsed / 1e9, rate, lastCpuNanos / 1e3 / input.size(), outputs);
        return rate;
    }
}
