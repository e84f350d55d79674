package dev.rtmstreams.adattribution.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;

/**
 * A small client of the Confluent Schema Registry REST API (no Confluent artifacts), for Avro schemas only. It uses
 * the documented subset:
 *
 * <table>
 *   <caption>Requests</caption>
 *   <tr><th>method</th><th>request</th><th>answer</th></tr>
 *   <tr><td>{@link #register}</td><td>{@code POST /subjects/{subject}/versions {"schema": "..."}}</td>
 *       <td>{@code {"id": N}} (the same id again for an identical schema)</td></tr>
 *   <tr><td>{@link #schemaById}</td><td>{@code GET /schemas/ids/{id}}</td><td>{@code {"schema": "..."}}</td></tr>
 *   <tr><td>{@link #latest}</td><td>{@code GET /subjects/{subject}/versions/latest}</td>
 *       <td>{@code {"subject", "id", "version", "schema"}}</td></tr>
 *   <tr><td>{@link #isCompatible}</td><td>{@code POST /compatibility/subjects/{subject}/versions/latest}</td>
 *       <td>{@code {"is_compatible": true|false}}</td></tr>
 * </table>
 *
 * Errors come back as {@code {"error_code": N, "message": "..."}} and are thrown as {@link SchemaRegistryException}.
 *
 * <p>Caching: schemas by id and ids by (subject, schema) are kept for the life of the client (ids are immutable in a
 * registry), so the registry is asked once per id and once per registered schema, also when several stream threads
 * miss at the same moment (they wait for the one request). Latest versions and compatibility answers are not cached.
 *
 * <p>Credentials: HTTP basic auth when a user is set; the password is never printed ({@link #toString()}).
 * Thread-safe.
 *
 * <pre>{@code
 * SchemaRegistryClient registry = SchemaRegistryClient.builder("http://localhost:8081")
 *         .basicAuth(System.getenv("RTM_SCHEMA_REGISTRY_USER"), System.getenv("RTM_SCHEMA_REGISTRY_PASSWORD"))
 *         .build();
 * int id = registry.register("ad-clicks-value", Click.getClassSchema());
 * }</pre>
 */
public final class SchemaRegistryClient {

    private static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final URI baseUrl;
    private final String user;
    private final String authorization;
    private final Duration timeout;
    private final HttpClient http;
    private final Map<Integer, Schema> schemasById = new ConcurrentHashMap<>();
    private final Map<String, Integer> idsBySubjectAndSchema = new ConcurrentHashMap<>();

    private SchemaRegistryClient(Builder b) {
        String url = b.url.endsWith("/") ? b.url.substring(0, b.url.length() - 1) : b.url;
        this.baseUrl = URI.create(url);
        this.user = b.user;
        this.authorization = b.user == null
                ? null
                : "Basic "
                        + Base64.getEncoder()
                                .encodeToString((b.user + ":" + (b.password == null ? "" : b.password))
                                        .getBytes(StandardCharsets.UTF_8));
        this.timeout = b.timeout;
        this.http = HttpClient.newBuilder().connectTimeout(b.timeout).build();
    }

    /**
     * Returns a builder.
     *
     * @param url the registry's base url, {@code http://} or {@code https://}; not null
     * @return a new builder
     */
    public static Builder builder(String url) {
        return new Builder(Objects.requireNonNull(url, "url"));
    }

    /** @return the registry's base url */
    public URI url() {
        return baseUrl;
    }

    /**
     * Registers a schema under a subject (or finds it when it is already registered there).
     *
     * @param subject e.g. {@code ad-clicks-value}; not null
     * @param schema an Avro schema; not null
     * @return the registry's id of the schema
     * @throws SchemaRegistryException if the registry refuses (e.g. 409: incompatible under the subject's rules) or
     *     cannot be reached
     */
    public int register(String subject, Schema schema) {
        String key = subject + '\u0000' + schema.toString();
        Integer cached = idsBySubjectAndSchema.get(key);
        if (cached != null) {
            return cached;
        }
        // computeIfAbsent: threads that miss together wait for one request (a failed one is not cached)
        return idsBySubjectAndSchema.computeIfAbsent(key, k -> {
            JsonNode answer = send("POST", "/subjects/" + encode(subject) + "/versions", schemaBody(schema));
            int id = answer.path("id").asInt(-1);
            if (id < 0) {
                throw new SchemaRegistryException("registry answered without an id: " + answer, 200, -1, null);
            }
            schemasById.putIfAbsent(id, schema);
            return id;
        });
    }

    /**
     * Returns the schema with an id.
     *
     * @param id the registry's schema id
     * @return the schema; never null
     * @throws SchemaRegistryException with {@link SchemaRegistryException#isNotFound()} if the id is unknown, or
     *     another status if the registry fails or cannot be reached
     */
    public Schema schemaById(int id) {
        Schema cached = schemasById.get(id);
        if (cached != null) {
            return cached;
        }
        // computeIfAbsent: the stream threads that meet a new id together wait for one request, so each writer
        // schema is looked up once per client (per process), not once per thread; a failed lookup is not cached
        return schemasById.computeIfAbsent(id, k -> parse(send("GET", "/schemas/ids/" + id, null), "schema id " + id));
    }

    /**
     * A registered version of a subject.
     *
     * @param subject the subject
     * @param id the schema id
     * @param version the version within the subject
     * @param schema the schema
     */
    public record Registered(String subject, int id, int version, Schema schema) {}

