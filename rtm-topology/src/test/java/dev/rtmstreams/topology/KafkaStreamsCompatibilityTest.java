package dev.rtmstreams.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.rtmstreams.processor.spi.KafkaInternalHook;
import dev.rtmstreams.processor.spi.KafkaStreamsVersion;
import dev.rtmstreams.topology.internals.compat.HookRegistry;
import dev.rtmstreams.topology.internals.compat.TopologyInternalHooks;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.LoggerFactory;

/**
 * The compatibility check of {@link RtmStreams.Builder#build()}: every Kafka internal hook of the libraries on the
 * classpath (rtm-stateful-processor, rtm-join, rtm-topology) is there on this Kafka Streams; a missing one (its probe
 * replaced by one that fails, as a missing class or field would) stops the build with the hook, the version found and
 * the supported range, or with {@code rtm.compatibility.check=warn} logs the feature that is unavailable.
 */
class KafkaStreamsCompatibilityTest {

    /** Every hook the libraries declare; a new hook must be added here (and to docs/compatibility.md). */
    static final List<String> ALL_HOOKS = List.of(
            "kafka-streams.version",
            "processor.store-layers",
            "processor.batching-restore",
            "join.repartition-required",
            "join.copartition-group",
            TopologyInternalHooks.CONSUMER_WRAPPER,
            TopologyInternalHooks.REPARTITION_COUNTS,
            TopologyInternalHooks.CLOSE);

    @TempDir
    Path stateDir;

    private int built;
    private RtmStreams rtm;
    private final ListAppender<ILoggingEvent> logs = new ListAppender<>();

    @AfterEach
    void close() {
        if (rtm != null) {
            rtm.close(Duration.ZERO);
        }
        ((Logger) LoggerFactory.getLogger(HookRegistry.class)).detachAppender(logs);
    }

    static Stream<String> hooks() {
        return ALL_HOOKS.stream();
    }

