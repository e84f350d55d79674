package dev.rtmstreams.tools;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Objects;

/**
 * The one JSON mapper of the tools' reports (the load generator's run, bench and find-max reports, the demo's report,
 * the chaos runner's report): indented JSON, records by their component names (or their {@code @JsonProperty}
 * names), maps by their keys in iteration order.
 *
 * <pre>{@code
 * ReportJson.write(dir.resolve("find-max.json"), report);
 * }</pre>
 */
public final class ReportJson {

    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private ReportJson() {}

    /**
     * Returns a report as indented JSON.
     *
     * @param report a record, map or list; not null
     * @return its JSON text, without a final line break
     * @throws IllegalArgumentException naming the report's type when it cannot be written as JSON
     */
    public static String toJson(Object report) {
        Objects.requireNonNull(report, "report");
        try {
            return MAPPER.writeValueAsString(report);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(
                    "cannot write a " + report.getClass().getName() + " as JSON: " + e.getOriginalMessage(), e);
        }
    }

    /**
     * Writes a report as indented JSON, replacing the file.
     *
     * @param file the file; its directory must exist
     * @param report a record, map or list; not null
     * @throws IOException when the file cannot be written
     */
    public static void write(Path file, Object report) throws IOException {
        MAPPER.writeValue(file.toFile(), Objects.requireNonNull(report, "report"));
    }

    /**
     * Reads a report written by {@link #write}.
     *
     * @param file the file
     * @param type the report's type (a record, or {@code Map.class})
     * @param <T> the report's type
     * @return the report
     * @throws IOException when the file cannot be read or does not hold a {@code type}
     */
    public static <T> T read(Path file, Class<T> type) throws IOException {
        return MAPPER.readValue(file.toFile(), type);
    }

    /**
     * Reads a report's JSON as a tree (to pick a few fields of a report whose type lives elsewhere).
     *
     * @param file the file
     * @return its root node
     * @throws IOException when the file cannot be read or is not JSON
     */
    public static JsonNode readTree(Path file) throws IOException {
        return MAPPER.readTree(file.toFile());
    }

    /**
     * Converts a report to another form through its JSON (a record to a {@code Map}, for one).
     *
     * @param report the report; may be null
     * @param type the form wanted
     * @param <T> the form wanted
     * @return the converted report, null for null
     * @throws IllegalArgumentException when the report does not convert
     */
    public static <T> T convert(Object report, Class<T> type) {
        return MAPPER.convertValue(report, type);
    }
}
