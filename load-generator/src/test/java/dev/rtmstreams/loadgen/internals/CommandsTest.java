package dev.rtmstreams.loadgen.internals;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class CommandsTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cl = Commands.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args);
    }

    @Test
    void shouldPrintHelpWhenAnyCommandIsAskedForHelp() {
        for (String command : new String[] {"run", "record", "replay", "bench"}) {
            assertThat(run(command, "--help")).as(command).isZero();
            assertThat(out.toString()).contains("Usage: load-generator " + command);
        }
        assertThat(out.toString())
                .contains(
                        "--bootstrap-servers", "--rate", "--duration", "--report-dir", "--speed", "--modes", "--file");
        assertThat(out.toString())
                .contains(
                        "--variant=LABEL=JAR",
                        "--variant-arg=LABEL=ARG",
                        "--find-max",
                        "--find-max-start",
                        "--find-max-factor",
                        "--find-max-limit",
                        "--find-max-resolution",
                        "micro-batch-asap",
                        "Default: 5000",
                        "Default: 1.5",
                        "Default: 60000",
                        "10% of the pass rate");
        // bench's help names every peer and what it stands for (picocli wraps lines: compare words)
        assertThat(out.toString().replaceAll("\\s+", " "))
                .contains(
                        "kafka-streams-join-tuned",
                        "kafka-streams-passthrough",
                        "what you get by switching",
                        "what the engine adds",
                        "the Kafka Streams floor");
    }

    @Test
    void shouldOfferWireFormatAndExitTwoNamingTheBadValueWhenItIsWrong(@TempDir Path dir) {
        assertThat(run("run", "--help")).isZero();
        assertThat(out.toString()).contains("--wire-format", "--schema-registry-url", "RTM_SCHEMA_REGISTRY_USER");

        assertThat(run(
                        "run",
                        "--bootstrap-servers",
                        "localhost:1",
                        "--report-dir",
                        dir.toString(),
                        "--wire-format",
                        "confluent"))
                .isEqualTo(2);
        assertThat(err.toString()).contains("--schema-registry-url is required with --wire-format confluent");
        assertThat(run(
                        "run",
                        "--bootstrap-servers",
                        "localhost:1",
                        "--report-dir",
                        dir.toString(),
                        "--wire-format",
                        "avro"))
                .isEqualTo(2);
        assertThat(err.toString()).contains("'avro'");
    }

    @Test
    void shouldExitTwoNamingTheProblemWhenVariantsOrFindMaxSettingsAreInvalid(@TempDir Path dir) {
        assertThat(run("bench", "--report-dir", dir.toString(), "--variant", "new"))
                .isEqualTo(2);
        assertThat(err.toString()).contains("--variant must be LABEL=JAR: 'new'");
        assertThat(run("bench", "--report-dir", dir.toString(), "--variant", "new=" + dir.resolve("missing.jar")))
                .isEqualTo(2);
        assertThat(err.toString()).contains("jar not found").contains("missing.jar");
        assertThat(run("bench", "--report-dir", dir.toString(), "--find-max", "--find-max-factor", "1"))
                .isEqualTo(2);
        assertThat(err.toString()).contains("--find-max-factor must be greater than 1");
        assertThat(run("bench", "--report-dir", dir.toString(), "--modes", "real-time-new"))
                .isEqualTo(2);
        assertThat(err.toString()).contains("unknown mode 'real-time-new'");
    }

    @Test
    void shouldOfferInstancesAndExitTwoNamingBothValuesWhenTheyDoNotFit(@TempDir Path dir) {
        assertThat(run("bench", "--help")).isZero();
        assertThat(out.toString()).contains("--instances=N", "2 per instance");
        assertThat(run("run", "--help")).isZero();
        assertThat(out.toString()).contains("--app-jar=JAR", "--instances=N");

        assertThat(run(
                        "bench",
                        "--report-dir",
                        dir.toString(),
                        "--modes",
                        "real-time",
                        "--instances",
                        "2",
                        "--partitions",
                        "1"))
                .isEqualTo(2);
        assertThat(err.toString()).contains("--partitions 1 is fewer than --instances 2");
        assertThat(run("bench", "--report-dir", dir.toString(), "--instances", "2", "--modes", "echo,real-time"))
                .isEqualTo(2);
        assertThat(err.toString()).contains("modes echo run one JVM each");
        assertThat(run("run", "--bootstrap-servers", "localhost:1", "--report-dir", dir.toString(), "--instances", "2"))
                .isEqualTo(2);
        assertThat(err.toString()).contains("--instances 2 needs --app-jar");
        assertThat(run(
                        "run",
                        "--bootstrap-servers",
                        "localhost:1",
                        "--report-dir",
                        dir.toString(),
                        "--app-jar",
                        dir.resolve("missing.jar").toString()))
                .isEqualTo(2);
        assertThat(err.toString()).contains("service jar not found").contains("missing.jar");
    }

    @Test
    void shouldRefuseInstancesRunCannotStartWhenGivenAnAppJar(@TempDir Path dir) throws Exception {
        Path jar = java.nio.file.Files.createFile(dir.resolve("app.jar"));
        String[] base = {
            "run", "--bootstrap-servers", "localhost:1", "--report-dir", dir.toString(), "--app-jar", jar.toString()
        };

        assertThat(run(concat(base, "--instances", "3", "--partitions", "2"))).isEqualTo(2);
        assertThat(err.toString()).contains("--partitions 2 is fewer than --instances 3");
        assertThat(run(concat(base, "--client-property", "security.protocol=SASL_SSL")))
                .isEqualTo(2);
        assertThat(err.toString()).contains("--app-jar starts the service without Kafka client settings");
        assertThat(run(concat(base, "--trigger", "batch"))).isEqualTo(2);
        assertThat(err.toString()).contains("--trigger must be real-time or micro-batch: batch");
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    @Test
    void shouldExitTwoNamingTheOptionWhenAnOptionIsUnknown() {
        assertThat(run("bench", "--report-dir", "x", "--bogus-option", "1")).isEqualTo(2);
        assertThat(err.toString()).contains("--bogus-option");
    }

    @Test
    void shouldExitTwoNamingTheValueWhenAValueIsInvalid(@TempDir Path dir) {
        assertThat(run("record", "--file", dir.resolve("e.jsonl").toString(), "--rate", "-5"))
                .isEqualTo(2);
        assertThat(err.toString()).contains("rate must be positive: -5");
        assertThat(run("record", "--file", dir.resolve("e.jsonl").toString(), "--click-delay", "gauss:PT1S"))
                .isEqualTo(2);
        assertThat(err.toString()).contains("gauss:PT1S");
        assertThat(run("bench", "--report-dir", dir.toString(), "--modes", "echo,warp-speed"))
                .isEqualTo(2);
        assertThat(err.toString()).contains("warp-speed");
        assertThat(run("record", "--file", dir.resolve("e.jsonl").toString(), "--duration", "ten-seconds"))
                .isEqualTo(2);
        assertThat(err.toString()).contains("--duration");
    }

    @Test
    void shouldAcceptDurationsWithAUnitAsWellAsIsoWhenParsingEveryDurationOption(@TempDir Path dir) {
        // every duration parses; each command then stops at a check that comes after them
        assertThat(run(
                        "run",
                        "--bootstrap-servers",
                        "localhost:1",
                        "--report-dir",
                        dir.toString(),
                        "--duration",
                        "30s",
                        "--drain",
                        "10s",
                        "--attribution-window",
                        "2m",
                        "--watermark-delay",
                        "PT5M",
                        "--partner-send-lag",
                        "500ms",
                        "--wire-format",
                        "confluent"))
                .isEqualTo(2);
        assertThat(err.toString()).contains("--schema-registry-url is required").doesNotContain("Invalid value");
        assertThat(run(
                        "bench",
                        "--report-dir",
                        dir.toString(),
                        "--duration",
                        "1m",
                        "--warmup",
                        "10s",
                        "--drain",
                        "5s",
                        "--ready-timeout",
                        "2m",
                        "--modes",
                        "echo,warp-speed"))
                .isEqualTo(2);
        assertThat(err.toString()).contains("warp-speed").doesNotContain("Invalid value");
        assertThat(run("record", "--file", dir.resolve("e.jsonl").toString(), "--duration", "-5s"))
                .isEqualTo(2);
        assertThat(err.toString()).contains("--duration", "-5s");
    }

    @Test
    void shouldExitTwoNamingTheFileWhenTheKafkaConfigIsMissing(@TempDir Path dir) {
        assertThat(run("run", "--help")).isZero();
        assertThat(out.toString()).contains("--kafka-config", "RTM_KAFKA_SASL_JAAS_CONFIG");
        Path missing = dir.resolve("missing.properties");

        assertThat(run(
                        "run",
                        "--bootstrap-servers",
                        "localhost:1",
                        "--report-dir",
                        dir.toString(),
                        "--kafka-config",
                        missing.toString()))
                .isEqualTo(2);
        assertThat(err.toString()).contains(missing.toString());
    }

    @Test
    void shouldRequireTheBootstrapServersWhenRunning() {
        assertThat(run("run", "--report-dir", "x")).isEqualTo(2);
        assertThat(err.toString()).contains("--bootstrap-servers");
    }

    @Test
    void shouldWriteAReplayableFileWhenRecording(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("events.jsonl.gz");
        assertThat(run("record", "--file", file.toString(), "--rate", "100", "--duration", "PT3S", "--seed", "5"))
                .isZero();
        EventFile.Contents contents = EventFile.read(file);
        assertThat(contents.events()).hasSize(300);
        assertThat(contents.header().workload().seed()).isEqualTo(5L);
        assertThat(contents.header().workload().rate()).isEqualTo(100.0);
        assertThat(contents.header().startTime()).isPresent();
    }
}
