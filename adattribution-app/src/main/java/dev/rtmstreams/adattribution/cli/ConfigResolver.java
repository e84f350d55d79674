package dev.rtmstreams.adattribution.cli;

import dev.rtmstreams.adattribution.AppConfig;
import dev.rtmstreams.adattribution.AppConfigBuilder;
import dev.rtmstreams.adattribution.model.KafkaClientSettings;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.function.Function;

/**
 * Resolves the service configuration from its four sources, in order of precedence:
 * command line &gt; environment variable ({@code RTM_*}) &gt; config file (properties) &gt; default.
 *
 * <p>Config file keys are the option names without dashes ({@code bootstrap-servers=...}); keys
 * starting with {@code kafka.} are passed, without that prefix, to Kafka Streams and its clients
 * (e.g. {@code kafka.linger.ms=0}). Any other key is an error, so a typo does not pass silently.
 * The config file itself comes from {@code --config} or {@code RTM_CONFIG}. Kafka client properties also come from
 * {@code RTM_KAFKA_*} environment variables (e.g. {@code RTM_KAFKA_SASL_JAAS_CONFIG}), which win over the file's
 * {@code kafka.*} keys (see {@link KafkaClientSettings}); their secrets are never printed.
 */
public final class ConfigResolver {

    /** Prefix of config file keys passed through to Kafka. */
    public static final String KAFKA_PREFIX = "kafka.";
    /** Environment variable naming the config file. */
    public static final String CONFIG_ENV = "RTM_CONFIG";
    /** Environment variable of the PostgreSQL user (secrets come from the environment only). */
    public static final String POSTGRES_USER_ENV = "RTM_POSTGRES_USER";
    /** Environment variable of the PostgreSQL password (never from the command line or the config file). */
    public static final String POSTGRES_PASSWORD_ENV = "RTM_POSTGRES_PASSWORD";

    /** Environment variable of the Schema Registry basic-auth user. */
    public static final String SCHEMA_REGISTRY_USER_ENV = "RTM_SCHEMA_REGISTRY_USER";
    /** Environment variable of the Schema Registry basic-auth password (never from the command line or the file). */
    public static final String SCHEMA_REGISTRY_PASSWORD_ENV = "RTM_SCHEMA_REGISTRY_PASSWORD";

    private final Function<String, String> env;

    /**
     * @param env the environment (e.g. {@code System::getenv}); returns null when unset
     */
    public ConfigResolver(Function<String, String> env) {
        this.env = env;
    }

    /** A configuration value problem; the message names the option, the source and the value. */
    public static final class ConfigException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        ConfigException(String message) {
            super(message);
        }
    }

    /** The result: the config and where each option's value came from (for the start-up log). */
    public record Resolved(AppConfig config, Map<String, String> sources) {}

    /**
     * Resolves the configuration.
     *
     * @param cliValues values given on the command line (flags as {@code "true"}); not null
     * @param cliConfigFile {@code --config} from the command line, or null
     * @return the validated configuration
     * @throws ConfigException naming the option, its source and the bad value
     */
    public Resolved resolve(Map<ServiceOption, String> cliValues, Path cliConfigFile) {
        Path configFile = cliConfigFile;
        String configSource = "--config";
        if (configFile == null && notBlank(env.apply(CONFIG_ENV))) {
            configFile = Path.of(env.apply(CONFIG_ENV).trim());
            configSource = CONFIG_ENV;
        }
        Map<ServiceOption, String> fileValues = new EnumMap<>(ServiceOption.class);
        AppConfigBuilder builder = AppConfig.builder();
        KafkaClientSettings.Builder kafka = KafkaClientSettings.builder();
        if (configFile != null) {
            Properties props = load(configFile, configSource);
            for (String key : props.stringPropertyNames()) {
                String value = props.getProperty(key);
                if (key.startsWith(KAFKA_PREFIX) && key.length() > KAFKA_PREFIX.length()) {
                    kafka.put(
                            key.substring(KAFKA_PREFIX.length()),
                            value,
                            "config file " + configFile + " key " + key.trim());
                    continue;
                }
                ServiceOption option = ServiceOption.byName(key.trim());
                if (option == null) {
                    throw new ConfigException("Unknown key '" + key + "' in config file " + configFile
                            + " (expected an option name such as bootstrap-servers, or kafka.<property>)");
                }
                fileValues.put(option, value);
            }
        }
        Map<String, String> sources = new LinkedHashMap<>();
        for (ServiceOption option : ServiceOption.values()) {
            String value;
            String source;
            if (cliValues.containsKey(option)) {
                value = cliValues.get(option);
                source = "command line " + option.cliName();
            } else if (env.apply(option.envVar()) != null) {
                value = env.apply(option.envVar());
                source = "environment variable " + option.envVar();
            } else if (fileValues.containsKey(option)) {
                value = fileValues.get(option);
                source = "config file " + configFile + " key " + option.fileKey();
            } else {
                sources.put(option.optionName(), "default");
                continue;
            }
            sources.put(option.optionName(), source);
            try {
                option.apply(builder, value);
            } catch (IllegalArgumentException e) {
                throw new ConfigException(
                        "Invalid value for option '" + option.cliName() + "' from " + source + ": " + e.getMessage());
            }
        }
        KafkaClientSettings kafkaSettings;
        try {
            kafkaSettings = kafka.environment(env).build();
        } catch (IllegalArgumentException e) {
            throw new ConfigException("Invalid Kafka client property: " + e.getMessage());
        }
        kafkaSettings.asMap().forEach(builder::kafkaOverride);
        kafkaSettings.sources().forEach((key, source) -> sources.put(KAFKA_PREFIX + key, source));
        builder.postgresCredentials(env.apply(POSTGRES_USER_ENV), env.apply(POSTGRES_PASSWORD_ENV));
        builder.schemaRegistryCredentials(env.apply(SCHEMA_REGISTRY_USER_ENV), env.apply(SCHEMA_REGISTRY_PASSWORD_ENV));
        try {
            return new Resolved(builder.build(), sources);
        } catch (IllegalArgumentException e) {
            throw new ConfigException("Invalid configuration: " + e.getMessage());
        }
    }

    private static Properties load(Path file, String source) {
        if (!Files.isRegularFile(file)) {
            throw new ConfigException("Config file " + file + " (from " + source + ") does not exist or is not a file");
        }
        Properties props = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            props.load(reader);
        } catch (IOException | IllegalArgumentException e) {
            throw new ConfigException("Cannot read config file " + file + " (from " + source + "): " + e.getMessage());
        }
        return props;
    }

    private static boolean notBlank(String s) {
        return s != null && !s.isBlank();
    }
}
