package dev.rtmstreams.reliability;

import dev.rtmstreams.adattribution.model.KafkaClientSettings;
import dev.rtmstreams.loadgen.ExitCodes;
import dev.rtmstreams.loadgen.LoadGenerator;
import dev.rtmstreams.reliability.internals.GroupSettings;
import dev.rtmstreams.reliability.internals.Scenario;
import dev.rtmstreams.reliability.internals.ScenarioRunner;
import dev.rtmstreams.tools.cli.DurationOption;
import dev.rtmstreams.tools.cli.RateOption;
import dev.rtmstreams.tools.cli.SeedOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The {@code chaos} command line (the main class of {@code rtm-reliability/target/rtm-reliability.jar}):
 * one fault scenario under load against the ad-attribution service, checked by the load
 * generator's oracle.
 *
 * <pre>{@code
 * java -jar rtm-reliability/target/rtm-reliability.jar --scenario service-crash --duration PT60S --rate 2000
 * java -jar rtm-reliability/target/rtm-reliability.jar --scenario service-crash --exactly-once --duration PT60S
 * java -jar rtm-reliability/target/rtm-reliability.jar --scenario soak --duration PT10M --rate 2000
 * }</pre>
 *
 * <p>Scenarios: {@code service-crash}, {@code pending-timers}, {@code state-wipe},
 * {@code broker-restart}, {@code poison}, {@code instance-failover}, {@code soak}, and the group changes
 * {@code scale-out}, {@code scale-in}, {@code rolling-restart}, {@code instance-kill} (of {@code --instances}
 * instances, under the {@code --group-protocol}), and the broker faults {@code broker-leader-kill},
 * {@code controller-kill}, {@code broker-rolling-restart}, {@code broker-pause}, {@code txn-coordinator-kill},
 * {@code broker-network-partition} (on {@code --brokers 3}). Each prints the verdict and figures and writes
 * {@code <report-dir>/chaos-<scenario>.json}.
 *
 * <p>Exit codes: 0 the scenario passed; 1 it failed (the oracle or a probe found a problem, or the
 * run broke); 2 bad command-line options (the message names the option).
 */
public final class Chaos {

    private Chaos() {}

    /**
     * Runs the command line and exits the JVM with its exit code.
     *
     * @param args command-line arguments
     */
    public static void main(String[] args) {
        // the runner decodes the service's outputs in this JVM (the load generator's oracle)
        LoadGenerator.trustAvroPackages();
        System.exit(execute(args));
    }

    /**
     * Runs the command line without exiting the JVM.
     *
     * @param args command-line arguments
     * @return 0 passed, 1 failed, 2 usage error
     */
    public static int execute(String... args) {
        return commandLine().execute(args);
    }

    /**
     * Builds the picocli command line with its error handling: an {@link IllegalArgumentException}
     * from validation exits 2 with its message; anything else exits 1.
     *
     * @return the command line
     */
    public static CommandLine commandLine() {
        return ExitCodes.commandLine(new ChaosCommand(), "the chaos run broke: ");
    }

    /** The command's options. */
    @Command(
            name = "chaos",
            mixinStandardHelpOptions = true,
            version = "rtm-streams chaos 0.2.0-SNAPSHOT",
            sortOptions = false,
            description = {
                "Inject one fault into the ad-attribution service under load from the load generator and check "
                        + "every output against its oracle.",
                "Scenarios: service-crash (kill -9 + restart), pending-timers (timers set before a kill fire after it; "
                        + "matches straddling it are emitted), state-wipe (kill -9, wipe the state dir, restore: no expired "
                        + "state, no watermark regress, joins continue), broker-restart (stop + start the broker process), "
                        + "poison (undecodable records to the DLQ), instance-failover (two instances, one killed), soak "
                        + "(long run sampling state and memory).",
                "Group changes under load (--instances, default 3): scale-out (1 -> N), scale-in (N -> 1, graceful"
                        + " stops), rolling-restart (each of N stopped and started in turn), instance-kill (kill -9 of"
                        + " one of N); each reports the tasks moved, when they processed again, rebalances and latency.",
                "Broker faults on the runner's own cluster (--brokers 3): broker-leader-kill (kill -9 of the broker"
                        + " leading most partitions of the tasks on partition 0, restart after --downtime),"
                        + " controller-kill (kill -9 of the active controller, restart), broker-rolling-restart (each"
                        + " broker stopped and started in turn, in-sync replicas full between), broker-pause (SIGSTOP"
                        + " of that leader for at least 35 s, then SIGCONT), txn-coordinator-kill (kill -9 of the"
                        + " transaction coordinator of a stream thread while it commits under --exactly-once, of the"
                        + " group coordinator otherwise; no transaction left open), broker-network-partition (that leader"
                        + " cut off from the network while it runs, each broker in a network namespace of its own on"
                        + " 10.213.0.0/24; needs root); each reports the failover, the time to full"
                        + " in-sync replicas, latency before and during, and changelog records restored.",
                "Exit codes: 0 passed, 1 failed, 2 bad options."
            })
    static final class ChaosCommand implements Callable<Integer> {
        @Option(
                names = "--scenario",
                required = true,
                paramLabel = "NAME",
                description = "service-crash, pending-timers, long-outage, state-wipe, broker-restart, poison,"
                        + " instance-failover, soak, scale-out, scale-in, rolling-restart, instance-kill,"
                        + " broker-leader-kill, controller-kill, broker-rolling-restart, broker-pause,"
                        + " txn-coordinator-kill or broker-network-partition.")
        String scenario;

