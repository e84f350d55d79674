package dev.rtmstreams.loadgen.internals;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rtmstreams.adattribution.workload.Event;
import dev.rtmstreams.adattribution.workload.EventKind;
import dev.rtmstreams.adattribution.workload.EventTag;
import dev.rtmstreams.tools.ReportJson;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * The recorded-events file: JSON lines, gzip-compressed when the name ends in {@code .gz}. The
 * first line is the {@link Header} object ({@code "format": "rtm-loadgen-events/1"}, the recorded workload's fields as
 * a run report describes them, {@code start_time} and {@code events}, the number of events); every further line is
 * one event in send order with
 * short keys: {@code s} seq, {@code o} send offset (µs), {@code k} kind (I, C, R, A), {@code id},
 * {@code r} ref, {@code t} event time (epoch ms), {@code u} user, {@code c} campaign, {@code a} ad,
 * {@code p} publisher, {@code b} bid micros, {@code st} status, {@code g} tag.
 */
public final class EventFile {

    /** The format marker of the header line. */
    public static final String FORMAT = "rtm-loadgen-events/1";

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private EventFile() {}

    /**
     * The header line of a file: the format marker, then the workload's fields (snake_case, as in a run report's
     * setting; its {@code events} is the number of events the file holds), then {@code start_time}.
     *
     * @param workload the workload the events were generated from
     * @param startTime the event time of the first slot (epoch ms); empty when the file does not say
     */
    public record Header(RunDescriptions.AttributionWorkload workload, OptionalLong startTime) {

        /** Checks the components. */
        public Header {
            Objects.requireNonNull(workload, "workload");
            Objects.requireNonNull(startTime, "startTime");
        }
    }

    /**
     * A loaded file.
     *
     * @param header the header
     * @param events the events in send order
     */
    public record Contents(Header header, List<Event> events) {}

    /**
     * Writes a file.
     *
     * @param file the target; parent directories are created
     * @param header the header (the format marker is added, and the number of events replaces the workload's)
     * @param events the events in send order
     * @throws IOException on write failure
     */
    public static void write(Path file, Header header, List<Event> events) throws IOException {
        if (file.toAbsolutePath().getParent() != null) {
            Files.createDirectories(file.toAbsolutePath().getParent());
        }
        ObjectNode h = MAPPER.createObjectNode();
        h.put("format", FORMAT);
        h.setAll(ReportJson.convert(header.workload(), ObjectNode.class));
        header.startTime().ifPresent(t -> h.put("start_time", t));
        h.put("events", events.size());
        JsonFactory factory = MAPPER.getFactory();
        try (Writer w = new java.io.BufferedWriter(
                new java.io.OutputStreamWriter(
                        file.toString().endsWith(".gz")
                                ? new GZIPOutputStream(Files.newOutputStream(file), 1 << 16)
                                : Files.newOutputStream(file),
                        StandardCharsets.UTF_8),
                1 << 16)) {
            w.write(MAPPER.writeValueAsString(h));
            w.write('\n');
            JsonGenerator g = factory.createGenerator(w);
            g.setRootValueSeparator(null);
            for (Event e : events) {
                g.writeStartObject();
                g.writeNumberField("s", e.seq());
                g.writeNumberField("o", e.offsetMicros());
                g.writeStringField("k", e.kind().name().substring(0, 1));
                g.writeStringField("id", e.id());
                if (!e.ref().isEmpty()) {
                    g.writeStringField("r", e.ref());
                }
                g.writeNumberField("t", e.eventTime());
                if (!e.userId().isEmpty()) {
                    g.writeStringField("u", e.userId());
                }
                if (!e.campaignId().isEmpty()) {
                    g.writeStringField("c", e.campaignId());
                }
                if (!e.adId().isEmpty()) {
                    g.writeStringField("a", e.adId());
                }
                if (!e.publisherId().isEmpty()) {
                    g.writeStringField("p", e.publisherId());
                }
                if (e.bidMicros() != 0) {
                    g.writeNumberField("b", e.bidMicros());
                }
                if (!e.status().isEmpty()) {
                    g.writeStringField("st", e.status());
                }
                g.writeStringField("g", e.tag().name());
                g.writeEndObject();
                g.writeRaw('\n');
            }
            g.flush();
        }
    }

    /**
     * Reads a file.
     *
     * @param file the file
     * @return header and events
     * @throws IOException on read failure
     * @throws IllegalArgumentException naming the file and line if the content is not an events file
     */
    public static Contents read(Path file) throws IOException {
        try (BufferedReader r = new BufferedReader(
                new java.io.InputStreamReader(
                        file.toString().endsWith(".gz")
                                ? new GZIPInputStream(Files.newInputStream(file), 1 << 16)
                                : Files.newInputStream(file),
                        StandardCharsets.UTF_8),
                1 << 16)) {
            String first = r.readLine();
            if (first == null) {
                throw new IllegalArgumentException("empty events file: " + file);
            }
            Header header = header(MAPPER.readTree(first), file);
            List<Event> events = new ArrayList<>();
            String line;
            int lineNo = 1;
            while ((line = r.readLine()) != null) {
                lineNo++;
                if (line.isBlank()) {
                    continue;
                }
                try {
                    JsonNode n = MAPPER.readTree(line);
                    events.add(new Event(
                            n.get("s").asLong(),
                            n.get("o").asLong(),
                            kind(n.get("k").asText()),
                            n.get("id").asText(),
                            text(n, "r"),
                            n.get("t").asLong(),
                            text(n, "u"),
                            text(n, "c"),
                            text(n, "a"),
                            text(n, "p"),
                            n.has("b") ? n.get("b").asLong() : 0,
                            text(n, "st"),
                            n.has("g") ? EventTag.valueOf(n.get("g").asText()) : EventTag.NORMAL));
                } catch (RuntimeException e) {
                    throw new IllegalArgumentException(
                            "bad event at " + file + ":" + lineNo + ": " + e.getMessage(), e);
                }
            }
            return new Contents(header, events);
        }
    }

    private static Header header(JsonNode h, Path file) {
        JsonNode format = h.get("format");
        if (format == null || !FORMAT.equals(format.asText())) {
            throw new IllegalArgumentException(
                    "not an events file (format " + (format == null ? null : format.asText()) + "): " + file);
        }
        JsonNode start = h.get("start_time");
        return new Header(
                ReportJson.convert(h, RunDescriptions.AttributionWorkload.class),
                start != null && start.isNumber() ? OptionalLong.of(start.asLong()) : OptionalLong.empty());
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null ? "" : v.asText();
    }

    private static EventKind kind(String k) {
        switch (k) {
            case "I":
                return EventKind.IMPRESSION;
            case "C":
                return EventKind.CLICK;
            case "R":
                return EventKind.REQUEST;
            case "A":
                return EventKind.ACK;
            default:
                throw new IllegalArgumentException("unknown kind " + k);
        }
    }
}
