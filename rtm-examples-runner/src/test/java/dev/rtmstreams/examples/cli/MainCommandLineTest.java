package dev.rtmstreams.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class MainCommandLineTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        return Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
    }

    @Test
    void shouldListEveryExampleOfThePageWhenAskedForTheList() {
        assertThat(run("list")).isZero();
        assertThat(out.toString())
                .contains(
                        "stateless",
                        "repartition",
                        "stream-static-join",
                        "union ",
                        "dedup",
                        "aggregation",
                        "union-aggregation",
                        "tws-counter",
                        "rate",
                        "Kinesis");
    }

    @Test
    void shouldDescribeTheSharedOptionsWhenAskedForAnExamplesHelp() {
        assertThat(run("stateless", "--help")).isZero();
        assertThat(out.toString())
                .contains("--trigger", "--rate", "--duration", "--bootstrap-servers", "--source", "--partitions");
        assertThat(run("repartition", "--help")).isZero();
        assertThat(out.toString()).contains("--shuffle-partitions");
    }

    @Test
    void shouldRejectAnUnknownTriggerNamingTheValue() {
        assertThat(run("stateless", "--trigger", "continuous")).isEqualTo(2);
        assertThat(err.toString()).contains("--trigger").contains("continuous");
    }

    @Test
    void shouldRejectABadDurationNamingTheOption() {
        assertThat(run("dedup", "--duration", "30 seconds")).isEqualTo(2);
        assertThat(err.toString()).contains("--duration").contains("30 seconds");
    }

    @Test
    void shouldAcceptDurationsWithAUnitAsWellAsIsoWhenParsingEveryDurationOption() {
        // every duration parses; the run then stops at --serve without --source kafka, which is checked after them
        assertThat(run(
                        "dedup",
                        "--duration",
                        "30s",
                        "--warmup",
                        "500ms",
                        "--drain",
                        "PT2S",
                        "--checkpoint-interval",
                        "1m",
                        "--micro-batch-interval",
                        "0",
                        "--ttl",
                        "1h",
                        "--serve"))
                .isEqualTo(2);
        assertThat(err.toString()).contains("--serve needs --source kafka").doesNotContain("duration like");
    }

    @Test
    void shouldRejectAZeroDurationOrTtlNamingTheOptionAndTheValue() {
        assertThat(run("dedup", "--duration", "0s")).isEqualTo(2);
        assertThat(err.toString())
                .contains("--duration")
                .contains("must be positive")
                .contains("PT0S");
        assertThat(run("dedup", "--ttl", "0")).isEqualTo(2);
        assertThat(err.toString()).contains("'--ttl': must be positive: 'PT0S'");
    }

    @Test
    void shouldRejectANegativeDurationNamingTheOptionAndTheValue() {
        assertThat(run("stateless", "--warmup", "PT-1S")).isEqualTo(2);
        assertThat(err.toString())
                .contains("--warmup")
                .contains("must not be negative")
                .contains("PT-1S");
    }

    @Test
    void shouldRequireABrokerWhenReadingExistingTopics() {
        assertThat(run("union", "--source", "kafka", "--input-topic", "a")).isEqualTo(2);
        assertThat(err.toString()).contains("--bootstrap-servers");
        assertThat(run(
                        "union",
                        "--source",
                        "kafka",
                        "--bootstrap-servers",
                        "localhost:1",
                        "--input-topic",
                        "a",
                        "--output-topic",
                        "b"))
                .isEqualTo(2);
        assertThat(err.toString()).contains("needs 2 --input-topic");
    }

    @Test
    void shouldRejectServeWithoutTheKafkaSourceOrWithTwoTriggersNamingTheValues() {
        assertThat(run("stateless", "--serve")).isEqualTo(2);
        assertThat(err.toString()).contains("--serve").contains("--source rate");
        assertThat(run(
                        "stateless",
                        "--serve",
                        "--source",
                        "kafka",
                        "--bootstrap-servers",
                        "localhost:1",
                        "--input-topic",
                        "a",
                        "--output-topic",
                        "b",
                        "--trigger",
                        "real-time,micro-batch"))
                .isEqualTo(2);
        assertThat(err.toString()).contains("--trigger real-time,micro-batch");
    }

    @Test
    void shouldFailWithUsageWhenNoCommandIsGiven() {
        assertThat(run()).isEqualTo(2);
        assertThat(err.toString()).contains("Missing command");
    }
}