        @Mixin
        DurationOption duration = new DurationOption(Duration.ofSeconds(60));

        @Mixin
        RateOption rate = new RateOption(2000);

        @Option(
                names = "--report-dir",
                defaultValue = "chaos-out",
                description = "Where reports, logs and state go. " + "Default: ${DEFAULT-VALUE}.")
        Path reportDir;

        @Option(
                names = "--bootstrap-servers",
                description = "Use this cluster instead of a fresh child-JVM broker " + "(not with broker-restart).")
        String bootstrapServers;

        @Option(
                names = "--brokers",
                paramLabel = "N",
                defaultValue = "1",
                description = "Brokers of the runner's own cluster: 1, or 3..9 (each a combined KRaft broker+controller"
                        + " in its own JVM; the run's topics and the service's internal topics with replication factor"
                        + " 3 and min.insync.replicas=2, every producer acks=all). Not with --bootstrap-servers or"
                        + " broker-restart. Default: ${DEFAULT-VALUE}.")
        int brokers;

        @Option(
                names = "--kafka-config",
                paramLabel = "FILE",
                description = "Kafka client properties (security.protocol, sasl.*, ssl.*, ...) of every client of the"
                        + " run: the runner's, the load's and the service's. RTM_KAFKA_<PROPERTY> environment"
                        + " variables (e.g. RTM_KAFKA_SASL_JAAS_CONFIG) win over the file. Secrets are never printed.")
        Path kafkaConfig;

        @Option(
                names = "--exactly-once",
                description = "Run the service with processing.guarantee=exactly_once_v2 and "
                        + "require zero duplicates (read_committed).")
        boolean exactlyOnce;

        @Option(
                names = "--app-jar",
                defaultValue = "adattribution-app/target/adattribution-app.jar",
                description = "The service's fat jar. Default: ${DEFAULT-VALUE}.")
        Path appJar;

        @Option(names = "--app-jvm-option", description = "JVM option of the service (repeatable). Default: -Xmx1g.")
        List<String> appJvmOptions;

        @Option(
                names = "--broker-jvm-option",
                description = "JVM option of the runner's own broker, when it starts one (repeatable)."
                        + " Default: -Xmx768m.")
        List<String> brokerJvmOptions;

        @Option(
                names = "--partitions",
                defaultValue = "2",
                description = "Partitions per topic. Default: ${DEFAULT-VALUE}.")
        int partitions;

        @Option(
                names = "--checkpoint-interval",
                defaultValue = "PT5S",
                description = "The service's checkpoint " + "(commit) interval. Default: ${DEFAULT-VALUE}.")
        Duration checkpointInterval;

        @Option(
                names = "--correlation-window",
                defaultValue = "PT2M",
                description =
                        "The service's request/ack correlation window, counted in record time (long-outage keeps the"
                                + " service down for twice this). Default: ${DEFAULT-VALUE}.")
        Duration correlationWindow;

        @Mixin
        SeedOption seed = new SeedOption();

        @Option(
                names = "--drain",
                defaultValue = "PT60S",
                description = "Longest wait for outputs after the last send. " + "Default: ${DEFAULT-VALUE}.")
        Duration drain;

        @Option(
                names = "--fault-at",
                defaultValue = "0.4",
                description = "When the fault hits, as a fraction of the " + "load. Default: ${DEFAULT-VALUE}.")
        double faultAt;

