package dev.rtmstreams.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;

/**
 * A <b>stand-in</b> for a Confluent Schema Registry, for tests: NOT a real registry. A small in-process HTTP server
 * (the JDK's {@code com.sun.net.httpserver}) implementing the documented subset of the Schema Registry REST API that
 * rtm-streams uses, with Avro schemas only and the registry's default compatibility rule, BACKWARD (the new schema
 * must read data written with the latest registered one). A real registry could not be started here without a
 * container engine: Confluent's artifacts are not served, and Apicurio Registry's server needs a Quarkus build whose
 * dependencies are not all served.
 *
 * <table>
 *   <caption>Implemented requests</caption>
 *   <tr><td>{@code POST /subjects/{subject}/versions}</td><td>{@code {"id": N}}; the same id for a schema already
 *       registered (ids are global: one id per distinct schema); 409 when not BACKWARD compatible with the
 *       latest version; 422 (42201) for an invalid schema</td></tr>
 *   <tr><td>{@code GET /schemas/ids/{id}}</td><td>{@code {"schema": "..."}}; 404 (40403) when unknown</td></tr>
 *   <tr><td>{@code GET /subjects/{subject}/versions/latest}</td><td>{@code {"subject", "id", "version", "schema"}};
 *       404 (40401) when the subject is unknown</td></tr>
 *   <tr><td>{@code POST /compatibility/subjects/{subject}/versions/latest}</td><td>{@code {"is_compatible": b}},
 *       by Avro's {@link SchemaCompatibility}; 404 (40401) when the subject is unknown</td></tr>
 * </table>
 *
 * Errors are the registry's JSON: {@code {"error_code": N, "message": "..."}}. With {@link #basicAuth} set, every
 * request needs those HTTP basic-auth credentials (401 otherwise). {@link #requests(String)} counts requests, so
 * tests can check a client's caching.
 *
 * <pre>{@code
 * try (SchemaRegistryStandIn registry = SchemaRegistryStandIn.start()) {
 *   String url = registry.url(); // http://127.0.0.1:PORT
 * }
 * }</pre>
 *
 * Thread-safe.
 */
