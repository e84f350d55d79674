package dev.rtmstreams.loadgen.internals;

import dev.rtmstreams.adattribution.model.AvroWire;
import dev.rtmstreams.adattribution.model.KafkaAccessCheck;
import dev.rtmstreams.adattribution.model.KafkaAccessException;
import dev.rtmstreams.adattribution.model.KafkaClientSettings;
import dev.rtmstreams.adattribution.model.SchemaRegistryClient;
import dev.rtmstreams.adattribution.model.WireFormat;
import dev.rtmstreams.adattribution.workload.DelayDistribution;
import dev.rtmstreams.adattribution.workload.Event;
import dev.rtmstreams.adattribution.workload.LoadRun;
import dev.rtmstreams.adattribution.workload.TopicNames;
import dev.rtmstreams.adattribution.workload.WorkloadConfig;
import dev.rtmstreams.adattribution.workload.WorkloadGenerator;
import dev.rtmstreams.loadgen.ExitCodes;
import dev.rtmstreams.loadgen.LoadGenerator;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The picocli commands behind {@link LoadGenerator}. */
public final class Commands {

    private Commands() {}

    /**
     * Builds the command line with every subcommand and the error handling (bad options exit 2
     * naming them; IllegalArgumentException from validation exits 2 with its message).
     *
     * @return the command line
     */
    public static CommandLine commandLine() {
        return ExitCodes.commandLine(new Top(), "");
    }

