package dev.rtmstreams.adattribution.model;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.security.auth.SecurityProtocol;

/**
 * Extra Kafka client properties (security first of all: {@code security.protocol}, {@code sasl.*},
 * {@code ssl.*}) read the same way by the service, the load generator and the chaos runner: from a properties file,
 * then from {@code RTM_KAFKA_*} environment variables, which win. One environment variable per client property:
 * {@code RTM_KAFKA_} plus the property name in upper case with dots as underscores, e.g.
 * {@code RTM_KAFKA_SASL_JAAS_CONFIG} for {@code sasl.jaas.config}; every producer, consumer and admin client
 * property has one.
 *
 * <pre>{@code
 * KafkaClientSettings settings = KafkaClientSettings.builder()
 *         .file(Path.of("client.properties"), "")   // --kafka-config FILE
 *         .environment(System::getenv)             // RTM_KAFKA_*
 *         .build();
 * Map<String, Object> producerConfig = new HashMap<>(settings.asMap());
 * log.info("kafka settings {}", settings);          // secrets print as [hidden]
 * }</pre>
 *
 * <p>Secrets never print: {@link #toString()}, {@link #redacted()} and {@link #redact(Map)} replace the value of
 * every {@linkplain #isSecret(String) secret} property (the PASSWORD-typed ones of Kafka's own client configs, such
 * as {@code sasl.jaas.config} and {@code ssl.truststore.password}, and any name holding {@code password},
 * {@code secret} or {@code jaas}) by {@value #HIDDEN}. Error messages name the property and where it came from,
 * never a secret's value.
 *
 * <p>Immutable; built and validated by {@link Builder#build()}.
 */
public final class KafkaClientSettings {

    /** Prefix of the environment variables. */
    public static final String ENV_PREFIX = "RTM_KAFKA_";
    /** What a secret value prints as. */
    public static final String HIDDEN = "[hidden]";

    private static final Pattern SECRET_NAME = Pattern.compile(".*(password|secret|jaas|credential).*");
    private static final Pattern JAAS_USERNAME = Pattern.compile("username\\s*=\\s*\"([^\"]*)\"");
    private static final Set<String> CLIENT_PROPERTIES = clientPropertyNames();
    private static final Set<String> PASSWORD_PROPERTIES = passwordPropertyNames();

    private final Map<String, String> properties;
    private final Map<String, String> sources;

    private KafkaClientSettings(Map<String, String> properties, Map<String, String> sources) {
        this.properties = Collections.unmodifiableMap(new LinkedHashMap<>(properties));
        this.sources = Collections.unmodifiableMap(new LinkedHashMap<>(sources));
    }

    /** @return settings without any property */
    public static KafkaClientSettings empty() {
        return new KafkaClientSettings(Map.of(), Map.of());
    }

    /** @return a builder without any property */
    public static Builder builder() {
        return new Builder();
    }

    /** @return the properties, in the order they were given; never null, unmodifiable, holds the secrets */
    public Map<String, String> asMap() {
        return properties;
    }

    /** @return where each property came from (e.g. {@code environment variable RTM_KAFKA_SECURITY_PROTOCOL}) */
    public Map<String, String> sources() {
        return sources;
    }

    /** @return whether no property is set */
    public boolean isEmpty() {
        return properties.isEmpty();
    }

    /** @return the properties with every secret value replaced by {@value #HIDDEN}; safe to print */
    public Map<String, String> redacted() {
        return redact(properties);
    }

    /**
     * Returns the properties as {@code RTM_KAFKA_*} environment variables, to hand them to a child process without
     * putting secrets on its command line.
     *
     * @return variable name to value; never null
     */
    public Map<String, String> toEnvironment() {
        Map<String, String> env = new LinkedHashMap<>();
        properties.forEach((k, v) -> env.put(envVar(k), v));
        return env;
    }

    /**
     * Describes who the client logs in as, for error messages: {@code User:<name>} when {@code sasl.jaas.config}
     * names a {@code username}, else what the security protocol implies.
     *
     * @return e.g. {@code User:adattribution (SASL_SSL/PLAIN)}; never null, never a secret
     */
    public String principal() {
        return principalOf(properties);
    }

    /**
     * Describes who a client with this configuration logs in as (see {@link #principal()}).
     *
     * @param clientConfig a client configuration; not null
     * @return the description; never null, never a secret
     */
    public static String principalOf(Map<String, ?> clientConfig) {
        Object protocolValue = clientConfig.get("security.protocol");
        String protocol = protocolValue == null
                ? "PLAINTEXT"
                : protocolValue.toString().trim().toUpperCase(Locale.ROOT);
        if (protocol.startsWith("SASL")) {
            Object mechanism = clientConfig.get("sasl.mechanism");
            String how = " (" + protocol + "/" + (mechanism == null ? "GSSAPI" : mechanism) + ")";
            Object jaas = clientConfig.get("sasl.jaas.config");
            Matcher m = JAAS_USERNAME.matcher(jaas == null ? "" : jaas.toString());
            return (m.find() ? "User:" + m.group(1) : "the SASL principal") + how;
        }
        if (protocol.equals("SSL")) {
            return "the principal of the TLS client certificate (SSL)";
        }
        return "User:ANONYMOUS (" + protocol + ")";
    }