        @Option(
                names = "--downtime",
                defaultValue = "PT1S",
                description =
                        "How long the killed service or stopped " + "broker stays down. Default: ${DEFAULT-VALUE}.")
        Duration downtime;

        @Option(
                names = "--poison-fraction",
                defaultValue = "0.01",
                description = "poison: undecodable records per " + "good record. Default: ${DEFAULT-VALUE}.")
        double poisonFraction;

        @Option(
                names = "--sample-interval",
                defaultValue = "PT5S",
                description = "soak: time between samples of " + "/metrics, heap and RSS. Default: ${DEFAULT-VALUE}.")
        Duration sampleInterval;

        @Option(
                names = "--ready-timeout",
                defaultValue = "PT180S",
                description = "Longest wait for a service instance " + "to be RUNNING. Default: ${DEFAULT-VALUE}.")
        Duration readyTimeout;

        @Option(
                names = "--instances",
                defaultValue = "3",
                paramLabel = "N",
                description = "scale-out: 1 -> N; scale-in: N -> 1; rolling-restart and instance-kill: N instances."
                        + " At least 2. Default: ${DEFAULT-VALUE}.")
        int instances;

        @Option(
                names = "--group-protocol",
                defaultValue = "classic",
                paramLabel = "classic|streams",
                description = "The service's group.protocol: classic (the client-side assignor) or streams (KIP-1071:"
                        + " the broker assigns the tasks; the runner sets the streams group's standby replicas,"
                        + " session timeout and heartbeat interval to the client-side values). Default:"
                        + " ${DEFAULT-VALUE}.")
        String groupProtocol;

        @Option(
                names = "--standby-replicas",
                paramLabel = "N",
                description = "Standby replicas per task (num.standby.replicas under classic, the group's"
                        + " streams.num.standby.replicas under streams). Default: the real-time trigger's, 1.")
        Integer standbyReplicas;

        @Option(
                names = "--static-membership",
                description = "Give each instance its own group.instance.id (static membership: an instance that"
                        + " restarts within the session timeout gets its tasks back without a rebalance).")
        boolean staticMembership;

        @Option(
                names = "--session-timeout",
                paramLabel = "DURATION",
                description = "The members' session timeout (session.timeout.ms under classic, the group's"
                        + " streams.session.timeout.ms under streams). Default: the real-time trigger's, PT6S.")
        Duration sessionTimeout;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            Scenario sc = Scenario.parse(scenario);
            positive("--checkpoint-interval", checkpointInterval);
            positive("--correlation-window", correlationWindow);
            if (downtime.isNegative()) {
                throw new IllegalArgumentException("--downtime must not be negative: " + downtime);
            }
            positive("--sample-interval", sampleInterval);
            KafkaClientSettings.Builder kafka = KafkaClientSettings.builder();
            if (kafkaConfig != null) {
                kafka.file(kafkaConfig, "");
            }
            KafkaClientSettings kafkaClient = kafka.environment(System::getenv).build();
            List<String> jvm = appJvmOptions != null ? appJvmOptions : new ArrayList<>(List.of("-Xmx1g"));
            List<String> brokerJvm = brokerJvmOptions != null ? brokerJvmOptions : List.of("-Xmx768m");
            ScenarioRunner.Settings settings = new ScenarioRunner.Settings(
                    sc,
                    duration.duration(),
                    rate.rate(),
                    reportDir,
                    Optional.ofNullable(bootstrapServers),
                    exactlyOnce,
                    appJar,
                    partitions,
                    checkpointInterval,
                    correlationWindow,
                    seed.seed(),
                    drain,
                    jvm,
                    brokerJvm,
                    sampleInterval,
                    faultAt,
                    downtime,
                    poisonFraction,
                    readyTimeout,
                    Optional.ofNullable(kafkaConfig),
                    kafkaClient,
                    System.out,
                    new GroupSettings(
                            instances,
                            groupProtocol,
                            standbyReplicas == null ? OptionalInt.empty() : OptionalInt.of(standbyReplicas),
                            staticMembership,
                            Optional.ofNullable(sessionTimeout)),
                    brokers);
            return new ScenarioRunner(settings).run().passed() ? 0 : 1;
        }

        private static void positive(String option, Duration value) {
            if (value.isNegative() || value.isZero()) {
                throw new IllegalArgumentException(option + " must be positive: " + value);
            }
        }
    }
}
