package dev.rtmstreams.adattribution.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TransactionalIdAuthorizationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KafkaClientSettingsTest {

    private static final String JAAS = "org.apache.kafka.common.security.plain.PlainLoginModule required"
            + " username=\"svc\" password=\"pw-123-secret\";";

    @Test
    void shouldLetTheEnvironmentWinOverTheFileWhenBothSetAProperty(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("client.properties");
        Files.writeString(file, "security.protocol=SASL_SSL\nsasl.mechanism=PLAIN\nlinger.ms=5\n");
        Map<String, String> env = Map.of(
                "RTM_KAFKA_SASL_MECHANISM", "SCRAM-SHA-512", "RTM_KAFKA_SASL_JAAS_CONFIG", JAAS, "RTM_OTHER", "x");

        KafkaClientSettings s = KafkaClientSettings.builder()
                .file(file, "")
                .environment(env::get)
                .build();

        assertThat(s.asMap())
                .containsEntry("security.protocol", "SASL_SSL")
                .containsEntry("sasl.mechanism", "SCRAM-SHA-512")
                .containsEntry("sasl.jaas.config", JAAS)
                .containsEntry("linger.ms", "5")
                .hasSize(4);
        assertThat(s.sources())
                .containsEntry("sasl.mechanism", "environment variable RTM_KAFKA_SASL_MECHANISM")
                .containsEntry("linger.ms", "config file " + file + " key linger.ms");
        assertThat(s.toEnvironment()).containsEntry("RTM_KAFKA_SASL_JAAS_CONFIG", JAAS);
        assertThat(s.principal()).isEqualTo("User:svc (SASL_SSL/SCRAM-SHA-512)");
    }

    @Test
    void shouldReadOnlyPrefixedKeysWhenAPrefixIsGiven(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("service.properties");
        Files.writeString(file, "bootstrap-servers=b:1\nkafka.security.protocol=SSL\n");

        assertThat(KafkaClientSettings.builder().file(file, "kafka.").build().asMap())
                .containsExactly(Map.entry("security.protocol", "SSL"));
    }

    @Test
    void shouldHideEverySecretWhenPrinted() {
        KafkaClientSettings s = KafkaClientSettings.builder()
                .put("sasl.jaas.config", JAAS, "test")
                .put("ssl.truststore.password", "ts-secret", "test")
                .put("ssl.keystore.key", "key-secret", "test")
                .put("sasl.mechanism", "PLAIN", "test")
                .build();

        assertThat(s.toString() + s.redacted())
                .doesNotContain("pw-123-secret", "ts-secret", "key-secret")
                .contains("sasl.mechanism=PLAIN", "sasl.jaas.config=" + KafkaClientSettings.HIDDEN);
        assertThat(KafkaClientSettings.isSecret("ssl.key.password")).isTrue();
        assertThat(KafkaClientSettings.isSecret("ssl.keystore.key"))
                .as("PASSWORD-typed in Kafka")
                .isTrue();
        assertThat(KafkaClientSettings.isSecret("bootstrap.servers")).isFalse();
    }

    @Test
    void shouldNameTheValueAndSourceWhenSettingsAreBad(@TempDir Path dir) {
        assertThatThrownBy(() -> KafkaClientSettings.builder()
                        .environment(Map.of("RTM_KAFKA_SECURITY_PROTOCOL", "TLS")::get)
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'TLS'")
                .hasMessageContaining("RTM_KAFKA_SECURITY_PROTOCOL");
        Path missing = dir.resolve("missing.properties");
        assertThatThrownBy(() -> KafkaClientSettings.builder().file(missing, ""))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(missing.toString());
    }

    @Test
    void shouldNameThePrincipalResourceAndOperationWhenKafkaRefuses() {
        String who = "User:svc (SASL_SSL/PLAIN)";
        assertThat(KafkaAccessException.from(
                                new org.apache.kafka.common.KafkaException(
                                        new GroupAuthorizationException("no", "adattribution")),
                                who,
                                "b:1")
                        .orElseThrow())
                .satisfies(e -> {
                    assertThat(e.kind()).isEqualTo(KafkaAccessException.Kind.AUTHORIZATION);
                    assertThat(e.principal()).isEqualTo(who);
                    assertThat(e.resourceType()).contains("GROUP");
                    assertThat(e.resourceName()).contains("adattribution");
                    assertThat(e.operation()).contains("READ");
                    assertThat(e.getMessage()).contains(who + " may not READ group 'adattribution'");
                });
        assertThat(KafkaAccessException.from(
                                new TopicAuthorizationException(Set.of("ad-clicks", "ad-acks")), who, "b:1")
                        .orElseThrow()
                        .resourceName())
                .contains("ad-acks,ad-clicks");
        assertThat(KafkaAccessException.from(new TransactionalIdAuthorizationException("no"), who, "b:1")
                        .orElseThrow()
                        .resourceType())
                .contains("TRANSACTIONAL_ID");
        assertThat(KafkaAccessException.from(
                                new RuntimeException(new SaslAuthenticationException("Invalid username or password")),
                                who,
                                "b:1")
                        .orElseThrow())
                .satisfies(e -> {
                    assertThat(e.kind()).isEqualTo(KafkaAccessException.Kind.AUTHENTICATION);
                    assertThat(e.getMessage()).startsWith("Kafka login failed at b:1 as " + who);
                });
        assertThat(KafkaAccessException.from(new IllegalStateException("other"), who, "b:1"))
                .isEmpty();
    }
}
