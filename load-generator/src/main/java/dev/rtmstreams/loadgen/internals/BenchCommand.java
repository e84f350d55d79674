package dev.rtmstreams.loadgen.internals;

import dev.rtmstreams.loadgen.internals.Commands.DrainOptions;
import dev.rtmstreams.loadgen.internals.Commands.WorkloadOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code bench}: the same workload against each mode, side by side. */
@Command(
        name = "bench",
        mixinStandardHelpOptions = true,
        description = {
            "Run the same workload against echo, real-time, micro-batch and the Kafka Streams peers, each on a "
                    + "fresh broker unless --bootstrap-servers is given; print one table; write reports and a combined picture.",
            "Peers: echo (consumer -> producer, no Kafka Streams: the floor of this machine); kafka-streams-passthrough "
                    + "(a Kafka Streams source -> sink copy with real-time mode's client settings, checked like the echo: "
                    + "the Kafka Streams floor); kafka-streams-join (the stock KStream#join: what you get by switching); "
                    + "kafka-streams-join-tuned (the same join with real-time mode's client settings, "
                    + "RealTimeClientSettings: what the engine adds).",
            "Each report has a cost section over the measured window (from the first send after the warm-up to the "
                    + "last expected output or the end of the drain): CPU of the system-under-test JVM and of the broker "
                    + "process (/proc/<pid>/stat), per input event, and GC pause time of the system under test (jstat YGCT+FGCT)."
                    + " In-process brokers and peers report no cost.",
            "--workload stateless|aggregation|stream-static-join runs a published latency workload instead "
                    + "(databricks-solutions/latency-benchmarks, 10000 rows/s unless --rate is given) against the "
                    + "rtm-examples program of that name in modes echo, real-time and micro-batch; the table gives "
                    + "each mode's p99 as a multiple of the echo's (p99/echo).",
            "With --find-max: per mode, the highest rate it sustains (generator kept up; outputs arrive while inputs "
                    + "are sent; median per-second p50 of the last third of the run <= 2 x that of the first third "
                    + "+ 50 ms and <= 1 s, so no backlog from the warm-up is left; no output missing after the drain), "
                    + "found by full runs at rising rates and bisection; writes find-max.json and p99-vs-rate.svg."
        })
final class BenchCommand implements Callable<Integer> {
    @Option(names = "--report-dir", required = true, description = "Where the reports go.")
    Path reportDir;

    @Option(
            names = "--workload",
            paramLabel = "attribution|stateless|aggregation|stream-static-join",
            defaultValue = "attribution",
            description = "What to send and check. attribution (default): the seed's ad-attribution workload"
                    + " against the service. stateless, aggregation, stream-static-join: the published latency"
                    + " workloads of databricks-solutions/latency-benchmarks (queries A, B, C), each run by the"
                    + " rtm-examples program of the same name (--examples-jar) in modes echo, real-time,"
                    + " micro-batch and micro-batch-asap (default: echo,real-time,micro-batch) at --rate rows/s"
                    + " (default 10000), or by Apache Spark in modes spark-real-time (stateless and"
                    + " stream-static-join) and spark-micro-batch (--spark-dir).")
    String benchWorkload;

    @Option(
            names = "--examples-jar",
            description = "The rtm-examples fat jar (published workloads). Default: ${DEFAULT-VALUE} (relative to"
                    + " the working directory).",
            defaultValue = "rtm-examples-runner/target/rtm-examples.jar")
    Path examplesJar;

    @Option(
            names = "--spark-dir",
            description = "The build of module load-generator-spark (its jar and spark-classpath.txt; modes"
                    + " spark-real-time, spark-micro-batch). Default: ${DEFAULT-VALUE} (relative to the working"
                    + " directory).",
            defaultValue = "load-generator-spark/target")
    Path sparkDir;

    @Option(
            names = "--row-bytes",
            description = "Characters of a stateless or aggregation row's value (published record size)."
                    + " Default: ${DEFAULT-VALUE}.",
            defaultValue = "1200")
    int rowBytes;

