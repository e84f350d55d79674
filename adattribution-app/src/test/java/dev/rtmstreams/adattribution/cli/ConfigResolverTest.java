package dev.rtmstreams.adattribution.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rtmstreams.adattribution.AppConfig;
import dev.rtmstreams.adattribution.model.WireFormat;
import dev.rtmstreams.processor.ExecutionMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigResolverTest {

    @TempDir
    Path dir;

    private Path file(String content) throws Exception {
        Path f = dir.resolve("service.properties");
        Files.writeString(f, content);
        return f;
    }

    private static Map<ServiceOption, String> cli(Object... kv) {
        Map<ServiceOption, String> m = new EnumMap<>(ServiceOption.class);
        for (int i = 0; i < kv.length; i += 2) {
            m.put((ServiceOption) kv[i], (String) kv[i + 1]);
        }
        return m;
    }

    @Test
    void shouldUseDefaultsWhenOnlyBootstrapServersAreGiven() {
        AppConfig c = new ConfigResolver(Map.<String, String>of()::get)
                .resolve(cli(ServiceOption.BOOTSTRAP_SERVERS, "b:9092"), null)
                .config();

        assertThat(c.bootstrapServers()).isEqualTo("b:9092");
        assertThat(c.applicationId()).isEqualTo("adattribution");
        assertThat(c.trigger()).isEqualTo(ExecutionMode.REAL_TIME);
        assertThat(c.checkpointInterval()).isEqualTo(Duration.ofMinutes(5));
        assertThat(c.attributionWindow()).isEqualTo(Duration.ofMinutes(2));
        assertThat(c.watermarkDelay()).isEqualTo(Duration.ofMinutes(5));
        assertThat(c.correlationWindow()).isEqualTo(Duration.ofMinutes(5));
        assertThat(c.createTopics()).isFalse();
        assertThat(c.allTopics())
                .containsExactly(
                        "ad-impressions",
                        "ad-clicks",
                        "ad-requests",
                        "ad-acks",
                        "attributed-clicks",
                        "ad-log-records",
                        "adattribution-dlq");
    }

    @Test
    void shouldPreferCommandLineOverEnvironmentOverFileOverDefaultWhenAllAreSet() throws Exception {
        Path f = file("bootstrap-servers=file:1\nattribution-window=PT3M\nwatermark-delay=PT7M\n"
                + "correlation-window=PT9M\nkafka.linger.ms=3\n");
        Map<String, String> env = Map.of("RTM_ATTRIBUTION_WINDOW", "PT4M", "RTM_WATERMARK_DELAY", "PT8M");

        ConfigResolver.Resolved r =
                new ConfigResolver(env::get).resolve(cli(ServiceOption.ATTRIBUTION_WINDOW, "PT1M"), f);
        AppConfig c = r.config();

        assertThat(c.attributionWindow()).isEqualTo(Duration.ofMinutes(1)); // CLI
        assertThat(c.watermarkDelay()).isEqualTo(Duration.ofMinutes(8)); // env
        assertThat(c.correlationWindow()).isEqualTo(Duration.ofMinutes(9)); // file
        assertThat(c.bootstrapServers()).isEqualTo("file:1"); // file
        assertThat(c.checkpointInterval()).isEqualTo(Duration.ofMinutes(5)); // default
        assertThat(c.kafkaOverrides()).containsEntry("linger.ms", "3");
        assertThat(r.sources())
                .containsEntry("attribution-window", "command line --attribution-window")
                .containsEntry("watermark-delay", "environment variable RTM_WATERMARK_DELAY")
                .containsEntry("checkpoint-interval", "default");
    }

    @Test
    void shouldReadConfigFileNamedByEnvironmentWhenNoConfigOptionIsGiven() throws Exception {
        Path f = file("bootstrap-servers=envfile:1\ntrigger=micro-batch\ncreate-topics=true\n");

        AppConfig c = new ConfigResolver(Map.of("RTM_CONFIG", f.toString())::get)
                .resolve(cli(), null)
                .config();

        assertThat(c.bootstrapServers()).isEqualTo("envfile:1");
        assertThat(c.trigger()).isEqualTo(ExecutionMode.MICRO_BATCH);
        assertThat(c.createTopics()).isTrue();
    }

    @Test
    void shouldNameFileKeyWhenFileValueIsInvalid() throws Exception {
        Path f = file("bootstrap-servers=b:1\nhttp-port=eighty\n");

        assertThatThrownBy(() -> new ConfigResolver(Map.<String, String>of()::get).resolve(cli(), f))
                .isInstanceOf(ConfigResolver.ConfigException.class)
                .hasMessageContaining("--http-port")
                .hasMessageContaining("key http-port")
                .hasMessageContaining("eighty");
    }

    @Test
    void shouldRejectDuplicateTopicNamesWhenTwoTopicsCollide() {
        assertThatThrownBy(() -> new ConfigResolver(Map.<String, String>of()::get)
                        .resolve(
                                cli(ServiceOption.BOOTSTRAP_SERVERS, "b:1", ServiceOption.DLQ_TOPIC, "ad-clicks"),
                                null))
                .hasMessageContaining("ad-clicks");
    }

    @Test
    void shouldParseShortDurationsWhenUnitSuffixIsUsed() {
        ConfigResolver r = new ConfigResolver(Map.<String, String>of()::get);

        AppConfig c = r.resolve(
                        cli(
                                ServiceOption.BOOTSTRAP_SERVERS,
                                "b:1",
                                ServiceOption.TRANSACTION_INTERVAL,
                                "500ms",
                                ServiceOption.CHECKPOINT_INTERVAL,
                                "30s",
                                ServiceOption.ATTRIBUTION_WINDOW,
                                "2m",
                                ServiceOption.WATERMARK_DELAY,
                                "pt5m"),
                        null)
                .config();

        assertThat(c.transactionInterval()).isEqualTo(Duration.ofMillis(500));
        assertThat(c.checkpointInterval()).isEqualTo(Duration.ofSeconds(30));
        assertThat(c.attributionWindow()).isEqualTo(Duration.ofMinutes(2));
        assertThat(c.watermarkDelay()).isEqualTo(Duration.ofMinutes(5));
        assertThatThrownBy(() -> r.resolve(
                        cli(ServiceOption.BOOTSTRAP_SERVERS, "b:1", ServiceOption.CORRELATION_WINDOW, "5 minutes"),
                        null))
                .hasMessageContaining("correlation-window")
                .hasMessageContaining("5 minutes");
    }

    @Test
    void shouldAcceptZeroMicroBatchIntervalButNoZeroCheckpointIntervalWhenResolving() {
        ConfigResolver r = new ConfigResolver(Map.<String, String>of()::get);

        AppConfig c = r.resolve(
                        cli(
                                ServiceOption.BOOTSTRAP_SERVERS,
                                "b:1",
                                ServiceOption.TRIGGER,
                                "micro-batch",
                                ServiceOption.MICRO_BATCH_INTERVAL,
                                "PT0S"),
                        null)
                .config();

        assertThat(c.microBatchInterval()).isEqualTo(Duration.ZERO);
        assertThatThrownBy(() -> r.resolve(
                        cli(ServiceOption.BOOTSTRAP_SERVERS, "b:1", ServiceOption.MICRO_BATCH_INTERVAL, "-PT1S"), null))
                .hasMessageContaining("micro-batch-interval");
        assertThatThrownBy(() -> r.resolve(
                        cli(ServiceOption.BOOTSTRAP_SERVERS, "b:1", ServiceOption.CHECKPOINT_INTERVAL, "PT0S"), null))
                .hasMessageContaining("checkpoint-interval");
    }

    @Test
    void shouldTakeThePostgresUrlFromAnySourceButItsCredentialsOnlyFromTheEnvironment() {
        Map<String, String> env = Map.of(
                "RTM_POSTGRES_URL", "jdbc:postgresql://db:5432/ads",
                "RTM_POSTGRES_USER", "ads",
                "RTM_POSTGRES_PASSWORD", "s3cret");

        AppConfig c = new ConfigResolver(env::get)
                .resolve(cli(ServiceOption.BOOTSTRAP_SERVERS, "b:9092"), null)
                .config();
        AppConfig off = new ConfigResolver(Map.<String, String>of()::get)
                .resolve(cli(ServiceOption.BOOTSTRAP_SERVERS, "b:9092"), null)
                .config();

        assertThat(c.postgres()).hasValue(new AppConfig.Postgres("jdbc:postgresql://db:5432/ads", "ads", "s3cret"));
        assertThat(off.postgres()).isEmpty();
    }

    @Test
    void shouldNameTheOptionWhenThePostgresUrlIsNotAPostgresJdbcUrl() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new ConfigResolver(Map.<String, String>of()::get)
                        .resolve(
                                cli(
                                        ServiceOption.BOOTSTRAP_SERVERS,
                                        "b:9092",
                                        ServiceOption.POSTGRES_URL,
                                        "postgres://db/ads"),
                                null))
                .isInstanceOf(ConfigResolver.ConfigException.class)
                .hasMessageContaining("postgres-url")
                .hasMessageContaining("postgres://db/ads");
    }

    @Test
    void shouldDefaultToSingleObjectWithoutRegistryWhenNoWireFormatIsGiven() {
        AppConfig c = new ConfigResolver(Map.<String, String>of()::get)
                .resolve(cli(ServiceOption.BOOTSTRAP_SERVERS, "b:9092"), null)
                .config();

        assertThat(c.wireFormat()).isEqualTo(WireFormat.SINGLE_OBJECT);
        assertThat(c.schemaRegistry()).isEmpty();
    }

    @Test
    void shouldTakeTheRegistryUrlFromAnySourceButItsCredentialsOnlyFromTheEnvironment() throws Exception {
        Map<String, String> env = Map.of(
                "RTM_WIRE_FORMAT", "confluent",
                "RTM_SCHEMA_REGISTRY_USER", "rtm",
                "RTM_SCHEMA_REGISTRY_PASSWORD", "s3cret");

        ConfigResolver.Resolved r = new ConfigResolver(env::get)
                .resolve(
                        cli(ServiceOption.BOOTSTRAP_SERVERS, "b:9092"),
                        file("schema-registry-url=http://registry:8081\n"));

        assertThat(r.config().wireFormat()).isEqualTo(WireFormat.CONFLUENT);
        assertThat(r.config().schemaRegistry())
                .hasValue(new AppConfig.SchemaRegistry("http://registry:8081", "rtm", "s3cret"));
        assertThat(r.config().toString()).contains("http://registry:8081").doesNotContain("s3cret");
        assertThat(r.sources().get("schema-registry-url")).contains("config file");
    }

    @Test
    void shouldNameTheBadValueWhenWireFormatOrRegistryIsWrong() {
        ConfigResolver resolver = new ConfigResolver(Map.<String, String>of()::get);

        assertThatThrownBy(() -> resolver.resolve(
                        cli(ServiceOption.BOOTSTRAP_SERVERS, "b:9092", ServiceOption.WIRE_FORMAT, "protobuf"), null))
                .isInstanceOf(ConfigResolver.ConfigException.class)
                .hasMessageContaining("--wire-format")
                .hasMessageContaining("'protobuf'");
        assertThatThrownBy(() -> resolver.resolve(
                        cli(ServiceOption.BOOTSTRAP_SERVERS, "b:9092", ServiceOption.WIRE_FORMAT, "confluent"), null))
                .isInstanceOf(ConfigResolver.ConfigException.class)
                .hasMessageContaining("schema-registry-url is required with wire-format confluent");
        assertThatThrownBy(() -> resolver.resolve(
                        cli(
                                ServiceOption.BOOTSTRAP_SERVERS,
                                "b:9092",
                                ServiceOption.WIRE_FORMAT,
                                "confluent",
                                ServiceOption.SCHEMA_REGISTRY_URL,
                                "registry:8081"),
                        null))
                .isInstanceOf(ConfigResolver.ConfigException.class)
                .hasMessageContaining("'registry:8081'");
        assertThatThrownBy(() -> resolver.resolve(
                        cli(
                                ServiceOption.BOOTSTRAP_SERVERS,
                                "b:9092",
                                ServiceOption.SCHEMA_REGISTRY_URL,
                                "http://registry:8081"),
                        null))
                .isInstanceOf(ConfigResolver.ConfigException.class)
                .hasMessageContaining("only used with wire-format confluent")
                .hasMessageContaining("'http://registry:8081'");
    }

    @Test
    void shouldTakeKafkaClientSettingsFromFileAndEnvironmentAndHideSecretsWhenPrinted() throws Exception {
        Path f = file("bootstrap-servers=b:9093\nkafka.security.protocol=SASL_SSL\nkafka.sasl.mechanism=PLAIN\n"
                + "kafka.ssl.truststore.password=file-secret-1\n");
        String jaas = "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"svc\""
                + " password=\"env-secret-2\";";
        Map<String, String> env =
                Map.of("RTM_KAFKA_SASL_JAAS_CONFIG", jaas, "RTM_KAFKA_SASL_MECHANISM", "SCRAM-SHA-512");

        ConfigResolver.Resolved r = new ConfigResolver(env::get).resolve(cli(), f);

        assertThat(r.config().kafkaOverrides())
                .containsEntry("security.protocol", "SASL_SSL")
                .containsEntry("sasl.mechanism", "SCRAM-SHA-512") // the environment wins over the file
                .containsEntry("sasl.jaas.config", jaas)
                .containsEntry("ssl.truststore.password", "file-secret-1");
        assertThat(r.sources())
                .containsEntry("kafka.sasl.mechanism", "environment variable RTM_KAFKA_SASL_MECHANISM")
                .containsEntry("kafka.security.protocol", "config file " + f + " key kafka.security.protocol");
        String printed = r.config() + " " + r.sources();
        assertThat(printed)
                .contains("sasl.jaas.config=[hidden]", "ssl.truststore.password=[hidden]", "security.protocol=SASL_SSL")
                .doesNotContain("env-secret-2", "file-secret-1");
    }

    @Test
    void shouldRejectABadSecurityProtocolNamingItsSourceWhenResolving() {
        Map<String, String> env = Map.of("RTM_KAFKA_SECURITY_PROTOCOL", "SASL_TLS");

        assertThatThrownBy(
                        () -> new ConfigResolver(env::get).resolve(cli(ServiceOption.BOOTSTRAP_SERVERS, "b:1"), null))
                .isInstanceOf(ConfigResolver.ConfigException.class)
                .hasMessageContaining("'SASL_TLS'")
                .hasMessageContaining("RTM_KAFKA_SECURITY_PROTOCOL");
    }

    @Test
    void shouldBindHttpToTheGivenAddressAndRejectABadOneNamingItWhenResolving() {
        Map<String, String> env = Map.of("RTM_HTTP_BIND_ADDRESS", "127.0.0.1");
        AppConfig c = new ConfigResolver(env::get)
                .resolve(cli(ServiceOption.BOOTSTRAP_SERVERS, "b:1"), null)
                .config();
        assertThat(c.httpBindAddress().isLoopbackAddress()).isTrue();
        assertThat(new ConfigResolver(Map.<String, String>of()::get)
                        .resolve(cli(ServiceOption.BOOTSTRAP_SERVERS, "b:1"), null)
                        .config()
                        .httpBindAddress()
                        .isAnyLocalAddress())
                .as("default: every interface")
                .isTrue();

        assertThatThrownBy(() -> new ConfigResolver(Map.<String, String>of()::get)
                        .resolve(
                                cli(
                                        ServiceOption.BOOTSTRAP_SERVERS,
                                        "b:1",
                                        ServiceOption.HTTP_BIND_ADDRESS,
                                        "not an/ip"),
                                null))
                .isInstanceOf(ConfigResolver.ConfigException.class)
                .hasMessageContaining("http-bind-address")
                .hasMessageContaining("'not an/ip'");
    }
}