    /**
     * Returns the latest version of a subject (not cached).
     *
     * @param subject the subject; not null
     * @return the latest version
     * @throws SchemaRegistryException with {@link SchemaRegistryException#isNotFound()} if the subject is unknown
     */
    public Registered latest(String subject) {
        JsonNode answer = send("GET", "/subjects/" + encode(subject) + "/versions/latest", null);
        Schema schema = parse(answer, "subject " + subject);
        int id = answer.path("id").asInt(-1);
        schemasById.putIfAbsent(id, schema);
        return new Registered(
                answer.path("subject").asText(subject),
                id,
                answer.path("version").asInt(-1),
                schema);
    }

    /**
     * Asks the registry whether a schema may be registered as the next version of a subject under the subject's
     * compatibility rules (not cached).
     *
     * @param subject the subject; not null
     * @param schema the candidate schema; not null
     * @return the registry's answer
     * @throws SchemaRegistryException if the registry fails or cannot be reached
     */
    public boolean isCompatible(String subject, Schema schema) {
        JsonNode answer =
                send("POST", "/compatibility/subjects/" + encode(subject) + "/versions/latest", schemaBody(schema));
        return answer.path("is_compatible").asBoolean(false);
    }

    private static String schemaBody(Schema schema) {
        return JSON.createObjectNode().put("schema", schema.toString()).toString();
    }

    private static Schema parse(JsonNode answer, String what) {
        String text = answer.path("schema").asText(null);
        String type = answer.path("schemaType").asText("AVRO");
        if (text == null || !"AVRO".equals(type.toUpperCase(Locale.ROOT))) {
            throw new SchemaRegistryException(
                    "registry answered no Avro schema for " + what + " (schemaType " + type + ")", 200, -1, null);
        }
        try {
            return new Schema.Parser().parse(text);
        } catch (RuntimeException e) {
            throw new SchemaRegistryException("registry answered an invalid Avro schema for " + what, 200, -1, e);
        }
    }

    private static String encode(String subject) {
        return URLEncoder.encode(subject, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private JsonNode send(String method, String path, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path))
                .timeout(timeout)
                .header("Accept", CONTENT_TYPE)
                .method(
                        method,
                        body == null
                                ? HttpRequest.BodyPublishers.noBody()
                                : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        if (body != null) {
            request.header("Content-Type", CONTENT_TYPE);
        }
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        HttpResponse<String> response;
        try {
            response = http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new SchemaRegistryException(
                    "schema registry " + baseUrl + " cannot be reached (" + method + " " + path + "): " + e, -1, -1, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SchemaRegistryException(
                    "interrupted while calling schema registry " + baseUrl + " (" + method + " " + path + ")",
                    -1,
                    -1,
                    e);
        }
        JsonNode json;
        try {
            json = JSON.readTree(response.body());
        } catch (IOException e) {
            json = null;
        }
        if (response.statusCode() / 100 != 2) {
            int code = json == null ? -1 : json.path("error_code").asInt(-1);
            String message =
                    json == null ? response.body() : json.path("message").asText("");
            throw new SchemaRegistryException(
                    "schema registry " + baseUrl + " answered " + response.statusCode() + " to " + method + " " + path
                            + ": [" + code + "] " + message,
                    response.statusCode(),
                    code,
                    null);
        }
        if (json == null || !json.isObject()) {
            throw new SchemaRegistryException(
                    "schema registry " + baseUrl + " answered no JSON object to " + method + " " + path,
                    response.statusCode(),
                    -1,
                    null);
        }
        return json;
    }

    @Override
    public String toString() {
        return "SchemaRegistryClient[url=" + baseUrl + ", user=" + user
                + (authorization == null ? "" : ", password=***") + "]";
    }

    /** Builds a {@link SchemaRegistryClient}. Not thread-safe. */
    public static final class Builder {
        private final String url;
        private String user;
        private String password;
        private Duration timeout = Duration.ofSeconds(10);

        private Builder(String url) {
            this.url = url.trim();
        }

        /**
         * Sets HTTP basic-auth credentials.
         *
         * @param user the user, or null (or blank) for no authentication
         * @param password the password, or null; never printed
         * @return this builder
         */
        public Builder basicAuth(String user, String password) {
            this.user = user == null || user.isBlank() ? null : user;
            this.password = password;
            return this;
        }

        /**
         * Sets the connect and request timeout.
         *
         * @param timeout positive; default 10 s
         * @return this builder
         */
        public Builder timeout(Duration timeout) {
            this.timeout = timeout;
            return this;
        }

        /**
         * Validates and builds.
         *
         * @return the client
         * @throws IllegalArgumentException naming the url when it is not an http(s) url, or the timeout when not
         *     positive
         */
        public SchemaRegistryClient build() {
            URI uri;
            try {
                uri = new URI(url);
            } catch (java.net.URISyntaxException e) {
                throw new IllegalArgumentException("schema-registry-url is not a url: '" + url + "'", e);
            }
            if (uri.getScheme() == null
                    || !(uri.getScheme().equals("http") || uri.getScheme().equals("https"))
                    || uri.getHost() == null) {
                throw new IllegalArgumentException(
                        "schema-registry-url must be an http:// or https:// url: '" + url + "'");
            }
            if (uri.getUserInfo() != null) {
                throw new IllegalArgumentException(
                        "schema-registry-url must not carry credentials (use the environment): '" + uri.getScheme()
                                + "://***@" + uri.getHost() + "'");
            }
            if (timeout == null || timeout.isZero() || timeout.isNegative()) {
                throw new IllegalArgumentException("schema registry timeout must be positive: " + timeout);
            }
            return new SchemaRegistryClient(this);
        }
    }
}
