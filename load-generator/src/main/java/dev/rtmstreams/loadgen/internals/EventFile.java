package dev.rtmstreams.loadgen.internals;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rtmstreams.adattribution.workload.Event;
import dev.rtmstreams.adattribution.workload.EventKind;
import dev.rtmstreams.adattribution.workload.EventTag;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * The recorded-events file: JSON lines, gzip-compressed when the name ends in {@code .gz}. The
 * first line is a header object ({@code "format": "rtm-loadgen-events/1"} plus the run's rate,
 * window, watermark delay, seed and id prefix); every further line is one event in send order with
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
     * A loaded file.
     *
     * @param header the header fields
     * @param events the events in send order
     */
    public record Contents(Map<String, Object> header, List<Event> events) {}

    /**
     * Writes a file.
     *
     * @param file the target; parent directories are created
     * @param header header fields (the format marker is added)
     * @param events the events in send order
     * @throws IOException on write failure
     */
    public static void write(Path file, Map<String, Object> header, List<Event> events) throws IOException {
        if (file.toAbsolutePath().getParent() != null) {
            Files.createDirectories(file.toAbsolutePath().getParent());
        }
        Map<String, Object> h = new LinkedHashMap<>();
        h.put("format", FORMAT);
        h.putAll(header);
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
    @SuppressWarnings("unchecked")
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
            Map<String, Object> header = MAPPER.readValue(first, Map.class);
            if (!FORMAT.equals(header.get("format"))) {
                throw new IllegalArgumentException("not an events file (format " + header.get("format") + "): " + file);
            }
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
