package dev.rtmstreams.loadgen.internals;

import dev.rtmstreams.tools.ChildJvm;
import dev.rtmstreams.tools.Readiness;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The bench's Apache Spark peers: modes {@value #REAL_TIME} and {@value #MICRO_BATCH} run a published latency
 * workload's query on Spark in local mode, in a child JVM started from module load-generator-spark's build (its jar
 * and {@code spark-classpath.txt}), so Spark's Scala, Jackson and Kafka client never meet this JVM's class path.
 */
final class SparkPeers {

    /** Apache Spark, {@code Trigger.RealTime}: stateless and stream-static join (Spark 4.2). */
    static final String REAL_TIME = "spark-real-time";
    /** Apache Spark, {@code Trigger.ProcessingTime("0 seconds")}: every published workload. */
    static final String MICRO_BATCH = "spark-micro-batch";

    /** The Spark modes, in order. */
    static final List<String> MODES = List.of(REAL_TIME, MICRO_BATCH);

    /** Where the load-generator-spark build puts its jar and class path, relative to the working directory. */
    static final Path DEFAULT_DIR = Path.of("load-generator-spark", "target");

    private static final String JAR = "load-generator-spark.jar";
    private static final String CLASSPATH = "spark-classpath.txt";
    private static final String MAIN = "dev.rtmstreams.bench.spark.SparkPeer";

    private SparkPeers() {}

    /**
     * @param mode a mode
     * @return whether Spark runs it
     */
    static boolean isSpark(String mode) {
        return MODES.contains(mode);
    }

    /**
     * @param workload a workload
     * @param mode a Spark mode
     * @return whether Spark 4.2 runs that workload in that mode (its real-time mode runs stateless queries and
     *     stream-static joins only)
     */
    static boolean runs(BenchWorkload workload, String mode) {
        return workload.isPublished() && !(mode.equals(REAL_TIME) && workload == BenchWorkload.AGGREGATION);
    }

    /**
     * Fails when the Spark peer's build is missing from {@code dir}.
     *
     * @param dir load-generator-spark's target directory
     * @throws IllegalArgumentException naming the missing file and the command that builds it
     */
    static void requireBuild(Path dir) {
        for (String f : List.of(JAR, CLASSPATH)) {
            if (!Files.isRegularFile(dir.resolve(f))) {
                throw new IllegalArgumentException(
                        "the Spark peer's build is missing: " + dir.resolve(f).toAbsolutePath()
                                + " (build it with: mvn -B -f load-generator-spark/pom.xml package, or"
                                + " pass --spark-dir)");
            }
        }
    }

    /**
     * Starts the Spark peer of a mode; ready when it prints {@link ServiceProcess#PEER_READY}.
     *
     * @param o the options (workload, Spark build, JVM options, report directory for the checkpoint and log)
     * @param mode {@value #REAL_TIME} or {@value #MICRO_BATCH}
     * @param bootstrap the cluster
     * @param rowTopics the run's topics
     * @return the started child
     * @throws IOException when the class-path file cannot be read, or the static table or the checkpoint directory
     *     cannot be written
     */
    static ChildJvm start(BenchOptions o, String mode, String bootstrap, LatencyWorkload.Topics rowTopics)
            throws IOException {
        Path dir = o.sparkDir(); // present: Bench checked it with requireBuild before any broker started
        String classpath = dir.resolve(JAR).toAbsolutePath()
                + java.io.File.pathSeparator
                + Files.readString(dir.resolve(CLASSPATH), StandardCharsets.UTF_8)
                        .trim();
        Path checkpoint = Files.createDirectories(o.reportDir().resolve("spark-checkpoint-" + mode));
        List<String> args = new ArrayList<>(List.of(
                "--workload",
                o.benchWorkload().cliName(),
                "--trigger",
                mode.equals(REAL_TIME) ? "real-time" : "micro-batch",
                "--bootstrap-servers",
                bootstrap,
                "--input-topic",
                rowTopics.input(),
                "--output-topic",
                rowTopics.output(),
                "--checkpoint-dir",
                checkpoint.toAbsolutePath().toString(),
                "--cores",
                Integer.toString(o.streamThreads())));
        if (o.benchWorkload() == BenchWorkload.STREAM_STATIC_JOIN) {
            args.addAll(List.of("--table-file", SystemUnderTest.staticTable(o)));
        }
        return ChildJvm.builder()
                .name("Spark (" + mode + ")")
                .jvmOptions(o.appJvmOptions())
                .classpath(classpath)
                .mainClass(MAIN)
                .args(args)
                .argFile(o.reportDir().resolve("spark-" + mode + ".args"))
                .logFile(o.reportDir().resolve("spark-" + mode + ".log"))
                .readiness(Readiness.outputLine(ServiceProcess.PEER_READY))
                .build()
                .start();
    }
}
