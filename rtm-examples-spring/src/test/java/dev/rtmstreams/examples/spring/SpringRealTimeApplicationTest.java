package dev.rtmstreams.examples.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.rtmstreams.testkit.EmbeddedKafkaCluster;
import dev.rtmstreams.testkit.TestRecords;
import dev.rtmstreams.topology.EpochProgress;
import dev.rtmstreams.topology.InsufficientSlotsException;
import dev.rtmstreams.topology.RtmStreams;
import dev.rtmstreams.topology.SourceProgress;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.MapPropertySource;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;
import org.springframework.kafka.config.StreamsBuilderFactoryBeanConfigurer;

/**
 * Spring for Apache Kafka runs a real-time topology: Spring's factory bean creates, starts and stops the Kafka Streams
 * instance, rtm-streams' trigger, slot check and epochs apply to it. Against an embedded KRaft broker.
 */
class SpringRealTimeApplicationTest {

    private static EmbeddedKafkaCluster kafka;

    @BeforeAll
    static void startKafka() {
        kafka = EmbeddedKafkaCluster.builder().brokers(1).build().start();
    }

    @AfterAll
    static void stopKafka() {
        if (kafka != null) {
            kafka.close();
        }
    }

    /** Records the state changes Spring's own state listener (set on the factory bean) sees. */
    @Configuration
    static class SpringStateListener {
        static final List<KafkaStreams.State> STATES = new CopyOnWriteArrayList<>();

        @Bean
        StreamsBuilderFactoryBeanConfigurer recordStates() {
            return factoryBean -> factoryBean.setStateListener((newState, oldState) -> STATES.add(newState));
        }
    }

    private static AnnotationConfigApplicationContext context(String appId, String input, String output)
            throws Exception {
        Map<String, Object> props = new HashMap<>();
        props.put("bootstrap.servers", kafka.bootstrapServers());
        props.put("rtm.example.application-id", appId);
        props.put("rtm.example.input", input);
        props.put("rtm.example.output", output);
        props.put(
                "rtm.example.state-dir",
                Files.createTempDirectory("rtm-spring-").toString());
        AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();
        context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("test", props));
        context.register(SpringRealTimeApplication.class, SpringStateListener.class);
        return context;
    }

    private static long inputRows(List<EpochProgress> epochs, String topic) {
        return epochs.stream()
                .map(e -> e.sources().get(topic))
                .filter(java.util.Objects::nonNull)
                .mapToLong(SourceProgress::numInputRows)
                .sum();
    }

    private static List<ConsumerRecord<String, Long>> consume(String topic, int n) {
        Map<String, Object> config = new HashMap<>(kafka.clientConfig());
        config.put("group.id", "spring-test-reader-" + topic);
        config.put("auto.offset.reset", "earliest");
        List<ConsumerRecord<String, Long>> out = new ArrayList<>();
        try (KafkaConsumer<String, Long> c =
                new KafkaConsumer<>(config, new StringDeserializer(), new LongDeserializer())) {
            c.subscribe(List.of(topic));
            long deadline = System.currentTimeMillis() + 30_000;
            while (out.size() < n && System.currentTimeMillis() < deadline) {
                c.poll(Duration.ofMillis(200)).forEach(out::add);
            }
        }
        return out;
    }

    @Test
    void shouldRunTheTopologyInRealTimeModeWhenSpringCreatesStartsAndStopsKafkaStreams() throws Exception {
        kafka.createTopic("spring-clicks", 2);
        kafka.createTopic("spring-click-counts", 2);
        SpringStateListener.STATES.clear();
        AnnotationConfigApplicationContext context =
                context("spring-click-counts-app", "spring-clicks", "spring-click-counts");
        context.refresh(); // Spring starts Kafka Streams (auto-startup)
        RtmStreams rtm =
                context.getBean(RealTimeStreamsCustomizer.class).rtmStreams().orElseThrow();
        StreamsBuilderFactoryBean factoryBean = context.getBean(StreamsBuilderFactoryBean.class);
        assertThat(factoryBean.getKafkaStreams()).isSameAs(rtm.kafkaStreams());
        assertThat(rtm.trigger().isRealTime()).isTrue();
        await().atMost(Duration.ofSeconds(60)).until(() -> rtm.state() == KafkaStreams.State.RUNNING);

        List<ProducerRecord<String, String>> clicks = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            clicks.add(new ProducerRecord<>("spring-clicks", "ad-" + (i % 5), "click-" + i));
        }
        TestRecords.produce(kafka, clicks, new StringSerializer(), new StringSerializer());
        List<ConsumerRecord<String, Long>> counts = consume("spring-click-counts", 50);

        // real-time: one output per click, each key counting 1..10 in order
        assertThat(counts).hasSize(50);
        Map<String, List<Long>> perKey = new HashMap<>();
        counts.forEach(
                r -> perKey.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(r.value()));
        assertThat(perKey).hasSize(5);
        assertThat(perKey.values())
                .allSatisfy(v -> assertThat(v).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L));
        assertThat(SpringStateListener.STATES)
                .as("Spring's own state listener, beside rtm-streams'")
                .contains(KafkaStreams.State.RUNNING);

        context.close(); // Spring stops Kafka Streams (5-minute checkpoints: the only epoch closes now)

        assertThat(rtm.state()).isEqualTo(KafkaStreams.State.NOT_RUNNING);
        await().atMost(Duration.ofSeconds(10)).until(() -> inputRows(rtm.recentProgress(), "spring-clicks") == 50);
        assertThat(rtm.recentProgress())
                .allSatisfy(e -> assertThat(e.applicationId()).isEqualTo("spring-click-counts-app"));
    }

    @Test
    void shouldRefuseToStartWhenSpringStartsAnUndersizedRealTimeDeployment() throws Exception {
        kafka.createTopic("spring-wide-clicks", 6); // 6 tasks for 2 stream threads
        kafka.createTopic("spring-wide-counts", 1);
        AnnotationConfigApplicationContext context =
                context("spring-undersized-app", "spring-wide-clicks", "spring-wide-counts");

        assertThatThrownBy(context::refresh)
                .rootCause()
                .isInstanceOf(InsufficientSlotsException.class)
                .hasMessageContaining("6");
        context.close();
    }
}
