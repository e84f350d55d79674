package dev.rtmstreams.loadgen.internals;

import dev.rtmstreams.adattribution.workload.TopicNames;
import dev.rtmstreams.tools.ChildJvm;
import dev.rtmstreams.tools.Ports;
import dev.rtmstreams.tools.Readiness;
import dev.rtmstreams.tools.ServiceJar;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The bench's systems under test in a child JVM ({@link ChildJvm}s, started and not yet ready): the ad-attribution
 * service (adattribution-app), a benchmark peer, or an rtm-examples program. Each child's stdout and stderr go to a
 * log file; {@link ChildJvm#close()} stops it with SIGTERM (then SIGKILL after 30 s).
 */
public final class ServiceProcess {

    /** Printed by {@code load-generator peer} once its pipeline runs. */
    static final String PEER_READY = "PEER READY";
    /** Printed by an rtm-examples program with {@code --serve} once it runs. */
    static final String EXAMPLE_READY = "EXAMPLE READY";

    private static final String AVRO_PACKAGES = "-Dorg.apache.avro.SERIALIZABLE_PACKAGES=dev.rtmstreams";

    private ServiceProcess() {}

    /**
     * Starts the service from its fat jar with its command line, as an operator would ({@link ServiceJar#run}, plus
     * {@code --trigger T --create-topics ...}); ready when {@code GET /health} answers 200 with state RUNNING.
     *
     * @param name the label in log and error messages
     * @param appJar the service's fat jar
     * @param bootstrapServers the cluster
     * @param trigger real-time or micro-batch
     * @param applicationId a unique application id
     * @param stateDir the state directory
     * @param logFile where the child's stdout and stderr go
     * @param jvmOptions extra JVM options (e.g. -Xmx1g)
     * @param extraArgs extra arguments after {@code run} (e.g. --checkpoint-interval PT5M), without --http-port
     * @return the started child
     * @throws IllegalArgumentException if the jar does not exist
     * @throws java.io.UncheckedIOException if the process cannot be started
     */
    public static ChildJvm startService(
            String name,
            Path appJar,
            String bootstrapServers,
            String trigger,
            String applicationId,
            Path stateDir,
            Path logFile,
            List<String> jvmOptions,
            List<String> extraArgs) {
        int httpPort = Ports.freePort();
        List<String> args = new ArrayList<>(List.of("--trigger", trigger, "--create-topics"));
        args.addAll(extraArgs);
        return ServiceJar.run(appJar, bootstrapServers, applicationId, stateDir, httpPort)
                .name(name)
                .jvmOptions(jvmOptions)
                .args(args)
                .logFile(logFile)
                .build()
                .start();
    }

    /**
     * The arguments of the service's {@code run} command that the load generator sets: {@code --num-stream-threads},
     * the topic names, then {@code extraArgs} and {@code modeArgs}, then the attribution window and watermark delay
     * the oracle checks with.
     *
     * @param streamThreads stream threads (slots) of an instance
     * @param topics the run's topics
     * @param window the attribution window
     * @param watermarkDelay the watermark delay
     * @param extraArgs the user's extra arguments ({@code --app-arg})
     * @param modeArgs what a mode adds (a variant's arguments, {@code --processing-guarantee ...})
     * @return the arguments, for {@link #startService}
     */
    public static List<String> serviceArgs(
            int streamThreads,
            TopicNames topics,
            Duration window,
            Duration watermarkDelay,
            List<String> extraArgs,
            List<String> modeArgs) {
        List<String> args = new ArrayList<>(List.of("--num-stream-threads", Integer.toString(streamThreads)));
        args.addAll(topics.serviceTopics().serviceArgs());
        args.addAll(extraArgs);
        args.addAll(modeArgs);
        args.addAll(List.of("--attribution-window", window.toString(), "--watermark-delay", watermarkDelay.toString()));
        return args;
    }

    /**
     * Starts this JVM's load generator main class ({@code peer ...}) in a child JVM with the same class path; ready
     * when it prints {@value #PEER_READY}.
     *
     * @param name the label in log and error messages
     * @param jvmOptions JVM options
     * @param args arguments of the load generator
     * @param logFile where the child's stdout and stderr go
     * @return the started child
     * @throws java.io.UncheckedIOException if the process cannot be started
     */
    public static ChildJvm startPeer(String name, List<String> jvmOptions, List<String> args, Path logFile) {
        return child(name, jvmOptions, args, logFile)
                .mainClass("dev.rtmstreams.loadgen.LoadGenerator")
                .readiness(Readiness.outputLine(PEER_READY))
                .build()
                .start();
    }

    /**
     * Starts an rtm-examples program with {@code --serve} from its fat jar; ready when it prints
     * {@value #EXAMPLE_READY}.
     *
     * @param name the label in log and error messages
     * @param examplesJar the rtm-examples fat jar
     * @param jvmOptions JVM options
     * @param args arguments after {@code -jar JAR}
     * @param logFile where the child's stdout and stderr go
     * @return the started child
     * @throws IllegalArgumentException if the jar does not exist
     * @throws java.io.UncheckedIOException if the process cannot be started
     */
    public static ChildJvm startExample(
            String name, Path examplesJar, List<String> jvmOptions, List<String> args, Path logFile) {
        return child(name, jvmOptions, args, logFile)
                .jar(examplesJar)
                .readiness(Readiness.outputLine(EXAMPLE_READY))
                .build()
                .start();
    }

    private static ChildJvm.Builder child(String name, List<String> jvmOptions, List<String> args, Path logFile) {
        return ChildJvm.builder()
                .name(name)
                .jvmOption(AVRO_PACKAGES)
                .jvmOptions(jvmOptions)
                .args(args)
                .logFile(logFile);
    }
}