    @Option(
            names = "--modes",
            split = ",",
            description = "Modes to run, comma-separated: echo, real-time, "
                    + "micro-batch, micro-batch-asap (micro-batch with interval PT0S: as fast as possible), kafka-streams-join, "
                    + "kafka-streams-join-tuned, kafka-streams-passthrough, real-time-eos (exactly_once_v2), "
                    + "kafka-streams-join-eos (the stock join under exactly_once_v2), kafka-streams-join-eos-tuned, "
                    + "spark-real-time and spark-micro-batch (Apache Spark 4.2 in local mode running the published "
                    + "workloads' query, Trigger.RealTime or ProcessingTime 0 s; --workload other than attribution), "
                    + "and real-time-LABEL (or just LABEL) for each --variant. Default: echo,real-time,micro-batch,"
                    + "kafka-streams-join,kafka-streams-join-tuned,kafka-streams-passthrough,real-time-eos,"
                    + "kafka-streams-join-eos plus every variant.")
    List<String> modes;

    @Option(
            names = "--variant",
            paramLabel = "LABEL=JAR",
            description =
                    "A/B comparison (repeatable): also run the "
                            + "service from this other fat jar in real-time mode, as mode real-time-LABEL, with the same arguments.")
    List<String> variants = new ArrayList<>();

    @Option(
            names = "--variant-arg",
            paramLabel = "LABEL=ARG",
            description =
                    "Extra service argument of one variant "
                            + "only (repeatable, one token each: --variant-arg new=--checkpoint-interval --variant-arg new=PT1M).")
    List<String> variantArgs = new ArrayList<>();

    @Option(
            names = "--find-max",
            description = "Search each mode's highest sustained rate instead of running at "
                    + "--rate: ramp from --find-max-start by --find-max-factor until the first failure or --find-max-limit, then "
                    + "bisect down to --find-max-resolution. Every probe is a full run (fresh broker, warm-up, measured run, "
                    + "drain).")
    boolean findMax;

    @Option(
            names = "--find-max-start",
            description = "First rate probed by --find-max (events/s). Default: " + "${DEFAULT-VALUE}.",
            defaultValue = "5000")
    double findMaxStart;

    @Option(
            names = "--find-max-factor",
            description = "Ramp factor of --find-max. Default: ${DEFAULT-VALUE}.",
            defaultValue = "1.5")
    double findMaxFactor;

    @Option(
            names = "--find-max-limit",
            description = "Highest rate probed by --find-max (events/s). Default: " + "${DEFAULT-VALUE}.",
            defaultValue = "60000")
    double findMaxLimit;

    @Option(
            names = "--find-max-resolution",
            description = "--find-max bisects until the last pass and the first "
                    + "failure are at most this far apart (events/s). Default: 10%% of the pass rate, at least 500.")
    Double findMaxResolution;

    @Option(names = "--bootstrap-servers", description = "Use this cluster instead of a fresh broker per mode.")
    String bootstrapServers;

    @Option(
            names = "--broker",
            description = "Where a fresh broker runs: in-process or child-process. Default: " + "${DEFAULT-VALUE}.",
            defaultValue = "child-process")
    String broker;

    @Option(
            names = "--brokers",
            paramLabel = "N",
            defaultValue = "1",
            description =
                    "Brokers of the fresh cluster of each mode: 1, or 3 and more (each a combined KRaft"
                            + " broker+controller in its own JVM; topics and the internal topics of the service and the peers"
                            + " with replication factor 3, min.insync.replicas=2, producers acks=all). Default: ${DEFAULT-VALUE}.")
    int brokers;

    @Option(
            names = "--app-jar",
            description = "The service's fat jar. Default: ${DEFAULT-VALUE} (relative to the " + "working directory).",
            defaultValue = "adattribution-app/target/adattribution-app.jar")
    Path appJar;

    @Option(names = "--app-jvm-option", description = "JVM option of the service (repeatable). Default: -Xmx1g.")
    List<String> appJvmOptions;

    @Option(names = "--app-arg", description = "Extra argument to the service's run command (repeatable).")
    List<String> appArgs = new ArrayList<>();

    @Option(
            names = "--partitions",
            description = "Partitions per topic; at least --instances. Default: 2, or 2 per instance with --instances.")
    Integer partitions;

