package dev.rtmstreams.loadgen.internals;

import dev.rtmstreams.adattribution.model.AvroWire;
import dev.rtmstreams.adattribution.model.KafkaAccessCheck;
import dev.rtmstreams.adattribution.model.KafkaAccessException;
import dev.rtmstreams.adattribution.model.KafkaClientSettings;
import dev.rtmstreams.adattribution.model.SchemaRegistryClient;
import dev.rtmstreams.adattribution.model.WireFormat;
import dev.rtmstreams.adattribution.workload.DelayDistribution;
import dev.rtmstreams.adattribution.workload.LoadRun;
import dev.rtmstreams.adattribution.workload.RunReport;
import dev.rtmstreams.adattribution.workload.TopicNames;
import dev.rtmstreams.adattribution.workload.WorkloadConfig;
import dev.rtmstreams.loadgen.ExitCodes;
import dev.rtmstreams.loadgen.LoadGenerator;
import dev.rtmstreams.tools.cli.DurationOption;
import dev.rtmstreams.tools.cli.SeedOption;
import java.nio.file.Path;
import java.time.Duration;
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

/**
 * The command line of {@link LoadGenerator}: the top-level command, and the option mixins and report helper its
 * subcommands share. Each subcommand has its own file ({@link RunCommand}, {@link RecordCommand}, {@link
 * ReplayCommand}, {@link BenchCommand}, {@link PeerCommand}).
 */
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
            version = "rtm-streams load-generator 0.2.0-SNAPSHOT",
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

        @Mixin
        DurationOption duration = new DurationOption(Duration.ofSeconds(60));

        @Mixin
        SeedOption seed = new SeedOption();

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
                    .seed(seed.seed())
                    .rate(rate != null ? rate : defaultRate)
                    .duration(duration.duration())
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

    /** How long a run waits for its last outputs, and its progress bar: shared by run, replay and bench. */
    public static final class DrainOptions {
        @Option(
                names = "--drain",
                description = "After the last send, stop waiting for missing outputs once none has "
                        + "arrived for this long (at most 10 min or 10 x drain in all). Default: ${DEFAULT-VALUE}.",
                defaultValue = "PT30S")
        Duration drain;

        @Option(names = "--no-progress", description = "Do not draw the progress bar.")
        boolean noProgress;
    }

    /** Options of runs against a cluster. */
    public static final class RunOptions {
        @Mixin
        DrainOptions drain = new DrainOptions();

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
                    drain.drain,
                    Duration.ofSeconds(2),
                    Duration.ofSeconds(1),
                    !drain.noProgress,
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

    static int finish(LoadReport report, Path reportDir, String name) throws Exception {
        Path json = ReportWriter.writeRun(reportDir, name, report);
        ReportWriter.printTable(System.out, List.of(report));
        System.out.println("report: " + json.toAbsolutePath() + " (picture: " + name + ".html)");
        RunReport run = report.run();
        boolean ok = run.counts().clean();
        if (!ok) {
            System.err.println("outputs differ from the oracle: see samples in " + json);
        }
        if (!run.sending().keptUp()) {
            System.err.printf(
                    Locale.ROOT,
                    "warning: the generator could not keep up with %s events/s (achieved %s/s, " + "max lag %s ms)%n",
                    run.targetRate(),
                    run.achievedRate(),
                    run.sending().maxSendLagMs());
        }
        return ok ? 0 : 1;
    }
}
