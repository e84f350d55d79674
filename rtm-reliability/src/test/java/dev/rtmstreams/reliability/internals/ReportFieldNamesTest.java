package dev.rtmstreams.reliability.internals;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The golden field names of {@link ReportFieldNames} against the reports in {@code rtm-reliability/results/}, which the
 * runner wrote before its report was typed: every field of those reports is a golden field of its scenario, in the
 * golden order (older reports lack fields added since, such as {@code fault.downtime_ms}).
 */
class ReportFieldNamesTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void shouldFindEveryFieldOfTheCommittedReportsAmongTheGoldenFieldsInOrderWhenReadBack() throws Exception {
        List<Path> reports;
        try (Stream<Path> files = Files.list(Path.of("results"))) {
            reports = files.filter(p -> p.getFileName().toString().endsWith(".json"))
                    .sorted()
                    .toList();
        }
        assertThat(reports).hasSizeGreaterThanOrEqualTo(8);
        for (Path report : reports) {
            JsonNode r = JSON.readTree(report.toFile());
            List<String> golden = ReportFieldNames.of(r.get("scenario").asText(), r.has("broker"));
            List<String> paths = ReportFieldNames.paths(r).stream()
                    .filter(p -> !p.startsWith("machine."))
                    .toList();

            assertThat(golden).as("golden fields of %s", report).containsSubsequence(paths);
            assertThat(ReportFieldNames.paths(r))
                    .as("machine of %s", report)
                    .contains("machine.cores", "machine.load_average_at_start");
        }
    }
}
