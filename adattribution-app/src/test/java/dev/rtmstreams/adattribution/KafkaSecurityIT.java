package dev.rtmstreams.adattribution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.adattribution.avro.AttributedClick;
import dev.rtmstreams.adattribution.model.AdAttributionSerdes;
import dev.rtmstreams.adattribution.model.KafkaClientSettings;
import dev.rtmstreams.adattribution.pipeline.Events;
import dev.rtmstreams.testkit.BrokerSecurity;
import dev.rtmstreams.testkit.EmbeddedKafkaCluster;
import dev.rtmstreams.testkit.KafkaBrokerProcess;
import dev.rtmstreams.testkit.TestRecords;
import dev.rtmstreams.tools.ChildJvm;
import dev.rtmstreams.tools.Ports;
import dev.rtmstreams.tools.Readiness;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The service against a secured broker (a child-JVM KRaft broker with a {@code SASL_SSL} listener, {@code PLAIN} and
 * {@code SCRAM-SHA-512} (the mechanism docs/security.md recommends),
 * {@code StandardAuthorizer}, no access without an ACL): with exactly the ACLs of the Security page (docs/security.md)
 * (parsed from its {@code kafka-acls.sh} commands, so the page and this test cannot drift apart) it attributes a
 * click, under exactly-once and under at-least-once; its log never holds the password; a wrong password or a missing ACL stops it at start
 * with a non-zero exit and one line naming what is wrong, and so does a missing group ACL, which only Kafka Streams
 * meets (in a stream thread), instead of a retry loop.
 */
class KafkaSecurityIT {

    private static final String SERVICE_USER = "adattribution";
    private static final String SERVICE_PASSWORD = "svc-Pa55-7f3e9c";
    private static final String NO_CLICKS_USER = "adattribution-noclicks";
    private static final String NO_CLICKS_PASSWORD = "noclicks-Pa55-41d2";
    private static final String NO_GROUP_USER = "adattribution-nogroup";
    private static final String NO_GROUP_PASSWORD = "nogroup-Pa55-77c1";
    private static final Duration EXIT_BOUND = Duration.ofSeconds(60);

    private static KafkaBrokerProcess broker;

    @BeforeAll
    static void startSecuredBroker() throws Exception {
        broker = EmbeddedKafkaCluster.childProcess()
                .security(BrokerSecurity.saslSslPlain()
                        .user(SERVICE_USER, SERVICE_PASSWORD)
                        .user(NO_CLICKS_USER, NO_CLICKS_PASSWORD)
                        .user(NO_GROUP_USER, NO_GROUP_PASSWORD)
                        .build())
                .build()
                .start();
        broker.createTopics(
                1,
                "ad-impressions",
                "ad-clicks",
                "ad-requests",
                "ad-acks",
                "attributed-clicks",
                "ad-log-records",
                "adattribution-dlq");
        List<AclBinding> documented = documentedAcls();
        List<AclBinding> all = new ArrayList<>(documented);
        // two more principals with the same ACLs but one: no READ on ad-clicks (the start-up check finds it), no
        // READ on the group (only Kafka Streams finds it, in a stream thread)
        all.addAll(copy(
                documented,
                NO_CLICKS_USER,
                b -> b.pattern().resourceType() == ResourceType.TOPIC
                        && b.pattern().name().equals("ad-clicks")
                        && b.entry().operation() == AclOperation.READ));
        all.addAll(copy(documented, NO_GROUP_USER, b -> b.pattern().resourceType() == ResourceType.GROUP));
        broker.createAcls(all);
    }

    private static List<AclBinding> copy(List<AclBinding> acls, String user, Predicate<AclBinding> leaveOut) {
        List<AclBinding> copies = new ArrayList<>();
        for (AclBinding b : acls) {
            if (!leaveOut.test(b)) {
                copies.add(new AclBinding(
                        b.pattern(),
                        new AccessControlEntry(
                                BrokerSecurity.principal(user),
                                b.entry().host(),
                                b.entry().operation(),
                                b.entry().permissionType())));
            }
        }
        assertThat(copies).as("ACLs of %s", user).hasSizeLessThan(acls.size());
        return copies;
    }

