package dev.rtmstreams.reliability.internals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rtmstreams.tools.ReportJson;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class ChaosReportTest {

    @ParameterizedTest
    @EnumSource(Scenario.class)
    void shouldWriteTheGoldenFieldNamesInOrderWhenSerialized(Scenario scenario, @TempDir Path dir) throws Exception {
        for (boolean ownBroker : List.of(true, false)) {
            Path file = dir.resolve("chaos-" + scenario.cliName() + ".json");
            SyntheticReports.report(scenario, ownBroker).write(file);

            JsonNode written = ReportJson.readTree(file);
            List<String> paths = ReportFieldNames.paths(written).stream()
                    .filter(p -> !p.startsWith("machine."))
                    .toList();
            List<String> golden = ReportFieldNames.of(scenario.cliName(), ownBroker).stream()
                    .filter(p -> !p.startsWith("machine."))
                    .toList();
            assertThat(paths).as("%s, own broker %s", scenario, ownBroker).containsExactlyElementsOf(golden);
            assertThat(ReportFieldNames.paths(written)).contains("machine.cores", "machine.load_average_at_start");
        }
    }

    @ParameterizedTest
    @EnumSource(Scenario.class)
    void shouldReadBackWhatItWroteWhenReadTyped(Scenario scenario, @TempDir Path dir) throws Exception {
        for (boolean ownBroker : List.of(true, false)) {
            ChaosReport report = SyntheticReports.report(scenario, ownBroker);
            Path file = dir.resolve("chaos-" + scenario.cliName() + ".json");
            report.write(file);

            ChaosReport read = ChaosReport.read(file);

            String as = scenario + ", own broker " + ownBroker;
            assertThat(ReportJson.toJson(read))
                    .as(as)
                    .isEqualTo(Files.readString(file).strip());
            assertThat(read.sections()).as(as).isEqualTo(report.sections());
            assertThat(
                            read.fault().injected() == null
                                    ? null
                                    : read.fault().injected().getClass())
                    .as(as)
                    .isEqualTo(
                            report.fault().injected() == null
                                    ? null
                                    : report.fault().injected().getClass());
            assertThat(read.fault().timersDue()).as(as).isEqualTo(report.fault().timersDue());
            assertThat(read.failures()).as(as).isEqualTo(report.failures());
        }
    }

    @Test
    void shouldReadEveryCommittedReportTypedWhenGivenWhatTheRunnerWrote() throws Exception {
        List<Path> reports;
        try (Stream<Path> files = Files.walk(Path.of("results"))) {
            reports = files.filter(p -> p.getFileName().toString().endsWith(".json"))
                    .filter(p -> readTree(p).has("scenario"))
                    .sorted()
                    .toList();
        }
        assertThat(reports).hasSizeGreaterThanOrEqualTo(8);
        for (Path file : reports) {
            JsonNode json = ReportJson.readTree(file);

            ChaosReport read = ChaosReport.read(file);

            assertThat(read.scenario())
                    .as("%s", file)
                    .isEqualTo(json.get("scenario").asText());
            assertThat(read.verdict())
                    .as("%s", file)
                    .isEqualTo(json.get("verdict").asText());
            assertThat(read.failures())
                    .as("%s", file)
                    .hasSize(json.get("failures").size());
            assertThat(read.oracle().missing())
                    .as("%s", file)
                    .isEqualTo(json.get("oracle").get("missing").asLong());
            JsonNode kind = json.get("fault").get("kind");
            if (kind == null) {
                assertThat(read.fault().injected()).as("%s", file).isNull();
            } else {
                assertThat(read.fault().injected().kind()).as("%s", file).isEqualTo(kind.asText());
                assertThat(read.fault().recoveryMs())
                        .as("%s", file)
                        .isEqualTo(json.get("fault").get("recovery_ms").asLong());
            }
        }
    }

    private static JsonNode readTree(Path file) {
        try {
            return ReportJson.readTree(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void shouldRefuseAFaultOfUnknownKindWhenReadBack(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("chaos-service-crash.json");
        SyntheticReports.report(Scenario.SERVICE_CRASH, false).write(file);
        ObjectNode json = (ObjectNode) ReportJson.readTree(file);
        ((ObjectNode) json.get("fault")).remove("fault_to_restart_ms");
        Files.writeString(file, ReportJson.toJson(json));

        assertThatThrownBy(() -> ChaosReport.read(file))
                .hasRootCauseInstanceOf(IllegalArgumentException.class)
                .rootCause()
                .hasMessageContaining("a fault of unknown kind");
    }

    @Test
    void shouldWriteAnEmptyFaultObjectWhenTheScenarioHasNoFault(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("chaos-poison.json");
        SyntheticReports.report(Scenario.POISON, false).write(file);

        assertThat(ReportJson.readTree(file).get("fault").size()).isZero();
    }

    /**
     * The summary as the runner printed it from its report held as a map (before the report was typed), for these
     * figures with one failure: {@code src/test/resources/chaos-summaries/<scenario>.txt}, the report file named
     * {@code /REPORT/chaos-<scenario>.json}. Printed from the report as built and from the report read back typed.
     */
    @ParameterizedTest
    @EnumSource(Scenario.class)
    void shouldPrintTheSummaryTheMapReportPrintedWhenGivenTheSameFigures(Scenario scenario, @TempDir Path dir)
            throws Exception {
        ChaosReport report = SyntheticReports.report(scenario, false);
        report = withFailures(report, List.of("3 expected outputs missing (oracle)"));
        Path file = dir.resolve("chaos-" + scenario.cliName() + ".json");
        report.write(file);
        Path named = Path.of("/REPORT", "chaos-" + scenario.cliName() + ".json");
        String golden = Files.readString(Path.of("src/test/resources/chaos-summaries", scenario.cliName() + ".txt"));

        assertThat(printed(report, named)).isEqualTo(golden);
        assertThat(printed(ChaosReport.read(file), named)).isEqualTo(golden);
    }

    private static String printed(ChaosReport report, Path json) {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        report.print(new PrintStream(printed, true, StandardCharsets.UTF_8), json);
        return printed.toString(StandardCharsets.UTF_8);
    }

    @Test
    void shouldPrintSectionsAsFieldEqualsValueWhenAScenarioRecordedThem(@TempDir Path dir) {
        ChaosReport report = SyntheticReports.report(Scenario.PENDING_TIMERS, false);
        ByteArrayOutputStream printed = new ByteArrayOutputStream();

        report.print(new PrintStream(printed, true, StandardCharsets.UTF_8), dir.resolve("r.json"));

        assertThat(printed.toString(StandardCharsets.UTF_8))
                .startsWith("chaos pending-timers (exactly-once): PASS\n"
                        + "  load      : 60000 events sent at 999.991/s (target 1000/s, kept up: true)\n"
                        + "  oracle    : expected 10821, observed 10821, missing 0, duplicates 0, unexpected 0\n"
                        + "  fault     : kill -9 of the service JVM (pid 4242) at 24.048s\n"
                        + "  recovery  : 1500 ms until outputs flowed again on every partition"
                        + " (longest output gap 2100 ms)\n"
                        + "  straddling_matches: {sent_before_kill=requests 3, impressions 3,"
                        + " sent_while_down=acks 3, clicks 3, expected_outputs=6, observed_outputs=6}\n"
                        + "  pending_timers: {transactions=3, late_acks_matched_after_expiry=0,"
                        + " control_second_ack_matched=true}\n"
                        + "  report    : ");
    }

    @Test
    void shouldReadTheLoadRunsFiguresAndIgnoreTheRestWhenGivenItsReport(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("report-poison.json");
        Files.writeString(
                file,
                "{\"mode\":\"poison\",\"target_rate\":1000.0,\"events_sent\":60000,\"achieved_rate\":1000.0,"
                        + "\"send_errors\":0,\"kept_up\":false,\"expected\":10821,\"observed\":10822,"
                        + "\"matched\":10821,\"missing\":0,\"duplicates\":1,\"unexpected\":0,\"mismatched\":0,"
                        + "\"drain_ms\":2492,\"latency_ms\":{\"p50\":345.855,\"count\":10821},"
                        + "\"samples\":{\"missing\":[],\"duplicates\":[\"LOG_RECORD x\"]},\"cost\":{\"cpu\":1}}");

        LoadOracle o = LoadOracle.read(file);

        assertThat(o.eventsSent()).isEqualTo(60_000L);
        assertThat(o.keptUp()).isFalse();
        assertThat(o.duplicates()).isEqualTo(1L);
        assertThat(o.latencyMs().get("p50").asDouble()).isEqualTo(345.855);
        assertThat(o.samples().get("duplicates").get(0).asText()).isEqualTo("LOG_RECORD x");
        assertThat(o.reportFile()).isEqualTo(file.toString());
        JsonNode written = ReportJson.convert(o, JsonNode.class);
        assertThat(written.get("achieved_rate").isDouble()).isTrue();
        assertThat(written.has("cost")).isFalse();
    }

    @Test
    void shouldWriteNullWhenTheLoadRunLeftAFigureOut(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("report-soak.json");
        Files.writeString(file, "{\"events_sent\":5,\"missing\":0}");

        JsonNode written = ReportJson.convert(LoadOracle.read(file), JsonNode.class);

        assertThat(written.get("expected").isNull()).isTrue();
        assertThat(written.get("latency_ms").isNull()).isTrue();
        assertThat(written.get("events_sent").asLong()).isEqualTo(5);
    }

    private static ChaosReport withFailures(ChaosReport r, List<String> failures) {
        return new ChaosReport(
                r.scenario(),
                r.runId(),
                r.exactlyOnce(),
                r.targetRate(),
                r.durationS(),
                r.partitions(),
                r.checkpointInterval(),
                r.correlationWindow(),
                r.topicPrefix(),
                r.startedAt(),
                r.machine(),
                r.broker(),
                r.firstStartToRunningMs(),
                r.fault(),
                r.sections(),
                r.longestOutputGapWholeRunMs(),
                r.oracle(),
                r.zeroDuplicatesRequired(),
                r.serviceAliveAtEnd(),
                r.serviceHealthAtEnd(),
                r.loadAverageAtEnd(),
                ChaosReport.FAIL,
                failures);
    }
}
