package dev.rtmstreams.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.testkit.EmbeddedKafkaCluster;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every example of the command line, a few seconds under each trigger, on one embedded broker. Two examples run at a
 * time: a run mostly waits (start, rebalance, drain) at 200 rows/s, and each has its own topics and application id.
 */
class ExamplesIT {

    private static EmbeddedKafkaCluster kafka;

    @BeforeAll
    static void startBroker() {
        kafka = EmbeddedKafkaCluster.builder().build().start();
    }

    @AfterAll
    static void stopBroker() {
        kafka.close();
    }

    @ParameterizedTest
    @Execution(ExecutionMode.CONCURRENT)
    @ValueSource(
            strings = {
                "stateless",
                "repartition",
                "stream-static-join",
                "stream-static-join --table topic",
                "union",
                "dedup",
                "aggregation",
                "union-aggregation",
                "tws-counter",
                "rate --rate 20",
                "foreach-sink"
            })
    void shouldRunAndReportOutputsUnderBothTriggersWhenRunForAFewSeconds(String command) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String[] args = (command
                        + " --bootstrap-servers " + kafka.bootstrapServers()
                        + " --duration PT1S --warmup PT0.2S --drain PT1S --micro-batch-interval PT0.3S"
                        + " --checkpoint-interval PT1S"
                        + (command.startsWith("rate") ? "" : " --rate 200"))
                .split(" ");

        int exit = Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));

        assertThat(exit).as(out + "\n" + err).isZero();
        List<String> rows =
                out.toString().lines().filter(l -> l.startsWith("Trigger.")).toList();
        assertThat(rows).as(out.toString()).hasSize(2);
        for (String row : rows) {
            String[] cols = row.trim().split("\\s+");
            long inputs = Long.parseLong(cols[1]);
            long outputs = Long.parseLong(cols[2]);
            assertThat(inputs).as(row).isPositive();
            assertThat(outputs).as(row).isPositive().isLessThanOrEqualTo(inputs);
        }
    }
}