    /**
     * Whether a property's value is a secret that must never be printed.
     *
     * @param name a Kafka client property name; not null
     * @return true for Kafka's PASSWORD-typed client properties and names holding password, secret, jaas or
     *     credential
     */
    public static boolean isSecret(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        return PASSWORD_PROPERTIES.contains(n) || SECRET_NAME.matcher(n).matches();
    }

    /**
     * Copies a configuration with every {@linkplain #isSecret(String) secret} value replaced by {@value #HIDDEN}.
     *
     * @param config a configuration; not null
     * @return a new map in the same order; safe to print
     */
    public static Map<String, String> redact(Map<String, ?> config) {
        Map<String, String> out = new LinkedHashMap<>();
        config.forEach((k, v) -> out.put(k, isSecret(k) ? HIDDEN : String.valueOf(v)));
        return out;
    }

    /**
     * The environment variable of a property.
     *
     * @param property a Kafka client property name such as {@code sasl.jaas.config}; not null
     * @return e.g. {@code RTM_KAFKA_SASL_JAAS_CONFIG}
     */
    public static String envVar(String property) {
        return ENV_PREFIX + property.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
    }

    @Override
    public String toString() {
        return "KafkaClientSettings" + redacted();
    }

    private static Set<String> clientPropertyNames() {
        Set<String> names = new TreeSet<>();
        names.addAll(ProducerConfig.configNames());
        names.addAll(ConsumerConfig.configNames());
        names.addAll(AdminClientConfig.configNames());
        return Collections.unmodifiableSet(names);
    }

    private static Set<String> passwordPropertyNames() {
        Set<String> names = new TreeSet<>();
        for (ConfigDef def :
                new ConfigDef[] {ProducerConfig.configDef(), ConsumerConfig.configDef(), AdminClientConfig.configDef()
                }) {
            def.configKeys().forEach((name, key) -> {
                if (key.type == ConfigDef.Type.PASSWORD) {
                    names.add(name);
                }
            });
        }
        return Collections.unmodifiableSet(names);
    }

    /** Builds {@link KafkaClientSettings}; later sources override earlier ones. Not thread-safe. */
    public static final class Builder {
        private final Map<String, String> properties = new LinkedHashMap<>();
        private final Map<String, String> sources = new LinkedHashMap<>();

        private Builder() {}

        /**
         * Sets one property.
         *
         * @param name a Kafka client property name; not blank
         * @param value its value; not null (trimmed)
         * @param source where it came from, for messages (e.g. {@code config file x.properties}); not null
         * @return this builder
         * @throws IllegalArgumentException when the name is blank
         */
        public Builder put(String name, String value, String source) {
            Objects.requireNonNull(source, "source");
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException(
                        "a Kafka client property name must not be blank (from " + source + "): '" + name + "'");
            }
            Objects.requireNonNull(value, () -> "value of " + name);
            properties.put(name.trim(), value.trim());
            sources.put(name.trim(), source);
            return this;
        }

        /**
         * Reads a properties file of client properties.
         *
         * @param file the file, e.g. from {@code --kafka-config}; not null
         * @param prefix only keys with this prefix are read, without it ({@code ""} for all keys); not null
         * @return this builder
         * @throws IllegalArgumentException naming the file when it is missing or unreadable
         */
        public Builder file(Path file, String prefix) {
            if (!Files.isRegularFile(file)) {
                throw new IllegalArgumentException("Kafka client config file does not exist or is not a file: " + file);
            }
            Properties props = new Properties();
            try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                props.load(reader);
            } catch (IOException | IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        "cannot read Kafka client config file " + file + ": " + e.getMessage());
            }
            for (String key : new TreeSet<>(props.stringPropertyNames())) {
                if (key.startsWith(prefix) && key.length() > prefix.length()) {
                    put(key.substring(prefix.length()), props.getProperty(key), "config file " + file + " key " + key);
                }
            }
            return this;
        }

        /**
         * Reads the {@code RTM_KAFKA_*} variable of every producer, consumer and admin client property.
         *
         * @param env the environment lookup (e.g. {@code System::getenv}); returns null when unset
         * @return this builder
         */
        public Builder environment(Function<String, String> env) {
            for (String name : CLIENT_PROPERTIES) {
                String var = envVar(name);
                String value = env.apply(var);
                if (value != null) {
                    put(name, value, "environment variable " + var);
                }
            }
            return this;
        }

        /**
         * Validates and builds.
         *
         * @return the settings
         * @throws IllegalArgumentException when {@code security.protocol} is not one of Kafka's, naming the value
         *     and its source
         */
        public KafkaClientSettings build() {
            String protocol = properties.get("security.protocol");
            if (protocol != null) {
                Set<String> known = Arrays.stream(SecurityProtocol.values())
                        .map(p -> p.name)
                        .collect(Collectors.toCollection(TreeSet::new));
                if (!known.contains(protocol.toUpperCase(Locale.ROOT))) {
                    throw new IllegalArgumentException("security.protocol must be one of " + known + " (from "
                            + sources.get("security.protocol") + "): '" + protocol + "'");
                }
            }
            return new KafkaClientSettings(properties, sources);
        }
    }
}
