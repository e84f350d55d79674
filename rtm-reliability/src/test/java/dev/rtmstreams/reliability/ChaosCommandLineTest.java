package dev.rtmstreams.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class ChaosCommandLineTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cl = Chaos.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args);
    }

    @Test
    void shouldListEveryScenarioWhenAskedForHelp() {
        assertThat(run("--help")).isZero();
        assertThat(out.toString())
                .contains(
                        "--scenario",
                        "--duration",
                        "--rate",
                        "--report-dir",
                        "--bootstrap-servers",
                        "--exactly-once",
                        "service-crash",
                        "pending-timers",
                        "state-wipe",
                        "broker-restart",
                        "poison",
                        "instance-failover",
                        "soak");
    }

    @Test
    void shouldListTheGroupChangesAndTheirOptionsWhenAskedForHelp() {
        assertThat(run("--help")).isZero();
        assertThat(out.toString())
                .contains(
                        "scale-out",
                        "scale-in",
                        "rolling-restart",
                        "instance-kill",
                        "--instances",
                        "--group-protocol",
                        "--standby-replicas",
                        "--static-membership",
                        "--session-timeout");
    }

    @Test
    void shouldExitTwoNamingTheOptionAndValueWhenAGroupOptionIsInvalid() {
        assertThat(run("--scenario", "scale-out", "--group-protocol", "consumer"))
                .isEqualTo(2);
        assertThat(err.toString()).contains("--group-protocol", "'consumer'");
        assertThat(run("--scenario", "scale-in", "--instances", "1")).isEqualTo(2);
        assertThat(err.toString()).contains("--instances must be at least 2: 1");
        assertThat(run("--scenario", "instance-kill", "--standby-replicas", "-1"))
                .isEqualTo(2);
        assertThat(err.toString()).contains("--standby-replicas must not be negative: -1");
    }

    @Test
    void shouldExitTwoNamingTheValueWhenTheBrokerCountCannotLoseABroker() {
        assertThat(run("--scenario", "service-crash", "--brokers", "2")).isEqualTo(2);
        assertThat(err.toString()).contains("--brokers must be 1 or 3..9", ": 2");
        assertThat(run("--scenario", "service-crash", "--brokers", "3", "--bootstrap-servers", "b:1"))
                .isEqualTo(2);
        assertThat(err.toString()).contains("--bootstrap-servers b:1");
        assertThat(run("--scenario", "broker-restart", "--brokers", "3")).isEqualTo(2);
        assertThat(err.toString()).contains("--brokers 1, not 3");
        assertThat(run("--scenario", "broker-leader-kill")).isEqualTo(2);
        assertThat(err.toString()).contains("--scenario broker-leader-kill", "--brokers 3 (or more), not 1");
    }

    @Test
    void shouldRefuseTooFewPartitionsWhenEveryInstanceOfAGroupChangeMustGetATask() {
        assertThat(run("--scenario", "scale-out", "--instances", "5", "--partitions", "2"))
                .isEqualTo(2);
        assertThat(err.toString()).contains("--partitions", "5 instances");
    }

    @Test
    void shouldExitTwoNamingTheValueWhenTheScenarioIsUnknown() {
        assertThat(run("--scenario", "meteor-strike")).isEqualTo(2);
        assertThat(err.toString()).contains("--scenario", "meteor-strike", "service-crash");
    }

    @Test
    void shouldExitTwoNamingTheOptionWhenAnOptionIsUnknown() {
        assertThat(run("--scenario", "soak", "--rat", "5")).isEqualTo(2);
        assertThat(err.toString()).contains("--rat");
    }

    @Test
    void shouldExitTwoNamingTheOptionWhenAValueDoesNotParse() {
        assertThat(run("--scenario", "soak", "--duration", "ten seconds")).isEqualTo(2);
        assertThat(err.toString()).contains("--duration", "ten seconds");
    }

    @Test
    void shouldAcceptDurationsWithAUnitAsWellAsIsoWhenParsingEveryDurationOption() {
        // every duration parses and passes the checks; the run then stops at --rate 0, which is checked after them
        assertThat(run(
                        "--scenario",
                        "poison",
                        "--duration",
                        "30s",
                        "--checkpoint-interval",
                        "5s",
                        "--correlation-window",
                        "2m",
                        "--drain",
                        "PT1M",
                        "--downtime",
                        "500ms",
                        "--sample-interval",
                        "5",
                        "--ready-timeout",
                        "1h",
                        "--session-timeout",
                        "45s",
                        "--rate",
                        "0"))
                .isEqualTo(2);
        assertThat(err.toString()).contains("--rate must be positive").doesNotContain("Invalid value");
    }

    @Test
    void shouldExitTwoNamingTheOptionAndTheValueWhenADurationIsNegative() {
        assertThat(run("--scenario", "soak", "--downtime", "-PT1S")).isEqualTo(2);
        assertThat(err.toString()).contains("--downtime", "must not be negative", "-PT1S");
    }

    @Test
    void shouldExitTwoWhenTheRateIsNotPositive() {
        assertThat(run("--scenario", "poison", "--rate", "0")).isEqualTo(2);
        assertThat(err.toString()).contains("--rate");
    }

    @Test
    void shouldRefuseAnExternalClusterWhenTheScenarioRestartsTheBroker() {
        assertThat(run("--scenario", "broker-restart", "--bootstrap-servers", "localhost:1"))
                .isEqualTo(2);
        assertThat(err.toString()).contains("--bootstrap-servers", "broker-restart");
    }

    @Test
    void shouldRefuseOnePartitionWhenTwoInstancesMustShareTasks() {
        assertThat(run("--scenario", "instance-failover", "--partitions", "1")).isEqualTo(2);
        assertThat(err.toString()).contains("--partitions");
    }

    @Test
    void shouldExitTwoNamingTheFileOrTheMissingClusterWhenKafkaClientSettingsCannotBeUsed(@TempDir Path dir)
            throws Exception {
        Path missing = dir.resolve("missing.properties");
        assertThat(run("--scenario", "soak", "--kafka-config", missing.toString()))
                .isEqualTo(2);
        assertThat(err.toString()).contains(missing.toString());

        Path config = dir.resolve("client.properties");
        Files.writeString(config, "security.protocol=SASL_SSL\nsasl.jaas.config=secret-jaas-line\n");
        assertThat(run("--scenario", "soak", "--kafka-config", config.toString()))
                .isEqualTo(2);
        assertThat(err.toString())
                .contains("need --bootstrap-servers", "security.protocol", "sasl.jaas.config")
                .doesNotContain("secret-jaas-line");
    }
}
