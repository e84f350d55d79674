package dev.rtmstreams.reliability.internals;

import dev.rtmstreams.loadgen.LoadGenerator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The load of a chaos run: the load generator's {@code run} command (its oracle checks every output) in a background
 * thread, in the scenario's mode, on the run's topics and ids; its report is read when it ends.
 */
final class ChaosLoad {

    private static final Logger LOG = LoggerFactory.getLogger(ChaosLoad.class);

    private final ScenarioRunner.Settings s;
    private final Path dir;
    private final Thread thread;
    private volatile int exitCode = -1;

    /**
     * @param s how the run runs
     * @param bootstrap the cluster
     * @param runId the run's id; the load's ids start with it
     * @param topicPrefix the prefix of the run's topics
     */
    ChaosLoad(ScenarioRunner.Settings s, String bootstrap, String runId, String topicPrefix) {
        this.s = s;
        this.dir = s.reportDir().resolve("load-" + s.scenario().cliName());
        List<String> args = new ArrayList<>(List.of(
                "run",
                "--bootstrap-servers",
                bootstrap,
                "--rate",
                Double.toString(s.rate()),
                "--duration",
                s.duration().toString(),
                "--seed",
                Long.toString(s.seed()),
                "--id-prefix",
                runId + "-",
                "--report-dir",
                dir.toString(),
                "--no-progress",
                "--drain",
                s.drain().toString(),
                "--mode",
                s.scenario().cliName(),
                "--topic-prefix",
                topicPrefix));
        s.kafkaConfig().ifPresent(file -> args.addAll(List.of("--kafka-config", file.toString())));
        if (s.replicationFactor() > 1) {
            // replicated inputs: an acknowledged record survives the loss of its leader, a retried one is not
            // written twice
            args.addAll(List.of("--client-property", "acks=all", "--client-property", "enable.idempotence=true"));
        }
        LOG.info("load: load-generator {}", String.join(" ", args));
        thread = new Thread(() -> exitCode = LoadGenerator.execute(args.toArray(String[]::new)), "chaos-load");
    }

    /** @return when it started ({@link System#nanoTime()}) */
    long start() {
        long now = System.nanoTime();
        thread.start();
        return now;
    }

    /**
     * Waits until the load has ended and reads its report.
     *
     * @return the load's oracle
     * @throws Exception when the load wrote no report or it cannot be read
     */
    LoadOracle await() throws Exception {
        thread.join();
        Path json = dir.resolve("report-" + s.scenario().cliName() + ".json");
        if (!Files.isRegularFile(json)) {
            throw new IllegalStateException("the load run wrote no report (exit code " + exitCode + "): " + json);
        }
        return LoadOracle.read(json);
    }
}
