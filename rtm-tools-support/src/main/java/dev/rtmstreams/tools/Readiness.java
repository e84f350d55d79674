package dev.rtmstreams.tools;

import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.function.BooleanSupplier;

/**
 * When a child counts as ready. Immutable.
 *
 * <ul>
 *   <li>{@link #health(int)}: {@code GET http://localhost:PORT/health} answers 200 (optionally with a body
 *       containing a text, {@link #withBodyContaining(String)}; {@link #streamsRunning(int)}: with Kafka Streams
 *       {@code RUNNING});
 *   <li>{@link #outputLine(String)}: a line of its output (stdout or stderr) contains a text;
 *   <li>{@link #check(String, BooleanSupplier)}: a check of the caller's (e.g. a Kafka broker answering a
 *       request) returns true;
 *   <li>{@link #started()}: as soon as the process is started.
 * </ul>
 */
public final class Readiness {

    /** The text of a {@code /health} body once Kafka Streams is {@code RUNNING}; see {@link #streamsRunning}. */
    public static final String STREAMS_RUNNING = "\"state\":\"RUNNING\"";

    private enum Kind {
        STARTED,
        OUTPUT_LINE,
        HTTP,
        CHECK
    }

    private final Kind kind;
    private final int port;
    private final String path;
    private final String text;
    private final BooleanSupplier check;

    private Readiness(Kind kind, int port, String path, String text) {
        this(kind, port, path, text, null);
    }

    private Readiness(Kind kind, int port, String path, String text, BooleanSupplier check) {
        this.kind = kind;
        this.port = port;
        this.path = path;
        this.text = text;
        this.check = check;
    }

    /** @return ready as soon as the process is started */
    public static Readiness started() {
        return new Readiness(Kind.STARTED, 0, null, "");
    }

    /**
     * A check of the caller's, called from {@link ChildJvm#awaitReady(Duration)}'s thread every 100 ms while the
     * child runs, until it returns true.
     *
     * @param description what the check waits for, for error messages (e.g. {@code broker at localhost:9092
     *     answers describe-cluster}); not blank
     * @param ready returns true once the child is ready; it should return false (not throw) while it is not
     * @return the check
     * @throws IllegalArgumentException when the description is blank
     */
    public static Readiness check(String description, BooleanSupplier ready) {
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(ready, "ready");
        if (description.isBlank()) {
            throw new IllegalArgumentException("readiness description must not be blank");
        }
        return new Readiness(Kind.CHECK, 0, null, description, ready);
    }

    /**
     * @param text a text a line of the child's output contains once it is ready; not empty
     * @return the check
     * @throws IllegalArgumentException when the text is empty or holds a line break
     */
    public static Readiness outputLine(String text) {
        Objects.requireNonNull(text, "text");
        if (text.isEmpty() || text.contains("\n")) {
            throw new IllegalArgumentException("ready line must be non-empty and one line: '" + text + "'");
        }
        return new Readiness(Kind.OUTPUT_LINE, 0, null, text);
    }

    /**
     * @param port the child's HTTP port on localhost, 1-65535
     * @return ready when {@code GET /health} answers 200
     * @throws IllegalArgumentException when the port is out of range
     */
    public static Readiness health(int port) {
        return http(port, "/health");
    }

    /**
     * The readiness of a Kafka Streams service: {@code GET /health} answers 200 with {@value #STREAMS_RUNNING} in
     * its body, as rtm-topology's {@code PrometheusEndpoint} and the ad-attribution service answer once Kafka
     * Streams is {@code RUNNING} (their 200 alone also means {@code REBALANCING}).
     *
     * @param port the child's HTTP port on localhost, 1-65535
     * @return the check
     * @throws IllegalArgumentException when the port is out of range
     */
    public static Readiness streamsRunning(int port) {
        return health(port).withBodyContaining(STREAMS_RUNNING);
    }