    private Properties props(Map<String, String> extra) {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "compat-app");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:1");
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.resolve("s" + built++).toString());
        p.putAll(extra);
        return p;
    }

    private RtmStreams.Builder builder(Map<String, String> extra) {
        return RtmStreams.builder(SlotAccountingTest.seedTopologyWithExplicitShuffle(), props(extra))
                .partitionCounts(Map.of("payments", 1));
    }

    private static KafkaInternalHook.Probe missing(String what) {
        return () -> {
            throw new ClassNotFoundException(what);
        };
    }

    @Test
    void shouldFindEveryLibrarysHooksAndAllOfThemOnThisKafkaStreams() {
        HookRegistry registry = HookRegistry.discover();

        assertThat(registry.hooks()).extracting(KafkaInternalHook::name).containsExactlyInAnyOrderElementsOf(ALL_HOOKS);
        for (KafkaInternalHook h : registry.hooks()) {
            assertThat(h.check()).as(h.name()).isNull();
        }
        assertThat(registry.verify(HookRegistry.Mode.FAIL)).isEmpty();
        assertThat(KafkaStreamsVersion.isSupported(KafkaStreamsVersion.current()))
                .as(KafkaStreamsVersion.current())
                .isTrue();
    }

    @ParameterizedTest
    @MethodSource("hooks")
    void shouldRefuseToBuildNamingTheHookTheVersionAndTheRangeWhenAHookIsMissing(String hook) {
        HookRegistry registry = HookRegistry.discover().withProbe(hook, missing("simulated.Missing"));

        assertThatThrownBy(() -> rtm = builder(Map.of()).hookRegistry(registry).build())
                .isInstanceOfSatisfying(KafkaStreamsCompatibilityException.class, e -> {
                    assertThat(e.errorCode()).isEqualTo(KafkaStreamsCompatibilityException.ERROR_CODE);
                    assertThat(e.parameters())
                            .containsEntry("hooks", hook)
                            .containsEntry("kafkaStreamsVersion", KafkaStreamsVersion.current())
                            .containsEntry("supportedRange", "4.1 to 4.4");
                    assertThat(e.getMessage())
                            .contains(hook, KafkaStreamsVersion.current(), "4.1 to 4.4", "rtm.compatibility.check=warn")
                            .contains("simulated.Missing");
                });
    }

    @ParameterizedTest
    @MethodSource("hooks")
    void shouldBuildAndWarnNamingTheUnavailableFeatureWhenTheUserOptsOut(String hook) {
        ((Logger) LoggerFactory.getLogger(HookRegistry.class)).addAppender(logs);
        logs.start();
        HookRegistry registry = HookRegistry.discover().withProbe(hook, missing("simulated.Missing"));
        String feature = registry.hooks().stream()
                .filter(h -> h.name().equals(hook))
                .findFirst()
                .orElseThrow()
                .feature();

        rtm = builder(Map.of(KafkaStreamsCompatibilityException.CHECK_CONFIG, "warn"))
                .hookRegistry(registry)
                .build();

        assertThat(rtm.unavailableFeatures()).containsExactly(feature);
        assertThat(logs.list)
                .filteredOn(e -> e.getLevel() == Level.WARN)
                .extracting(ILoggingEvent::getFormattedMessage)
                .singleElement()
                .satisfies(m -> assertThat(m).contains(hook, feature, KafkaStreamsVersion.current(), "4.1 to 4.4"));
    }

    @Test
    void shouldNameEveryMissingHookAtOnce() {
        HookRegistry registry = HookRegistry.discover()
                .withProbe("join.copartition-group", missing("a"))
                .withProbe(TopologyInternalHooks.CLOSE, missing("b"));

        assertThatThrownBy(() -> rtm = builder(Map.of()).hookRegistry(registry).build())
                .isInstanceOfSatisfying(
                        KafkaStreamsCompatibilityException.class,
                        e -> assertThat(e.parameters().get("hooks").split(","))
                                .containsExactlyInAnyOrder("join.copartition-group", TopologyInternalHooks.CLOSE));
    }

    @Test
    void shouldRejectAnUnknownCheckModeNamingIt() {
        assertThatThrownBy(() -> rtm = builder(Map.of(KafkaStreamsCompatibilityException.CHECK_CONFIG, "ignore"))
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("rtm.compatibility.check")
                .hasMessageContaining("ignore");
    }

    @Test
    void shouldSeeTheConsumerWrapperTakeEffectUnderTheStreamsProtocol() {
        rtm = builder(Map.of(
                        StreamsConfig.GROUP_PROTOCOL_CONFIG, "streams", StreamsConfig.NUM_STREAM_THREADS_CONFIG, "2"))
                .build();

        assertThat(rtm.unavailableFeatures()).isEmpty();
        assertThat(rtm.state()).isEqualTo(KafkaStreams.State.CREATED);
    }

    @Test
    void shouldRefuseToBuildAndCloseKafkaStreamsWhenTheConsumerWrapperDidNotTakeEffect() {
        HookRegistry registry = HookRegistry.discover().withEffect(TopologyInternalHooks.CONSUMER_WRAPPER, () -> {
            throw new IllegalStateException("Kafka Streams built 1 stream thread(s) but wrapped 0");
        });

        assertThatThrownBy(() -> rtm = builder(Map.of(StreamsConfig.GROUP_PROTOCOL_CONFIG, "streams"))
                        .hookRegistry(registry)
                        .build())
                .isInstanceOfSatisfying(
                        KafkaStreamsCompatibilityException.class,
                        e -> assertThat(e.parameters()).containsEntry("hooks", TopologyInternalHooks.CONSUMER_WRAPPER));
    }

    @Test
    void shouldNotCheckTheWrappersEffectUnderTheClassicProtocol() {
        HookRegistry registry = HookRegistry.discover().withEffect(TopologyInternalHooks.CONSUMER_WRAPPER, () -> {
            throw new IllegalStateException("not asked under the classic protocol");
        });

        rtm = builder(Map.of()).hookRegistry(registry).build();

        assertThat(rtm.unavailableFeatures()).isEmpty();
    }

    @Test
    void shouldRefuseToReplaceAHookThatDoesNotExist() {
        assertThatThrownBy(() -> HookRegistry.discover().withProbe("no.such-hook", () -> {}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no.such-hook");
    }
}