    @AfterAll
    static void stopBroker() {
        if (broker != null) {
            broker.close();
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"exactly_once_v2, PLAIN", "at_least_once, PLAIN", "at_least_once, SCRAM-SHA-512"})
    void shouldAttributeAClickWithExactlyTheReadmeAclsAndNeverLogThePasswordWhenRunOverSaslSsl(
            String guarantee, String mechanism, @TempDir Path dir) throws Exception {
        int port = Ports.freePort();
        Path log = dir.resolve("service.log");
        String impression = "imp-" + guarantee + "-" + mechanism;
        String click = "c-" + guarantee + "-" + mechanism;
        ChildJvm service = launchOver(
                        mechanism,
                        dir,
                        log,
                        SERVICE_USER,
                        SERVICE_PASSWORD,
                        "--processing-guarantee",
                        guarantee,
                        "--http-port",
                        Integer.toString(port))
                .readiness(Readiness.health(port))
                .build()
                .start();
        try {
            service.awaitReady(ServiceLauncher.READY_TIMEOUT);
            long t0 = System.currentTimeMillis();
            TestRecords.produce(
                    broker,
                    List.of(
                            new ProducerRecord<>(
                                    "ad-impressions",
                                    null,
                                    t0,
                                    impression,
                                    Events.encode(Events.impression(impression, t0))),
                            new ProducerRecord<>(
                                    "ad-clicks",
                                    null,
                                    t0,
                                    impression,
                                    Events.encode(Events.click(click, impression, t0 + 1000)))),
                    new StringSerializer(),
                    new ByteArraySerializer());
            List<String> attributed = new ArrayList<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!attributed.contains(impression + "/" + click) && System.nanoTime() < deadline) {
                // the topic is shared by both runs: read all of it, look for this run's click
                attributed.clear();
                for (ConsumerRecord<String, byte[]> r : TestRecords.consume(
                        broker,
                        "attributed-clicks",
                        Integer.MAX_VALUE,
                        Duration.ofSeconds(3),
                        new StringDeserializer(),
                        new ByteArrayDeserializer())) {
                    AttributedClick a = AdAttributionSerdes.attributedClick().decode(r.value());
                    attributed.add(a.getImpressionId() + "/" + a.getClickId());
                }
            }
            assertThat(attributed).as("log:%n%s", service.tail(60)).contains(impression + "/" + click);
        } finally {
            service.stop(); // SIGTERM: graceful shutdown (SIGKILL after 60 s)
        }
        assertThat(service.stop()).as("log:%n%s", service.tail(60)).isZero();
        String text = Files.readString(log, StandardCharsets.UTF_8);
        assertThat(text)
                .as("the start-up config line, with the secrets hidden")
                .contains("event=config", "sasl.jaas.config=" + KafkaClientSettings.HIDDEN);
        assertNoSecretIn(log, SERVICE_PASSWORD);
    }

    @Test
    void shouldExitNonZeroNamingThePrincipalWhenThePasswordIsWrong(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("service.log");
        String wrong = "wrong-Pa55-0c8e";
        int exit = awaitExit(launch(dir, log, SERVICE_USER, wrong, "--http-port", "-1"));

        assertThat(exit).isNotZero();
        assertThat(Files.readString(log, StandardCharsets.UTF_8))
                .contains("Failed to start: Kafka login failed at " + broker.bootstrapServers() + " as User:"
                        + SERVICE_USER);
        assertNoSecretIn(log, wrong);
    }

    @Test
    void shouldExitNonZeroNamingTheTopicWhenAnAclIsMissing(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("service.log");
        int exit = awaitExit(launch(dir, log, NO_CLICKS_USER, NO_CLICKS_PASSWORD, "--http-port", "-1"));

        assertThat(exit).isNotZero();
        assertThat(Files.readString(log, StandardCharsets.UTF_8))
                .contains("Failed to start: Kafka denied access: User:" + NO_CLICKS_USER + " (SASL_SSL/PLAIN) may not"
                        + " READ topic 'ad-clicks'");
        assertNoSecretIn(log, NO_CLICKS_PASSWORD);
    }

    @Test
    void shouldExitNonZeroNamingTheGroupWhenKafkaStreamsIsRefusedItsGroup(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("service.log");
        int exit = awaitExit(launch(dir, log, NO_GROUP_USER, NO_GROUP_PASSWORD, "--http-port", "-1"));

        assertThat(exit).isNotZero();
        assertThat(Files.readString(log, StandardCharsets.UTF_8))
                .contains("Failed: Kafka denied access: User:" + NO_GROUP_USER + " (SASL_SSL/PLAIN) may not READ"
                        + " group 'adattribution'");
        assertNoSecretIn(log, NO_GROUP_PASSWORD);
    }

    /**
     * Runs the service as {@code user}: the non-secret client settings in its config file ({@code kafka.*} keys),
     * the secrets in {@code RTM_KAFKA_*} environment variables, as a container would get them.
     *
     * @return the child, to add a readiness check to, build and start
     */
    private static ChildJvm.Builder launch(Path dir, Path log, String user, String password, String... extraArgs)
            throws Exception {
        return launchOver(BrokerSecurity.MECHANISM, dir, log, user, password, extraArgs);
    }

    private static ChildJvm.Builder launchOver(
            String mechanism, Path dir, Path log, String user, String password, String... extraArgs) throws Exception {
        Map<String, String> security = broker.clientSecurityConfig(user, password, mechanism);
        Map<String, String> env = new LinkedHashMap<>();
        StringBuilder file = new StringBuilder();
        security.forEach((k, v) -> {
            if (KafkaClientSettings.isSecret(k)) {
                env.put(KafkaClientSettings.envVar(k), v);
            } else {
                file.append("kafka.")
                        .append(k)
                        .append('=')
                        .append(v.replace("\\", "\\\\"))
                        .append('\n');
            }
        });
        assertThat(env).containsKeys("RTM_KAFKA_SASL_JAAS_CONFIG", "RTM_KAFKA_SSL_TRUSTSTORE_PASSWORD");
        Path config = dir.resolve("service.properties");
        Files.writeString(config, file.toString(), StandardCharsets.UTF_8);
        List<String> args = new ArrayList<>(List.of(
                "run",
                "--config",
                config.toString(),
                "--bootstrap-servers",
                broker.bootstrapServers(),
                "--state-dir",
                dir.resolve("state").toString(),
                "--checkpoint-interval",
                "PT1S",
                "--http-bind-address",
                "127.0.0.1"));
        args.addAll(List.of(extraArgs));
        return ServiceLauncher.service().args(args).environment(env).logFile(log);
    }

    private static int awaitExit(ChildJvm.Builder service) throws InterruptedException {
        ChildJvm jvm = service.build().start();
        OptionalInt exit = jvm.awaitExit(EXIT_BOUND);
        if (exit.isEmpty()) {
            jvm.kill();
        }
        assertThat(exit)
                .as("the service stops by itself within %s; log:%n%s", EXIT_BOUND, jvm.tail(60))
                .isPresent();
        return exit.getAsInt();
    }

    private static void assertNoSecretIn(Path log, String password) throws Exception {
        String truststorePassword = broker.clientSecurityConfig(SERVICE_USER).get("ssl.truststore.password");
        List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        assertThat(lines).isNotEmpty();
        for (String line : lines) {
            assertThat(line).doesNotContain(password).doesNotContain(truststorePassword);
        }
    }

    /** The {@code kafka-acls.sh --add} commands of the Security page, {@code docs/security.md}, as ACL bindings. */
    static List<AclBinding> documentedAcls() throws Exception {
        Path root = Path.of(System.getProperty("user.dir")).toAbsolutePath();
        Path page = Files.exists(root.resolve("docs/security.md")) && Files.exists(root.resolve("adattribution-app"))
                ? root.resolve("docs/security.md")
                : root.getParent().resolve("docs/security.md");
        assertThat(page).as("the Security page").isRegularFile();
        String section = Files.readString(page, StandardCharsets.UTF_8).replace("\\\n", " ");
        List<AclBinding> acls = new ArrayList<>();
        Matcher m = Pattern.compile("(?m)^kafka-acls\\.sh .*--add .*$").matcher(section);
        while (m.find()) {
            acls.addAll(parseAclCommand(m.group()));
        }
        assertThat(acls).as("ACLs in docs/security.md").isNotEmpty();
        return acls;
    }

    private static List<AclBinding> parseAclCommand(String command) {
        String[] t = command.trim().split("\\s+");
        String principal = null;
        PatternType patternType = PatternType.LITERAL;
        List<AclOperation> operations = new ArrayList<>();
        List<Map.Entry<ResourceType, String>> resources = new ArrayList<>();
        for (int i = 1; i < t.length; i++) {
            switch (t[i]) {
                case "--allow-principal" -> principal = t[++i];
                case "--operation" ->
                    operations.add(AclOperation.fromString(t[++i].replaceAll("([a-z])([A-Z])", "$1_$2")));
                case "--resource-pattern-type" -> patternType = PatternType.fromString(t[++i].toUpperCase(Locale.ROOT));
                case "--topic" -> resources.add(Map.entry(ResourceType.TOPIC, t[++i]));
                case "--group" -> resources.add(Map.entry(ResourceType.GROUP, t[++i]));
                case "--transactional-id" -> resources.add(Map.entry(ResourceType.TRANSACTIONAL_ID, t[++i]));
                case "--cluster" -> resources.add(Map.entry(ResourceType.CLUSTER, "kafka-cluster"));
                case "--bootstrap-server", "--command-config" -> i++;
                default -> {
                    // --add
                }
            }
        }
        assertThat(principal).as("principal of %s", command).isEqualTo(BrokerSecurity.principal(SERVICE_USER));
        assertThat(operations).as("operations of %s", command).isNotEmpty().doesNotContain(AclOperation.UNKNOWN);
        assertThat(patternType).as("pattern type of %s", command).isNotEqualTo(PatternType.UNKNOWN);
        List<AclBinding> acls = new ArrayList<>();
        for (Map.Entry<ResourceType, String> r : resources) {
            for (AclOperation op : operations) {
                acls.add(new AclBinding(
                        new ResourcePattern(r.getKey(), r.getValue(), patternType),
                        new AccessControlEntry(principal, "*", op, AclPermissionType.ALLOW)));
            }
        }
        return acls;
    }
}
