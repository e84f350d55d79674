package dev.rtmstreams.adattribution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.adattribution.avro.AttributedClick;
import dev.rtmstreams.adattribution.model.AdAttributionSerdes;
import dev.rtmstreams.adattribution.pipeline.Events;
import dev.rtmstreams.testkit.EmbeddedKafkaCluster;
import dev.rtmstreams.testkit.KafkaBrokerProcess;
import dev.rtmstreams.testkit.TestRecords;
import dev.rtmstreams.tools.ChildJvm;
import dev.rtmstreams.tools.LocalHttp;
import dev.rtmstreams.tools.Ports;
import dev.rtmstreams.tools.Readiness;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.FinalizedVersionRange;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The service (Kafka 4.x clients) against brokers of two versions: Kafka 3.9, whose transactions run protocol 1
 * ({@code transaction.version} below 2: the producer adds each partition to the transaction with a separate request
 * before writing), and the 4.x broker of the clients, which runs protocol 2 (the partition joins the transaction with
 * the write). Each broker is a child JVM formatted with its own defaults, the 3.9 one on the class path that module
 * {@code rtm-testkit-broker-3.9} resolves (system property {@value #BROKER_39_CLASSPATH}). For each broker and each
 * guarantee the service attributes {@value #CLICKS} clicks and every expected output arrives; under exactly-once a
 * {@code read_committed} reader sees each exactly once; under at-least-once each at least once (duplicates are
 * counted and printed). The commit duration quantiles the service reports are printed per broker (docs/brokers.md).
 */
class BrokerVersionsIT {

    /** System property naming the file that holds the Kafka 3.9 broker's class path. */
    static final String BROKER_39_CLASSPATH = "broker39.classpath.file";

    private static final int CLICKS = 200;
    private static final Pattern COMMIT_QUANTILE =
            Pattern.compile("rtm_commit_duration_us\\{[^}]*quantile=\"(0\\.5|0\\.99)\"[^}]*} ([0-9.eE+-]+)");
    private static final Map<String, KafkaBrokerProcess> BROKERS = new LinkedHashMap<>();

    @AfterAll
    static void stopBrokers() {
        BROKERS.values().forEach(KafkaBrokerProcess::close);
    }

    private static KafkaBrokerProcess broker(String version) throws Exception {
        KafkaBrokerProcess running = BROKERS.get(version);
        if (running != null) {
            return running;
        }
        KafkaBrokerProcess.Builder b = EmbeddedKafkaCluster.childProcess();
        if (version.startsWith("3.9")) {
            b.classpath(broker39Classpath());
        }
        KafkaBrokerProcess broker = b.build().start();
        BROKERS.put(version, broker);
        broker.createTopics(1, "ad-impressions", "ad-clicks", "ad-requests", "ad-acks");
        return broker;
    }

    /** The 3.9 broker jars, then rtm-testkit's own classes (the child's main class) after them. */
    private static String broker39Classpath() throws Exception {
        String file = System.getProperty(BROKER_39_CLASSPATH);
        assertThat(file)
                .as(
                        "system property %s (set by failsafe; build module rtm-testkit-broker-3.9 first)",
                        BROKER_39_CLASSPATH)
                .isNotNull();
        String jars = Files.readString(Path.of(file)).trim();
        assertThat(jars).contains("kafka_2.13-3.9");
        Path testkit = Path.of(KafkaBrokerProcess.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .toURI());
        return jars + File.pathSeparator + testkit;
    }

    /** The finalized {@code transaction.version} feature level, 0 when the broker finalizes none. */
    private static int transactionVersion(KafkaBrokerProcess broker) throws Exception {
        try (Admin admin = broker.createAdminClient()) {
            FinalizedVersionRange tv = admin.describeFeatures()
                    .featureMetadata()
                    .get(30, TimeUnit.SECONDS)
                    .finalizedFeatures()
                    .get("transaction.version");
            return tv == null ? 0 : tv.maxVersionLevel();
        }
    }

    @ParameterizedTest(name = "broker {0}, {1}")
    @CsvSource({
        "3.9.1, exactly_once_v2, 1",
        "3.9.1, at_least_once, 1",
        "4.4.0, exactly_once_v2, 2",
        "4.4.0, at_least_once, 2"
    })
    void shouldAttributeEveryClickWithTheGuaranteeWhenTheBrokerRunsThisTransactionProtocol(
            String version, String guarantee, int protocol, @TempDir Path dir) throws Exception {
        KafkaBrokerProcess broker = broker(version);
        int tv = transactionVersion(broker);
        if (protocol == 2) {
            assertThat(tv).as("transaction.version of broker %s", version).isEqualTo(2);
        } else {
            assertThat(tv).as("transaction.version of broker %s", version).isLessThan(2);
        }

        String run = version.replace('.', '_') + "-" + guarantee;
        int port = Ports.freePort();
        ChildJvm service = ServiceLauncher.service()
                .args(List.of(
                        "run",
                        "--bootstrap-servers",
                        broker.bootstrapServers(),
                        "--application-id",
                        "adattribution-" + run,
                        "--state-dir",
                        dir.resolve("state").toString(),
                        "--processing-guarantee",
                        guarantee,
                        "--create-topics",
                        "--checkpoint-interval",
                        "PT1S",
                        "--http-port",
                        Integer.toString(port)))
                .logFile(dir.resolve("service.log"))
                .readiness(Readiness.health(port))
                .build()
                .start();
        try {
            service.awaitReady(ServiceLauncher.READY_TIMEOUT);
            long t0 = System.currentTimeMillis();
            List<ProducerRecord<String, byte[]>> records = new ArrayList<>();
            Set<String> expected = new HashSet<>();
            for (int i = 0; i < CLICKS; i++) {
                String imp = "imp-" + run + "-" + i;
                String click = "c-" + run + "-" + i;
                records.add(new ProducerRecord<>(
                        "ad-impressions", null, t0, imp, Events.encode(Events.impression(imp, t0))));
                records.add(new ProducerRecord<>(
                        "ad-clicks", null, t0, imp, Events.encode(Events.click(click, imp, t0 + 1000))));
                expected.add(imp + "/" + click);
            }
            TestRecords.produce(broker, records, new StringSerializer(), new ByteArraySerializer());

            List<String> attributed = attributed(broker, run, expected.size(), Duration.ofSeconds(90));
            Thread.sleep(2000); // a duplicate would arrive by now
            attributed = attributed(broker, run, Integer.MAX_VALUE, Duration.ofSeconds(3));

            assertThat(new HashSet<>(attributed))
                    .as("log:%n%s", service.tail(40))
                    .isEqualTo(expected);
            int duplicates = attributed.size() - expected.size();
            if (guarantee.startsWith("exactly_once")) {
                assertThat(attributed)
                        .as("read_committed output under %s", guarantee)
                        .hasSize(expected.size());
            }
            String metrics = LocalHttp.get(port, "/metrics");
            Map<String, String> commit = new LinkedHashMap<>();
            Matcher m = COMMIT_QUANTILE.matcher(metrics);
            while (m.find()) {
                commit.putIfAbsent("p" + (m.group(1).equals("0.5") ? "50" : "99"), m.group(2));
            }
            if (guarantee.startsWith("exactly_once")) {
                assertThat(commit).as("commit duration quantiles on /metrics").containsKeys("p50", "p99");
            }
            System.out.printf(
                    "broker %s (transaction.version %d), %s: %d/%d attributed, %d duplicates, commit duration us %s%n",
                    version, tv, guarantee, new HashSet<>(attributed).size(), expected.size(), duplicates, commit);
        } finally {
            service.stop();
        }
        assertThat(service.stop()).as("exit code; log:%n%s", service.tail(40)).isZero();
    }

    /** This run's attributed clicks on the output topic ({@code read_committed}), as "impression/click". */
    private static List<String> attributed(KafkaBrokerProcess broker, String run, int expected, Duration timeout) {
        List<String> out = new ArrayList<>();
        long deadline = System.nanoTime() + timeout.toNanos();
        do {
            out.clear();
            for (ConsumerRecord<String, byte[]> r : TestRecords.consume(
                    broker,
                    "attributed-clicks",
                    Integer.MAX_VALUE,
                    Duration.ofSeconds(3),
                    new StringDeserializer(),
                    new ByteArrayDeserializer())) {
                AttributedClick a = AdAttributionSerdes.attributedClick().decode(r.value());
                if (a.getImpressionId().toString().contains(run)) {
                    out.add(a.getImpressionId() + "/" + a.getClickId());
                }
            }
        } while (out.size() < expected && expected != Integer.MAX_VALUE && System.nanoTime() < deadline);
        return out;
    }
}
