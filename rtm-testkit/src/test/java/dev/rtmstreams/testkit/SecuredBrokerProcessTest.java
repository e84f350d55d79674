package dev.rtmstreams.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

class SecuredBrokerProcessTest {

    @Test
    void shouldAuthenticateOverSaslSslAndEnforceAclsWhenSecured() throws Exception {
        BrokerSecurity security = BrokerSecurity.saslSslPlain()
                .user("alice", "alice-pw")
                .user("bob", "bob-pw")
                .build();
        try (KafkaBrokerProcess broker =
                EmbeddedKafkaCluster.childProcess().security(security).build().start()) {
            // the helpers act as the super user
            broker.createTopics(1, "granted", "secret");
            TestRecords.produceStrings(broker, "secret", List.of(Map.entry("k", "v")));
            broker.createAcls(List.of(
                    allow("alice", ResourceType.TOPIC, "granted", AclOperation.WRITE),
                    allow("alice", ResourceType.TOPIC, "granted", AclOperation.READ),
                    allow("alice", ResourceType.GROUP, "alice-group", AclOperation.READ)));

            Map<String, Object> alice = broker.clientConfig("alice");
            assertThat(alice)
                    .containsEntry("security.protocol", "SASL_SSL")
                    .containsEntry("sasl.mechanism", "PLAIN")
                    .containsKey("ssl.truststore.location");
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                    with(alice, Map.of(ProducerConfig.MAX_BLOCK_MS_CONFIG, 20_000)),
                    new StringSerializer(),
                    new StringSerializer())) {
                producer.send(new ProducerRecord<>("granted", "k", "hello")).get(20, TimeUnit.SECONDS);
                assertThatThrownBy(() -> producer.send(new ProducerRecord<>("secret", "k", "no"))
                                .get(20, TimeUnit.SECONDS))
                        .hasCauseInstanceOf(TopicAuthorizationException.class);
            }
            // the same user over SCRAM-SHA-512 (credentials added when the log directory was formatted), and a wrong
            // SCRAM password refused
            Map<String, Object> aliceScram = new java.util.HashMap<>(alice);
            aliceScram.putAll(broker.clientSecurityConfig("alice", "alice-pw", BrokerSecurity.SCRAM_MECHANISM));
            assertThat(aliceScram).containsEntry("sasl.mechanism", "SCRAM-SHA-512");
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                    with(aliceScram, Map.of(ProducerConfig.MAX_BLOCK_MS_CONFIG, 20_000)),
                    new StringSerializer(),
                    new StringSerializer())) {
                producer.send(new ProducerRecord<>("granted", "k", "over scram"))
                        .get(20, TimeUnit.SECONDS);
            }
            Map<String, Object> wrongScram = new java.util.HashMap<>(alice);
            wrongScram.putAll(broker.clientSecurityConfig("alice", "not-alice-pw", BrokerSecurity.SCRAM_MECHANISM));
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                    with(wrongScram, Map.of(ProducerConfig.MAX_BLOCK_MS_CONFIG, 20_000)),
                    new StringSerializer(),
                    new StringSerializer())) {
                Throwable refused = org.assertj.core.api.Assertions.catchThrowable(
                        () -> producer.send(new ProducerRecord<>("granted", "k", "no"))
                                .get(20, TimeUnit.SECONDS));
                assertThat(java.util.stream.Stream.iterate(refused, java.util.Objects::nonNull, Throwable::getCause))
                        .as("%s", refused)
                        .anyMatch(t -> t instanceof org.apache.kafka.common.errors.SaslAuthenticationException);
            }
            try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(
                    with(
                            alice,
                            Map.of(
                                    ConsumerConfig.GROUP_ID_CONFIG,
                                    "alice-group",
                                    ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                                    "earliest")),
                    new StringDeserializer(),
                    new StringDeserializer())) {
                consumer.subscribe(List.of("granted"));
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                ConsumerRecords<String, String> records = ConsumerRecords.empty();
                while (records.isEmpty() && System.nanoTime() < deadline) {
                    records = consumer.poll(Duration.ofMillis(500));
                }
                assertThat(records.iterator().next().value()).isEqualTo("hello");
            }

            // bob has no ACL: he logs in but may not even see the topics
            try (Admin bob = Admin.create(broker.clientConfig("bob"))) {
                assertThat(bob.listTopics().names().get(20, TimeUnit.SECONDS)).isEmpty();
                assertThatThrownBy(() -> bob.describeTopics(List.of("granted"))
                                .allTopicNames()
                                .get(20, TimeUnit.SECONDS))
                        .isInstanceOf(ExecutionException.class)
                        .hasCauseInstanceOf(TopicAuthorizationException.class);
            }
            // a wrong password fails the login itself
            Map<String, Object> wrong = new java.util.HashMap<>(Map.of("bootstrap.servers", broker.bootstrapServers()));
            wrong.putAll(broker.clientSecurityConfig("alice", "not-alice-pw"));
            try (Admin admin = Admin.create(wrong)) {
                assertThatThrownBy(() -> admin.describeCluster().nodes().get(20, TimeUnit.SECONDS))
                        .hasCauseInstanceOf(SaslAuthenticationException.class);
            }
        }
    }

    @Test
    void shouldRejectBadUsersAndPasswordsNamingThemWhenBuilt() {
        assertThatThrownBy(() -> BrokerSecurity.saslSslPlain().user("a b", "pw").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'a b'");
        assertThatThrownBy(() ->
                        BrokerSecurity.saslSslPlain().user("carol", "p\"w").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'carol'")
                .hasMessageNotContaining("p\"w");
        assertThatThrownBy(
                        () -> BrokerSecurity.saslSslPlain().user("admin", "x").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'admin' is the admin user");
        assertThatThrownBy(() -> BrokerSecurity.saslSslPlain().build().password("dave"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'dave'");
        assertThat(BrokerSecurity.saslSslPlain()
                        .user("eve", "eve-pw-42")
                        .build()
                        .toString())
                .contains("eve")
                .doesNotContain("eve-pw-42", "admin-secret");
    }

    private static AclBinding allow(String user, ResourceType type, String name, AclOperation op) {
        return new AclBinding(
                new ResourcePattern(type, name, PatternType.LITERAL),
                new AccessControlEntry(BrokerSecurity.principal(user), "*", op, AclPermissionType.ALLOW));
    }

    private static Map<String, Object> with(Map<String, Object> base, Map<String, Object> extra) {
        Map<String, Object> m = new java.util.HashMap<>(base);
        m.putAll(extra);
        return m;
    }
}