    /** The top-level command. */
    @Command(
            name = "load-generator",
            mixinStandardHelpOptions = true,
            version = "rtm-streams load-generator 0.1.0",
            description = "Load generator, correctness oracle and benchmark for the ad-attribution service.",
            subcommands = {
                RunCommand.class,
                RecordCommand.class,
                ReplayCommand.class,
                BenchCommand.class,
                PeerCommand.class,
                CommandLine.HelpCommand.class
            })
    public static final class Top implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            spec.commandLine().usage(spec.commandLine().getErr());
            return 2;
        }
    }

    /** Workload options shared by run, record and bench. */
    public static final class WorkloadOptions {
        @Option(
                names = "--rate",
                description = "Target events per second (all kinds together). Default: 1000; for bench's published"
                        + " latency workloads (--workload stateless|aggregation|stream-static-join): 10000 rows/s,"
                        + " their published rate.")
        Double rate;

        @Option(
                names = "--duration",
                description = "Length of the run (ISO-8601). Default: ${DEFAULT-VALUE}.",
                defaultValue = "PT60S")
        Duration duration;

        @Option(
                names = "--seed",
                description = "Random seed; same seed, same events. Default: ${DEFAULT-VALUE}.",
                defaultValue = "42")
        long seed;

        @Option(names = "--id-prefix", description = "Prefix of every generated id. Default: s<seed>-.")
        String idPrefix;

        @Option(names = "--clicks-per-impression", description = "Default: 0.1 (about 90%% impressions, 10%% clicks).")
        Double clicksPerImpression;

        @Option(
                names = "--request-share",
                description = "Share of base events that are request/ack transactions. "
                        + "Default: 0.1 (run, record), 0 (bench).")
        Double requestShare;

        @Option(
                names = "--click-delay",
                description =
                        "Delay of attributable clicks after their impression: "
                                + "exp:MEAN, uniform:MIN:MAX or fixed:D (ISO-8601), truncated to the window. Default: exp:PT10S.")
        String clickDelay;

        @Option(
                names = "--outside-window-fraction",
                description = "Clicks before their impression or after the window. " + "Default: 0.05.")
        Double outsideWindow;

        @Option(names = "--edge-fraction", description = "Clicks exactly at a window edge. Default: 0.02.")
        Double edge;

        @Option(
                names = "--orphan-fraction",
                description = "Clicks without impression; transactions without partner. " + "Default: 0.02.")
        Double orphan;

        @Option(names = "--duplicate-fraction", description = "Impressions and clicks sent twice. Default: 0.01.")
        Double duplicate;

        @Option(
                names = "--out-of-order-fraction",
                description = "Impressions behind the stream (inside the watermark " + "delay). Default: 0.05.")
        Double outOfOrder;

        @Option(
                names = "--late-fraction",
                description = "Late impression+click pairs per impression slot (far behind "
                        + "the watermark). Default: 0.005.")
        Double late;

        @Option(
                names = "--ack-first-fraction",
                description = "Transactions whose first ack precedes the request. " + "Default: 0.3.")
        Double ackFirst;

        @Option(names = "--max-acks-per-request", description = "Default: 2.")
        Integer maxAcks;

        @Option(names = "--attribution-window", description = "Default: PT2M.")
        Duration window;

        @Option(names = "--watermark-delay", description = "Default: PT5M.")
        Duration watermarkDelay;

        @Option(names = "--partner-send-lag", description = "Longest send distance between partners. Default: PT0.5S.")
        Duration partnerSendLag;

        WorkloadConfig build(double defaultRequestShare) {
            return build(defaultRequestShare, 1000);
        }

        WorkloadConfig build(double defaultRequestShare, double defaultRate) {
            WorkloadConfig.Builder b = WorkloadConfig.builder()
                    .seed(seed)
                    .rate(rate != null ? rate : defaultRate)
                    .duration(duration)
                    .requestShare(requestShare != null ? requestShare : defaultRequestShare);
            ifGiven(idPrefix, b::idPrefix);
            ifGiven(clicksPerImpression, b::clicksPerImpression);
            ifGiven(clickDelay, v -> b.clickDelay(DelayDistribution.parse(v)));
            ifGiven(outsideWindow, b::outsideWindowFraction);
            ifGiven(edge, b::edgeFraction);
            ifGiven(orphan, b::orphanFraction);
            ifGiven(duplicate, b::duplicateFraction);
            ifGiven(outOfOrder, b::outOfOrderFraction);
            ifGiven(late, b::lateFraction);
            ifGiven(ackFirst, b::ackFirstFraction);
            ifGiven(maxAcks, b::maxAcksPerRequest);
            ifGiven(window, b::attributionWindow);
            ifGiven(watermarkDelay, b::watermarkDelay);
            ifGiven(partnerSendLag, b::partnerSendLag);
            return b.build();
        }

        /** Hands an option to the builder when it was given; the builder keeps its default otherwise. */
        private static <T> void ifGiven(T option, Consumer<T> setter) {
            if (option != null) {
                setter.accept(option);
            }
        }
    }

    /** Environment variable of the Schema Registry basic-auth user (the service's too). */
    static final String REGISTRY_USER_ENV = "RTM_SCHEMA_REGISTRY_USER";
    /** Environment variable of the Schema Registry basic-auth password (the service's too); never printed. */
    static final String REGISTRY_PASSWORD_ENV = "RTM_SCHEMA_REGISTRY_PASSWORD";

    /** Options of runs against a cluster. */
    public static final class RunOptions {
        @Option(
                names = "--drain",
                description = "After the last send, stop waiting for missing outputs once none has "
                        + "arrived for this long (at most 10 min or 10 x drain in all). Default: ${DEFAULT-VALUE}.",
                defaultValue = "PT30S")
        Duration drain;

        @Option(names = "--no-progress", description = "Do not draw the progress bar.")
        boolean noProgress;

        @Option(
                names = "--outputs",
                description = "Which outputs to check: service (attributed-clicks + "
                        + "ad-log-records), attribution (attributed-clicks), echo. Default: ${DEFAULT-VALUE}.",
                defaultValue = "service")
        String outputs;

        @Option(
                names = "--mode",
                description = "Label of the run in the report. Default: ${DEFAULT-VALUE}.",
                defaultValue = "service")
        String mode;

        @Option(names = "--client-property", description = "Extra producer/consumer property k=v (repeatable).")
        Map<String, String> clientProperties = new LinkedHashMap<>();

        @Option(
                names = "--kafka-config",
                paramLabel = "FILE",
                description = "Kafka client properties of every client of the run (security.protocol, sasl.*, ssl.*,"
                        + " ...). RTM_KAFKA_<PROPERTY> environment variables (e.g. RTM_KAFKA_SASL_JAAS_CONFIG) win"
                        + " over the file, --client-property over both. Secrets are never printed.")
        Path kafkaConfig;

        /**
         * @param env the environment ({@code RTM_KAFKA_*})
         * @return the client properties of {@code --kafka-config}, the environment and {@code --client-property}
         * @throws IllegalArgumentException naming a missing file or a bad security.protocol
         */
        Map<String, Object> clientProperties(java.util.function.Function<String, String> env) {
            KafkaClientSettings.Builder settings = KafkaClientSettings.builder();
            if (kafkaConfig != null) {
                settings.file(kafkaConfig, "");
            }
            Map<String, Object> properties =
                    new LinkedHashMap<>(settings.environment(env).build().asMap());
            properties.putAll(clientProperties);
            return properties;
        }

        /**
         * Logs in and checks that the run may write the inputs and read the outputs it checks.
         *
         * @throws KafkaAccessException naming the principal, and the topic and operation of a missing ACL
         */
        void verifyAccess(String bootstrapServers, Map<String, Object> clientProperties) {
            TopicNames t = topics();
            Map<String, org.apache.kafka.common.acl.AclOperation> needed = new LinkedHashMap<>();
            for (String input : List.of(t.impressions(), t.clicks(), t.requests(), t.acks())) {
                needed.put(input, org.apache.kafka.common.acl.AclOperation.WRITE);
            }
            List<String> outputs = switch (outputKind()) {
                case SERVICE -> List.of(t.attributedClicks(), t.logRecords());
                case ATTRIBUTION -> List.of(t.attributedClicks());
                case ECHO -> List.of(t.echo());
            };
            outputs.forEach(o -> needed.put(o, org.apache.kafka.common.acl.AclOperation.READ));
            Map<String, Object> config = new LinkedHashMap<>(clientProperties);
            config.put("bootstrap.servers", bootstrapServers);
            KafkaAccessCheck.verify(config, needed, Duration.ofSeconds(30));
        }

        @Option(names = "--topic-prefix", description = "Prefix of every topic name (default none).", defaultValue = "")
        String topicPrefix;

        @Option(
                names = "--wire-format",
                description = "How Avro records are framed, as the service's --wire-format: single-object (Avro's"
                        + " single-object encoding, no registry) or confluent (magic byte 0, 4-byte schema id, binary"
                        + " body; schemas in --schema-registry-url, under <topic>-value). Default: ${DEFAULT-VALUE}.",
                defaultValue = "single-object")
        String wireFormat;

        @Option(
                names = "--schema-registry-url",
                description = "Schema Registry (Confluent REST API) of --wire-format confluent, e.g."
                        + " http://registry:8081; required with it. Basic-auth user and password from the environment"
                        + " variables " + REGISTRY_USER_ENV + " and " + REGISTRY_PASSWORD_ENV + " only.")
        String schemaRegistryUrl;

        /**
         * @param env the environment (credentials)
         * @return the wire format of the options
         * @throws IllegalArgumentException naming the bad value: an unknown format, confluent without a url, a url
         *     with single-object, or a url that is not http(s)
         */
        AvroWire wire(java.util.function.Function<String, String> env) {
            WireFormat format = WireFormat.parse(wireFormat);
            boolean hasUrl = schemaRegistryUrl != null && !schemaRegistryUrl.isBlank();
            if (format == WireFormat.CONFLUENT && !hasUrl) {
                throw new IllegalArgumentException(
                        "--schema-registry-url is required with --wire-format confluent: '" + schemaRegistryUrl + "'");
            }
            if (format == WireFormat.SINGLE_OBJECT) {
                if (hasUrl) {
                    throw new IllegalArgumentException("--schema-registry-url is only used with --wire-format"
                            + " confluent (wire format is single-object): '" + schemaRegistryUrl + "'");
                }
                return AvroWire.singleObject();
            }
            return AvroWire.confluent(SchemaRegistryClient.builder(schemaRegistryUrl)
                    .basicAuth(env.apply(REGISTRY_USER_ENV), env.apply(REGISTRY_PASSWORD_ENV))
                    .build());
        }

        /**
         * @param bootstrapServers HOST:PORT of the cluster
         * @param clients the client properties ({@link #clientProperties})
         * @param window the attribution window the outputs are checked against
         * @param watermarkDelay the watermark delay the outputs are checked against
         * @param speed the speed factor of the send schedule
         * @param idPrefix the prefix of the run's ids
         * @return the settings of a run with these options
         */
        LoadRun.Settings settings(
                String bootstrapServers,
                Map<String, Object> clients,
                Duration window,
                Duration watermarkDelay,
                double speed,
                String idPrefix) {
            return new LoadRun.Settings(
                    bootstrapServers,
                    topics(),
                    mode,
                    outputKind(),
                    window,
                    watermarkDelay,
                    speed,
                    drain,
                    Duration.ofSeconds(2),
                    Duration.ofSeconds(1),
                    !noProgress,
                    clients,
                    idPrefix,
                    wire(System::getenv));
        }

        TopicNames topics() {
            return TopicNames.DEFAULTS.withPrefix(topicPrefix);
        }

        LoadRun.Outputs outputKind() {
            switch (outputs.toLowerCase(Locale.ROOT)) {
                case "service":
                    return LoadRun.Outputs.SERVICE;
                case "attribution":
                    return LoadRun.Outputs.ATTRIBUTION;
                case "echo":
                    return LoadRun.Outputs.ECHO;
                default:
                    throw new IllegalArgumentException("--outputs must be service, attribution or echo: " + outputs);
            }
        }
    }

    static int finish(Map<String, Object> report, Path reportDir, String name) throws Exception {
        Path json = ReportWriter.writeRun(reportDir, name, report);
        ReportWriter.printTable(System.out, List.of(report));
        System.out.println("report: " + json.toAbsolutePath() + " (picture: " + name + ".html)");
        boolean ok = ((Number) report.get("missing")).longValue() == 0
                && ((Number) report.get("duplicates")).longValue() == 0
                && ((Number) report.get("unexpected")).longValue() == 0;
        if (!ok) {
            System.err.println("outputs differ from the oracle: see samples in " + json);
        }
        if (Boolean.FALSE.equals(report.get("kept_up"))) {
            System.err.printf(
                    Locale.ROOT,
                    "warning: the generator could not keep up with %s events/s (achieved %s/s, " + "max lag %s ms)%n",
                    report.get("target_rate"),
                    report.get("achieved_rate"),
                    report.get("max_send_lag_ms"));
        }
        return ok ? 0 : 1;
    }

    /** {@code run}: generate, send at a rate, check outputs. */
    @Command(
            name = "run",
            mixinStandardHelpOptions = true,
            description = "Send a generated workload to a running service at a target rate and check its outputs.")
    public static final class RunCommand implements Callable<Integer> {
        @Option(names = "--bootstrap-servers", required = true, description = "HOST:PORT of the cluster.")
        String bootstrapServers;

        @Option(names = "--report-dir", required = true, description = "Where the JSON report and picture go.")
        Path reportDir;

        @Mixin
        WorkloadOptions workload = new WorkloadOptions();

        @Mixin
        RunOptions run = new RunOptions();

        @Override
        public Integer call() throws Exception {
            WorkloadConfig config = workload.build(0.1);
            Map<String, Object> clients = run.clientProperties(System::getenv);
            LoadRun.Settings s = run.settings(
                    bootstrapServers,
                    clients,
                    config.attributionWindow(),
                    config.watermarkDelay(),
                    1.0,
                    config.idPrefix());
            Map<String, Object> extra = new LinkedHashMap<>();
            extra.put("workload", RunDescriptions.workloadDescription(config));
            run.verifyAccess(bootstrapServers, clients);
            Map<String, Object> report = LoadRun.execute(
                    WorkloadGenerator.generate(config, System.currentTimeMillis()), config.rate(), s, extra);
            return finish(report, reportDir, "report-" + run.mode);
        }
    }

    /** {@code record}: write a generated workload to a file. */
    @Command(
            name = "record",
            mixinStandardHelpOptions = true,
            description = "Write a generated workload to a file (JSON lines, gzip if the name ends in .gz).")
    public static final class RecordCommand implements Callable<Integer> {
        @Option(names = "--file", required = true, description = "The events file to write.")
        Path file;

        @Option(names = "--start-time", description = "Event time of the first slot (ISO-8601 instant). Default: now.")
        Instant startTime;

        @Mixin
        WorkloadOptions workload = new WorkloadOptions();

        @Override
        public Integer call() throws Exception {
            WorkloadConfig config = workload.build(0.1);
            long start = startTime != null ? startTime.toEpochMilli() : System.currentTimeMillis();
            List<Event> events = WorkloadGenerator.generate(config, start);
            Map<String, Object> header = new LinkedHashMap<>(RunDescriptions.workloadDescription(config));
            header.put("start_time", start);
            EventFile.write(file, header, events);
            System.out.println("wrote " + events.size() + " events to " + file.toAbsolutePath());
            return 0;
        }
    }

    /** {@code replay}: send a recorded file at a chosen speed and check the outputs. */
    @Command(
            name = "replay",
            mixinStandardHelpOptions = true,
            description = "Send a recorded events file at a chosen speed and check the outputs.")
    public static final class ReplayCommand implements Callable<Integer> {
        @Option(names = "--file", required = true, description = "The events file to send.")
        Path file;

        @Option(
                names = "--speed",
                description = "Speed factor relative to the recorded schedule. Default: " + "${DEFAULT-VALUE}.",
                defaultValue = "1.0")
        double speed;

        @Option(names = "--bootstrap-servers", required = true, description = "HOST:PORT of the cluster.")
        String bootstrapServers;

        @Option(names = "--report-dir", required = true, description = "Where the JSON report and picture go.")
        Path reportDir;

        @Option(
                names = "--no-rebase",
                description = "Keep the recorded event times (default: shift them so the first " + "slot is now).")
        boolean noRebase;

        @Mixin
        RunOptions run = new RunOptions();

        @Override
        public Integer call() throws Exception {
            if (!(speed > 0)) {
                throw new IllegalArgumentException("--speed must be positive: " + speed);
            }
            EventFile.Contents contents = EventFile.read(file);
            Map<String, Object> h = contents.header();
            List<Event> events = contents.events();
            if (!noRebase && h.get("start_time") instanceof Number) {
                long shift = System.currentTimeMillis() - ((Number) h.get("start_time")).longValue();
                List<Event> shifted = new ArrayList<>(events.size());
                for (Event e : events) {
                    shifted.add(e.shifted(shift));
                }
                events = shifted;
            }
            double rate = ((Number) h.getOrDefault("rate", 1000.0)).doubleValue() * speed;
            Duration window = Duration.parse(String.valueOf(h.getOrDefault("attribution_window", "PT2M")));
            Duration delay = Duration.parse(String.valueOf(h.getOrDefault("watermark_delay", "PT5M")));
            String prefix = String.valueOf(h.getOrDefault("id_prefix", ""));
            Map<String, Object> clients = run.clientProperties(System::getenv);
            LoadRun.Settings s = run.settings(bootstrapServers, clients, window, delay, speed, prefix);
            Map<String, Object> extra = new LinkedHashMap<>();
            extra.put("replay", Map.of("file", file.toString(), "speed", speed));
            extra.put("workload", h);
            run.verifyAccess(bootstrapServers, clients);
            Map<String, Object> report = LoadRun.execute(events, rate, s, extra);
            return finish(report, reportDir, "report-" + run.mode);
        }
    }

    /** {@code bench}: the same workload against each mode, side by side. */
    @Command(
            name = "bench",
            mixinStandardHelpOptions = true,
            description = {
                "Run the same workload against echo, real-time, micro-batch and kafka-streams-join, each on a "
                        + "fresh broker unless --bootstrap-servers is given; print one table; write reports and a combined picture.",
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
    public static final class BenchCommand implements Callable<Integer> {
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
                        + " (default 10000).")
        String benchWorkload;

        @Option(
                names = "--examples-jar",
                description = "The rtm-examples fat jar (published workloads). Default: ${DEFAULT-VALUE} (relative to"
                        + " the working directory).",
                defaultValue = "rtm-examples/target/rtm-examples.jar")
        Path examplesJar;

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
                        + "and real-time-LABEL (or just LABEL) for each --variant. Default: echo,real-time,micro-batch,"
                        + "kafka-streams-join plus every variant.")
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
                description =
                        "--find-max bisects until the last pass and the first "
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
                names = "--app-jar",
                description =
                        "The service's fat jar. Default: ${DEFAULT-VALUE} (relative to the " + "working directory).",
                defaultValue = "adattribution-app/target/adattribution-app.jar")
        Path appJar;

        @Option(names = "--app-jvm-option", description = "JVM option of the service (repeatable). Default: -Xmx1g.")
        List<String> appJvmOptions;

        @Option(names = "--app-arg", description = "Extra argument to the service's run command (repeatable).")
        List<String> appArgs = new ArrayList<>();

        @Option(
                names = "--partitions",
                description = "Partitions per topic. Default: ${DEFAULT-VALUE}.",
                defaultValue = "2")
        int partitions;

        @Option(
                names = "--warmup",
                description = "Warm-up at the same rate, sent just before the measured run and without a pause "
                        + "(one continuous stream); its outputs are checked but left out of latency and cost. "
                        + "Keep it past the JIT warm-up of the broker and the system under test (about 80 s on 2 cores). "
                        + "Default: ${DEFAULT-VALUE}.",
                defaultValue = "PT3M")
        Duration warmup;

        @Option(
                names = "--drain",
                description = "After the last send, stop waiting for missing outputs once none has "
                        + "arrived for this long (at most 10 min or 10 x drain in all). Default: ${DEFAULT-VALUE}.",
                defaultValue = "PT30S")
        Duration drain;

        @Option(
                names = "--ready-timeout",
                description = "Longest wait for a mode to start. Default: ${DEFAULT-VALUE}.",
                defaultValue = "PT120S")
        Duration readyTimeout;

        @Option(names = "--no-progress", description = "Do not draw the progress bar.")
        boolean noProgress;

        @Option(
                names = "--stream-threads",
                description =
                        "Stream threads of the service and of the Kafka Streams peer. " + "Default: ${DEFAULT-VALUE}.",
                defaultValue = "2")
        int streamThreads;

        @Option(
                names = "--rates",
                split = ",",
                description = "Sweep: run every mode at each of these rates (events/s), " + "instead of --rate.")
        List<Double> rates = new ArrayList<>();

        @Option(
                names = "--peers-in-process",
                description = "Run echo and kafka-streams-join inside this JVM (default: "
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
                    throw new IllegalArgumentException("--variant " + v.label() + ": jar not found: "
                            + v.jar().toAbsolutePath());
                }
            }
            FindMax.Settings fm =
                    findMax ? new FindMax.Settings(findMaxStart, findMaxFactor, findMaxLimit, findMaxResolution) : null;
            BenchWorkload bw = BenchWorkload.parse(benchWorkload);
            BenchOptions o = BenchOptions.builder()
                    .workload(workload.build(0.0, bw.isPublished() ? BenchWorkload.PUBLISHED_RATE : 1000))
                    .modes(BenchModes.resolveModes(modes, vs, bw))
                    .bootstrapServers(bootstrapServers)
                    .broker(kind)
                    .reportDir(reportDir)
                    .appJar(appJar)
                    .appJvmOptions(appJvmOptions != null ? appJvmOptions : List.of("-Xmx1g"))
                    .appArgs(appArgs)
                    .partitions(partitions)
                    .warmup(warmup)
                    .drain(drain)
                    .readyTimeout(readyTimeout)
                    .progress(!noProgress)
                    .streamThreads(streamThreads)
                    .peersInChildJvm(!peersInProcess)
                    .rates(rates)
                    .variants(vs)
                    .benchWorkload(bw)
                    .examplesJar(examplesJar)
                    .rowBytes(rowBytes)
                    .build();
            if (fm != null) {
                List<FindMax.Result> results = Bench.findMax(o, fm);
                return results.stream().allMatch(r -> r.maxSustainedRate() != null) ? 0 : 1;
            }
            List<Map<String, Object>> reports = Bench.run(o);
            boolean ok = reports.stream()
                    .allMatch(r -> ((Number) r.get("missing")).longValue() == 0
                            && ((Number) r.get("duplicates")).longValue() == 0
                            && ((Number) r.get("unexpected")).longValue() == 0);
            return ok ? 0 : 1;
        }
    }

    /** {@code peer}: a benchmark peer in its own JVM (started by bench). */
    @Command(
            name = "peer",
            hidden = true,
            mixinStandardHelpOptions = true,
            description = "Run a benchmark peer (echo or kafka-streams-join) until SIGTERM; prints PEER READY once it "
                    + "processes input.")
    public static final class PeerCommand implements Callable<Integer> {
        @Option(names = "--kind", required = true, description = "echo or kafka-streams-join.")
        String kind;

        @Option(names = "--bootstrap-servers", required = true, description = "HOST:PORT of the cluster.")
        String bootstrapServers;

        @Option(names = "--application-id", required = true, description = "Consumer group / application id.")
        String applicationId;

        @Option(names = "--topic-suffix", defaultValue = "", description = "Suffix of every topic name.")
        String topicSuffix;

        @Option(
                names = "--workload",
                defaultValue = "attribution",
                description = "Whose topics the echo copies (bench's --workload). Default: ${DEFAULT-VALUE}.")
        String benchWorkload;

        @Option(names = "--attribution-window", defaultValue = "PT2M", description = "Default: ${DEFAULT-VALUE}.")
        Duration window;

        @Option(
                names = "--watermark-delay",
                defaultValue = "PT5M",
                description = "Grace period. Default: " + "${DEFAULT-VALUE}.")
        Duration watermarkDelay;

        @Option(names = "--stream-threads", defaultValue = "2", description = "Default: ${DEFAULT-VALUE}.")
        int streamThreads;

        @Override
        public Integer call() throws Exception {
            TopicNames topics = TopicNames.DEFAULTS.withSuffix(topicSuffix);
            BenchWorkload bw = BenchWorkload.parse(benchWorkload);
            AutoCloseable pipeline;
            boolean ready;
            switch (kind) {
                case "echo": {
                    EchoPipeline echo = SystemUnderTest.echo(
                            bootstrapServers,
                            bw,
                            topics,
                            LatencyWorkload.Topics.DEFAULTS.withSuffix(topicSuffix),
                            applicationId);
                    pipeline = echo;
                    ready = echo.awaitReady(Duration.ofMinutes(2));
                    break;
                }
                case "kafka-streams-join": {
                    KafkaStreamsJoinPipeline ksj = new KafkaStreamsJoinPipeline(
                            bootstrapServers, applicationId, topics, window, watermarkDelay, streamThreads);
                    pipeline = ksj;
                    ready = ksj.awaitRunning(Duration.ofMinutes(2));
                    break;
                }
                default:
                    throw new IllegalArgumentException("--kind must be echo or kafka-streams-join: " + kind);
            }
            java.util.concurrent.CountDownLatch stopped = new java.util.concurrent.CountDownLatch(1);
            Runtime.getRuntime()
                    .addShutdownHook(new Thread(
                            () -> {
                                try {
                                    pipeline.close();
                                } catch (Exception e) {
                                    // exiting anyway
                                }
                                stopped.countDown();
                            },
                            "peer-shutdown"));
            if (!ready) {
                System.out.println("PEER FAILED to start");
                return 1;
            }
            System.out.println("PEER READY");
            System.out.flush();
            stopped.await();
            return 0;
        }
    }
}
