package dev.rtmstreams.processor.avro;

import static dev.rtmstreams.processor.avro.AvroSchemaEvolutionTest.INT;
import static dev.rtmstreams.processor.avro.AvroSchemaEvolutionTest.PROFILE_ADDED;
import static dev.rtmstreams.processor.avro.AvroSchemaEvolutionTest.PROFILE_V1;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.rtmstreams.processor.StateReader;
import dev.rtmstreams.processor.avro.Profiles.Version;
import dev.rtmstreams.testkit.EmbeddedKafkaCluster;
import dev.rtmstreams.testkit.TestRecords;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A schema change rolled through a running group on a real broker: two instances run schema v1 of a value state; one
 * is bounced onto v2 (a field added with a default), so for a while an instance that writes v2 and one that still
 * reads and writes v1 share the tasks; the v2 instance leaves for a while and the v1 instance takes over the tasks
 * it wrote (v1 reads v2's rows: the change is backward and forward compatible), restoring them from the changelog;
 * then the other instance is bounced onto v2 too. Every key's count continues exactly through every step
 * (exactly-once), and once both run v2 every profile shows the new field. A change that is not forward compatible
 * (int to long) fails the v1 instance that takes over a v2 task: roll it out in two phases (docs/upgrading.md).
 */
class AvroRollingSchemaChangeTest {

    private static final String APP = "avro-rolling";
    private static final List<String> KEYS = List.of("k0", "k1", "k2", "k3", "k4", "k5");
    private static final Pattern OUTPUT =
            Pattern.compile("(k\\d) profile=(null|\\{\"name\": \"k\\d\", \"visits\": (\\d+)(, \"tier\": \"basic\")?\\})"
                    + " counts=\\{(x=(\\d+)i)?\\}");
    private static EmbeddedKafkaCluster kafka;

    @BeforeAll
    static void startBroker() {
        kafka = EmbeddedKafkaCluster.builder().build().start();
        kafka.createTopics(2, APP + "-in");
        kafka.createTopics(1, APP + "-out");
    }

    @AfterAll
    static void stopBroker() {
        if (kafka != null) {
            kafka.close();
        }
    }

    private static Topology topology(Version version) {
        StreamsBuilder b = new StreamsBuilder();
        b.stream(APP + "-in", Consumed.with(Serdes.String(), Serdes.String()))
                .process(version.operator())
                .to(APP + "-out", Produced.with(Serdes.String(), Serdes.String()));
        return b.build();
    }

    private static KafkaStreams start(Version version, Path stateDir) {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, APP);
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
        p.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "earliest");
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), 6_000);
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG), 1_000);
        KafkaStreams s = new KafkaStreams(topology(version), p);
        s.start();
        return s;
    }

    private static void awaitRunning(KafkaStreams... instances) {
        await().atMost(Duration.ofSeconds(90)).until(() -> {
            for (KafkaStreams s : instances) {
                if (s.state() != KafkaStreams.State.RUNNING) {
                    return false;
                }
            }
            return true;
        });
    }

    /** Sends one row "x" per key and returns every output so far once all of them arrived. */
    private static List<String> round(int expectedTotal) {
        List<Map.Entry<String, String>> rows = new ArrayList<>();
        KEYS.forEach(k -> rows.add(Map.entry(k, "x")));
        TestRecords.produceStrings(kafka, APP + "-in", rows);
        List<ConsumerRecord<String, String>> out =
                TestRecords.consumeStrings(kafka, APP + "-out", expectedTotal, Duration.ofSeconds(90));
        assertThat(out).hasSize(expectedTotal);
        return out.stream().map(ConsumerRecord::value).toList();
    }

    /** Closes {@code old} with an explicit LeaveGroup (so the group rebalances at once) and starts {@code next}. */
    private static KafkaStreams bounce(KafkaStreams old, Version next, Path stateDir) {
        // KafkaStreams.CloseOptions: the close options of every supported Kafka Streams (4.1 has no other)
        @SuppressWarnings("deprecation")
        KafkaStreams.CloseOptions leave =
                new KafkaStreams.CloseOptions().leaveGroup(true).timeout(Duration.ofSeconds(30));
        old.close(leave);
        return start(next, stateDir);
    }

    @Test
    void shouldKeepEveryCountWhenTheSchemaChangeIsRolledThroughTwoInstances() throws IOException {
        Version v1 = Version.of(AvroStateSerde.generic(PROFILE_V1), AvroStateSerde.generic(INT));
        Version v2 = Version.of(AvroStateSerde.generic(PROFILE_ADDED), AvroStateSerde.generic(INT));
        Path dirA = Files.createTempDirectory("rtm-avro-rolling-a");
        Path dirB = Files.createTempDirectory("rtm-avro-rolling-b");
        KafkaStreams a = start(v1, dirA);
        KafkaStreams b = start(v1, dirB);
        try {
            awaitRunning(a, b);
            round(6);
            // B bounced onto v2: A (v1) and B (v2) share the tasks
            b = bounce(b, v2, dirB);
            awaitRunning(a, b);
            List<String> mixed = round(12).subList(6, 12);
            assertThat(mixed).as("rows of both versions in one group").anyMatch(l -> l.contains("tier"));
            assertThat(mixed).anyMatch(l -> l.startsWith("k") && !l.contains("tier"));
            // B leaves for a while: A (v1) takes over B's tasks, whose rows and metadata B wrote in v2
            b.close(Duration.ofSeconds(30));
            awaitRunning(a);
            assertThat(round(18).subList(12, 18))
                    .as("v1 reads the rows v2 wrote (the added field dropped)")
                    .noneMatch(l -> l.contains("tier"));
            b = start(v2, dirB);
            awaitRunning(a, b);
            round(24);
            // A bounced onto v2 too
            a = bounce(a, v2, dirA);
            awaitRunning(a, b);
            List<String> all = round(30);

            Map<String, List<String>> byKey = new LinkedHashMap<>();
            for (String line : all) {
                Matcher m = OUTPUT.matcher(line);
                assertThat(m.matches()).as("output %s", line).isTrue();
                byKey.computeIfAbsent(m.group(1), k -> new ArrayList<>()).add(line);
            }
            for (String k : KEYS) {
                List<String> lines = byKey.get(k);
                assertThat(lines).as("outputs of %s", k).hasSize(5);
                assertThat(lines.get(0)).isEqualTo(k + " profile=null counts={}");
                for (int i = 1; i < 5; i++) {
                    Matcher m = OUTPUT.matcher(lines.get(i));
                    assertThat(m.matches()).isTrue();
                    assertThat(m.group(3))
                            .as("visits of %s in round %s", k, i + 1)
                            .isEqualTo(String.valueOf(i));
                    assertThat(m.group(6))
                            .as("count of %s in round %s", k, i + 1)
                            .isEqualTo(String.valueOf(i));
                }
                assertThat(lines.get(4))
                        .as("both instances on v2")
                        .isEqualTo(k + " profile={\"name\": \"" + k + "\", \"visits\": 4, \"tier\": \"basic\"}"
                                + " counts={x=4i}");
            }
            // the live state through interactive queries (OperatorStateQuery), on whichever instance owns the key
            for (String k : KEYS) {
                byte[] key = k.getBytes(java.nio.charset.StandardCharsets.UTF_8);
                java.util.Optional<StateReader.KeyState> state = java.util.Optional.empty();
                for (KafkaStreams s : List.of(a, b)) {
                    java.util.Optional<StateReader.KeyState> here = StateReader.query(s, "profiles-state", key)
                            .withSerde("profile", AvroStateSerde.generic(PROFILE_ADDED))
                            .withSerde("counts", AvroStateSerde.generic(INT))
                            .read(key);
                    state = here.isPresent() ? here : state;
                }
                assertThat(state).as("state of %s on one of the instances", k).isPresent();
                assertThat(state.get().variables().get("profile").get(0).value().toString())
                        .isEqualTo("{\"name\": \"" + k + "\", \"visits\": 5, \"tier\": \"basic\"}");
                assertThat(state.get().variables().get("counts").get(0).value()).isEqualTo(5);
            }
        } finally {
            a.close(Duration.ofSeconds(30));
            b.close(Duration.ofSeconds(30));
            dev.rtmstreams.tools.Directories.deleteQuietly(dirA);
            dev.rtmstreams.tools.Directories.deleteQuietly(dirB);
        }
    }
}