    @Option(
            names = "--instances",
            paramLabel = "N",
            defaultValue = "1",
            description = "Instances of the service in the modes that run it (real-time, micro-batch,"
                    + " micro-batch-asap, real-time-eos, variants): N JVMs with the same application id, each with its"
                    + " own state directory, HTTP port and log (service-MODE-I.log); the run starts once every"
                    + " instance is RUNNING with active tasks of its own. The oracle is the same; the report adds an"
                    + " instances section: CPU per event summed and per instance, and each instance's tasks at the"
                    + " start and the end. Modes echo and kafka-streams-* run one JVM and refuse N > 1."
                    + " Default: ${DEFAULT-VALUE}.")
    int instances;

    @Option(
            names = "--warmup",
            description = "Warm-up at the same rate, sent just before the measured run and without a pause "
                    + "(one continuous stream); its outputs are checked but left out of latency and cost. "
                    + "Keep it past the JIT warm-up of the broker and the system under test (about 80 s on 2 cores). "
                    + "Default: ${DEFAULT-VALUE}.",
            defaultValue = "PT3M")
    Duration warmup;

    @Mixin
    DrainOptions drain = new DrainOptions();

    @Option(
            names = "--ready-timeout",
            description = "Longest wait for a mode to start. Default: ${DEFAULT-VALUE}.",
            defaultValue = "PT120S")
    Duration readyTimeout;

    @Option(
            names = "--stream-threads",
            description =
                    "Stream threads of the service and of the Kafka Streams peers. " + "Default: ${DEFAULT-VALUE}.",
            defaultValue = "2")
    int streamThreads;

    @Option(
            names = "--rates",
            split = ",",
            description = "Sweep: run every mode at each of these rates (events/s), " + "instead of --rate.")
    List<Double> rates = new ArrayList<>();

    @Option(
            names = "--peers-in-process",
            description = "Run echo and the Kafka Streams peers inside this JVM (default: "
                    + "each in its own JVM, like the service).")
    boolean peersInProcess;

    @Mixin
    WorkloadOptions workload = new WorkloadOptions();

    @Override
    public Integer call() throws Exception {
        BenchOptions.BrokerKind kind;
        switch (broker.toLowerCase(Locale.ROOT)) {
            case "in-process":
                kind = BenchOptions.BrokerKind.IN_PROCESS;
                break;
            case "child-process":
                kind = BenchOptions.BrokerKind.CHILD_PROCESS;
                break;
            default:
                throw new IllegalArgumentException("--broker must be in-process or child-process: " + broker);
        }
        Map<String, BenchModes.Variant> vs = BenchModes.parseVariants(variants, variantArgs);
        for (BenchModes.Variant v : vs.values()) {
            if (!java.nio.file.Files.isRegularFile(v.jar())) {
                throw new IllegalArgumentException(
                        "--variant " + v.label() + ": jar not found: " + v.jar().toAbsolutePath());
            }
        }
        FindMax.Settings fm =
                findMax ? new FindMax.Settings(findMaxStart, findMaxFactor, findMaxLimit, findMaxResolution) : null;
        BenchWorkload bw = BenchWorkload.parse(benchWorkload);
        BenchOptionsBuilder builder = BenchOptions.builder();
        if (partitions != null) {
            builder.partitions(partitions);
        }
        BenchOptions o = builder.workload(workload.build(0.0, bw.isPublished() ? BenchWorkload.PUBLISHED_RATE : 1000))
                .modes(BenchModes.resolveModes(modes, vs, bw))
                .bootstrapServers(bootstrapServers)
                .broker(kind)
                .brokers(brokers)
                .reportDir(reportDir)
                .appJar(appJar)
                .appJvmOptions(appJvmOptions != null ? appJvmOptions : List.of("-Xmx1g"))
                .appArgs(appArgs)
                .instances(instances)
                .warmup(warmup)
                .drain(drain.drain)
                .readyTimeout(readyTimeout)
                .progress(!drain.noProgress)
                .streamThreads(streamThreads)
                .peersInChildJvm(!peersInProcess)
                .rates(rates)
                .variants(vs)
                .benchWorkload(bw)
                .examplesJar(examplesJar)
                .sparkDir(sparkDir)
                .rowBytes(rowBytes)
                .build();
        if (fm != null) {
            List<FindMax.Result> results = Bench.findMax(o, fm);
            return results.stream().allMatch(r -> r.maxSustainedRate() != null) ? 0 : 1;
        }
        List<LoadReport> reports = Bench.run(o);
        boolean ok = reports.stream().allMatch(r -> r.run().counts().clean());
        return ok ? 0 : 1;
    }
}