    /**
     * @param port the child's HTTP port on localhost, 1-65535
     * @param path the path, starting with {@code /}
     * @return ready when {@code GET path} answers 200
     * @throws IllegalArgumentException when the port is out of range or the path does not start with /
     */
    public static Readiness http(int port, String path) {
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("readiness port must be 1-65535: " + port);
        }
        Objects.requireNonNull(path, "path");
        if (!path.startsWith("/")) {
            throw new IllegalArgumentException("readiness path must start with /: '" + path + "'");
        }
        return new Readiness(Kind.HTTP, port, path, "");
    }

    /**
     * @param bodyText a text the 200 answer's body must contain, e.g. {@code "state":"RUNNING"}
     * @return an HTTP check that also requires the text
     * @throws IllegalStateException when this is not an HTTP check
     */
    public Readiness withBodyContaining(String bodyText) {
        Objects.requireNonNull(bodyText, "bodyText");
        if (kind != Kind.HTTP) {
            throw new IllegalStateException("only an HTTP readiness check has a body: " + this);
        }
        return new Readiness(kind, port, path, bodyText);
    }

    /** @return the HTTP port of an HTTP check, else -1 */
    public int port() {
        return kind == Kind.HTTP ? port : -1;
    }

    /**
     * Returns a fresh evaluation of this check for one child: it remembers how far it has read the child's output, so
     * that each call scans only what is new.
     *
     * @param logFile the file that receives the child's output
     * @return the probe; call it from one thread at a time
     */
    Probe probe(Path logFile) {
        return new Probe(logFile);
    }

    /** One child's evaluation of a {@link Readiness}; the output scan resumes where the last call stopped. */
    final class Probe {
        private final Path logFile;
        private long logScanOffset;
        private String partialLine = "";

        private Probe(Path logFile) {
            this.logFile = logFile;
        }

        /**
         * Makes the output scan start at an offset (a log that keeps earlier runs' output).
         *
         * @param offset the log's size when this run started
         */
        synchronized void startAt(long offset) {
            logScanOffset = offset;
            partialLine = "";
        }

        /** @return whether the child is ready now */
        synchronized boolean isReady() {
            switch (kind) {
                case STARTED:
                    return true;
                case OUTPUT_LINE:
                    return outputHasLine();
                case HTTP:
                    String body = LocalHttp.get(port, path);
                    return body != null && body.contains(text);
                case CHECK:
                    return check.getAsBoolean();
                default:
                    throw new AssertionError(kind);
            }
        }

        /** Scans the log from where the last scan stopped for a complete line containing the text. */
        private boolean outputHasLine() {
            try {
                if (!Files.exists(logFile)) {
                    return false;
                }
                byte[] fresh;
                try (var ch = Files.newByteChannel(logFile)) {
                    ch.position(logScanOffset);
                    var in = Channels.newInputStream(ch);
                    fresh = in.readAllBytes();
                }
                if (fresh.length == 0) {
                    return false;
                }
                String chunk = partialLine + new String(fresh, StandardCharsets.UTF_8);
                int lastNewline = chunk.lastIndexOf('\n');
                String complete = lastNewline < 0 ? "" : chunk.substring(0, lastNewline);
                String rest = lastNewline < 0 ? chunk : chunk.substring(lastNewline + 1);
                logScanOffset += fresh.length;
                partialLine = rest;
                for (String line : complete.split("\n", -1)) {
                    if (line.contains(text)) {
                        return true;
                    }
                }
                return false;
            } catch (IOException e) {
                return false;
            }
        }
    }

    @Override
    public String toString() {
        switch (kind) {
            case STARTED:
                return "started";
            case OUTPUT_LINE:
                return "output line containing '" + text + "'";
            case CHECK:
                return text;
            default:
                return "GET http://localhost:" + port + path + " answers 200"
                        + (text.isEmpty() ? "" : " with '" + text + "'");
        }
    }
}