public final class SchemaRegistryStandIn implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";
    private static final Pattern REGISTER = Pattern.compile("/subjects/([^/]+)/versions");
    private static final Pattern BY_ID = Pattern.compile("/schemas/ids/(-?\\d+)");
    private static final Pattern LATEST = Pattern.compile("/subjects/([^/]+)/versions/latest");
    private static final Pattern COMPATIBILITY = Pattern.compile("/compatibility/subjects/([^/]+)/versions/latest");

    private final HttpServer server;
    private final List<Schema> schemas = new ArrayList<>(); // id = index + 1
    private final Map<String, List<Integer>> versions = new HashMap<>(); // subject -> ids by version - 1
    private final Map<String, AtomicInteger> requestCounts = new ConcurrentHashMap<>();
    private volatile String authorization;

    private SchemaRegistryStandIn(HttpServer server) {
        this.server = server;
    }

    /**
     * Starts a stand-in on a free port of the loopback interface.
     *
     * @return the running stand-in
     * @throws IllegalStateException if no server socket can be opened
     */
    public static SchemaRegistryStandIn start() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            SchemaRegistryStandIn registry = new SchemaRegistryStandIn(server);
            server.createContext("/", registry::handle);
            server.start();
            return registry;
        } catch (IOException e) {
            throw new IllegalStateException("cannot start the schema registry stand-in", e);
        }
    }

    /**
     * Requires HTTP basic auth from now on.
     *
     * @param user the user; not null
     * @param password the password; not null
     * @return this
     */
    public SchemaRegistryStandIn basicAuth(String user, String password) {
        this.authorization =
                "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
        return this;
    }

    /** @return the base url, {@code http://127.0.0.1:PORT} */
    public String url() {
        return "http://" + server.getAddress().getHostString() + ":"
                + server.getAddress().getPort();
    }

    /**
     * Registers a schema directly (as another producer would), under the same rules as the REST call.
     *
     * @param subject the subject
     * @param schema the schema
     * @return its id
     * @throws IllegalStateException if the schema is not BACKWARD compatible with the subject's latest version
     */
    public int register(String subject, Schema schema) {
        synchronized (this) {
            int id = registerLocked(subject, schema);
            if (id < 0) {
                throw new IllegalStateException("not backward compatible with the latest version of " + subject);
            }
            return id;
        }
    }

    /**
     * Counts the requests received with a method and path, e.g. {@code "GET /schemas/ids/1"}.
     *
     * @param methodAndPath method, one space, path (no query)
     * @return how many were received
     */
    public int requests(String methodAndPath) {
        AtomicInteger n = requestCounts.get(methodAndPath);
        return n == null ? 0 : n.get();
    }

    /** @return the number of requests received in all */
    public int requests() {
        return requestCounts.values().stream().mapToInt(AtomicInteger::get).sum();
    }

    @Override
    public void close() {
        server.stop(0);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String method = exchange.getRequestMethod();
            String path = exchange.getRequestURI().getRawPath();
            requestCounts
                    .computeIfAbsent(method + " " + path, k -> new AtomicInteger())
                    .incrementAndGet();
            String expected = authorization;
            if (expected != null
                    && !expected.equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
                exchange.getResponseHeaders().add("WWW-Authenticate", "Basic realm=\"SchemaRegistry\"");
                error(exchange, 401, 401, "Unauthorized");
                return;
            }
            Matcher m;
            if (method.equals("POST") && (m = COMPATIBILITY.matcher(path)).matches()) {
                compatibility(exchange, decode(m.group(1)));
            } else if (method.equals("POST") && (m = REGISTER.matcher(path)).matches()) {
                register(exchange, decode(m.group(1)));
            } else if (method.equals("GET") && (m = BY_ID.matcher(path)).matches()) {
                byId(exchange, Integer.parseInt(m.group(1)));
            } else if (method.equals("GET") && (m = LATEST.matcher(path)).matches()) {
                latest(exchange, decode(m.group(1)));
            } else {
                error(
                        exchange,
                        404,
                        404,
                        "HTTP 404 Not Found (not implemented by the stand-in: " + method + " " + path + ")");
            }
        } catch (RuntimeException e) {
            error(exchange, 500, 50001, "stand-in error: " + e);
        }
    }

    private void register(HttpExchange exchange, String subject) throws IOException {
        Schema schema = readSchema(exchange);
        if (schema == null) {
            return;
        }
        int id;
        synchronized (this) {
            id = registerLocked(subject, schema);
        }
        if (id < 0) {
            error(
                    exchange,
                    409,
                    409,
                    "Schema being registered is incompatible with an earlier schema for subject \"" + subject
                            + "\" (BACKWARD)");
            return;
        }
        ObjectNode answer = JSON.createObjectNode().put("id", id);
        send(exchange, 200, answer);
    }

    /** @return the id, or -1 when not backward compatible */
    private int registerLocked(String subject, Schema schema) {
        List<Integer> subjectIds = versions.computeIfAbsent(subject, s -> new ArrayList<>());
        for (int existing : subjectIds) {
            if (schemas.get(existing - 1).equals(schema)) {
                return existing;
            }
        }
        if (!subjectIds.isEmpty()) {
            Schema latest = schemas.get(subjectIds.get(subjectIds.size() - 1) - 1);
            if (!compatible(schema, latest)) {
                return -1;
            }
        }
        int id = schemas.indexOf(schema) + 1;
        if (id == 0) {
            schemas.add(schema);
            id = schemas.size();
        }
        subjectIds.add(id);
        return id;
    }

    private void byId(HttpExchange exchange, int id) throws IOException {
        Schema schema;
        synchronized (this) {
            schema = id >= 1 && id <= schemas.size() ? schemas.get(id - 1) : null;
        }
        if (schema == null) {
            error(exchange, 404, 40403, "Schema " + id + " not found");
            return;
        }
        send(exchange, 200, JSON.createObjectNode().put("schema", schema.toString()));
    }

    private void latest(HttpExchange exchange, String subject) throws IOException {
        int id;
        int version;
        Schema schema;
        synchronized (this) {
            List<Integer> ids = versions.get(subject);
            if (ids == null || ids.isEmpty()) {
                id = -1;
                version = -1;
                schema = null;
            } else {
                version = ids.size();
                id = ids.get(version - 1);
                schema = schemas.get(id - 1);
            }
        }
        if (schema == null) {
            error(exchange, 404, 40401, "Subject '" + subject + "' not found.");
            return;
        }
        ObjectNode answer = JSON.createObjectNode()
                .put("subject", subject)
                .put("id", id)
                .put("version", version)
                .put("schema", schema.toString());
        send(exchange, 200, answer);
    }

    private void compatibility(HttpExchange exchange, String subject) throws IOException {
        Schema schema = readSchema(exchange);
        if (schema == null) {
            return;
        }
        Schema latest;
        synchronized (this) {
            List<Integer> ids = versions.get(subject);
            latest = ids == null || ids.isEmpty() ? null : schemas.get(ids.get(ids.size() - 1) - 1);
        }
        if (latest == null) {
            error(exchange, 404, 40401, "Subject '" + subject + "' not found.");
            return;
        }
        send(exchange, 200, JSON.createObjectNode().put("is_compatible", compatible(schema, latest)));
    }

    /** BACKWARD: the new schema (reader) can read what the latest one (writer) wrote. */
    private static boolean compatible(Schema candidate, Schema latest) {
        return SchemaCompatibility.checkReaderWriterCompatibility(candidate, latest)
                        .getType()
                == SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE;
    }

    private static Schema readSchema(HttpExchange exchange) throws IOException {
        try (InputStream in = exchange.getRequestBody()) {
            JsonNode body = JSON.readTree(in);
            String type = body.path("schemaType").asText("AVRO");
            if (!"AVRO".equals(type)) {
                error(exchange, 422, 42201, "Invalid schema: the stand-in knows only AVRO, not " + type);
                return null;
            }
            return new Schema.Parser().parse(body.path("schema").asText());
        } catch (IOException | RuntimeException e) {
            error(exchange, 422, 42201, "Invalid schema: " + e.getMessage());
            return null;
        }
    }

    private static String decode(String raw) {
        return URLDecoder.decode(raw, StandardCharsets.UTF_8);
    }

    private static void error(HttpExchange exchange, int status, int code, String message) throws IOException {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("error_code", code);
        body.put("message", message);
        send(exchange, status, JSON.valueToTree(body));
    }

    private static void send(HttpExchange exchange, int status, JsonNode body) throws IOException {
        byte[] bytes = JSON.writeValueAsBytes(body);
        exchange.getResponseHeaders().set("Content-Type", CONTENT_TYPE);
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }
}
