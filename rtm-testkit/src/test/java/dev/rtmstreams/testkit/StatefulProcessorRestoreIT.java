package dev.rtmstreams.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.rtmstreams.processor.ExpiredTimerInfo;
import dev.rtmstreams.processor.ListState;
import dev.rtmstreams.processor.MapState;
import dev.rtmstreams.processor.OutputMode;
import dev.rtmstreams.processor.StatefulProcessor;
import dev.rtmstreams.processor.TimeMode;
import dev.rtmstreams.processor.TimerValues;
import dev.rtmstreams.processor.TransformWithState;
import dev.rtmstreams.processor.TtlConfig;
import dev.rtmstreams.processor.ValueState;
import dev.rtmstreams.tools.Directories;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real KafkaStreams application on a real (in-process KRaft) broker, with RocksDB stores: state, TTL metadata,
 * pending processing-time and event-time timers and the watermark must come back from the changelog after the
 * local state directory is wiped, and the restored timers must fire.
 */
class StatefulProcessorRestoreIT {

    private static final Logger LOG = LoggerFactory.getLogger(StatefulProcessorRestoreIT.class);

    private static final Duration SHORT_TTL = Duration.ofSeconds(2);
    private static final Duration LONG_TTL = Duration.ofMinutes(10);
    /** Long enough not to fire before the first run is stopped, short enough to fire soon after the restart. */
    private static final long TIMER_DELAY_MS = 8_000;

    private static final long FAR_TIMER_DELAY_MS = 600_000;
    private static final long EVENT_TIMER_AT = 20_000;

    private static final String PT_IN = "pt-in";
    private static final String ET_IN = "et-in";
    private static final String OUT = "restore-out";

    /** Which run of the application emitted an output; set by the test before each start. */
    static volatile int run;

    private static EmbeddedKafkaCluster kafka;

    @BeforeAll
    static void startBroker() {
        kafka = EmbeddedKafkaCluster.builder().build().start();
        kafka.createTopics(1, PT_IN, ET_IN, OUT);
    }

    @AfterAll
    static void stopBroker() {
        if (kafka != null) {
            kafka.close();
        }
    }

    /** Processing time: value/list/map state, short and long TTLs, a near and a far processing-time timer. */
    static final class StateProbe extends StatefulProcessor<String, String, String> {
        private ValueState<Long> count;
        private ValueState<String> shortLived;
        private ValueState<String> longLived;
        private ListState<String> items;
        private MapState<String, String> attrs;
        private MapState<String, String> shortAttrs;

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            count = getHandle().getValueState("count", Serdes.Long());
            shortLived = getHandle().getValueState("short", Serdes.String(), TtlConfig.of(SHORT_TTL));
            longLived = getHandle().getValueState("long", Serdes.String(), TtlConfig.of(LONG_TTL));
            items = getHandle().getListState("items", Serdes.String(), TtlConfig.of(LONG_TTL));
            attrs = getHandle().getMapState("attrs", Serdes.String(), Serdes.String(), TtlConfig.of(LONG_TTL));
            shortAttrs =
                    getHandle().getMapState("short-attrs", Serdes.String(), Serdes.String(), TtlConfig.of(SHORT_TTL));
        }

        @Override
        public Iterator<String> handleInputRows(String key, Iterator<String> rows, TimerValues timerValues) {
            List<String> out = new ArrayList<>();
            while (rows.hasNext()) {
                String command = rows.next();
                count.update(count.getOption().orElse(0L) + 1);
                long now = timerValues.getCurrentProcessingTimeInMs();
                if (command.equals("fill")) {
                    shortLived.update("s");
                    longLived.update("l");
                    items.appendValue("a");
                    items.appendValue("b");
                    attrs.updateValue("x", "1");
                    shortAttrs.updateValue("y", "2");
                    getHandle().registerTimer(now + TIMER_DELAY_MS);
                    getHandle().registerTimer(now + FAR_TIMER_DELAY_MS);
                    out.add("filled now=" + now + " run=" + run);
                } else {
                    out.add("probe " + describe() + " run=" + run);
                }
            }
            return out.iterator();
        }

        private String describe() {
            List<String> list = new ArrayList<>();
            items.get().forEachRemaining(list::add);
            Map<String, String> map = new TreeMap<>();
            attrs.iterator().forEachRemaining(e -> map.put(e.getKey(), e.getValue()));
            Map<String, String> shortMap = new TreeMap<>();
            shortAttrs.iterator().forEachRemaining(e -> shortMap.put(e.getKey(), e.getValue()));
            List<Long> timers = new ArrayList<>();
            getHandle().listTimers().forEachRemaining(timers::add);
            timers.sort(null);
            return "count=" + count.get() + " short=" + shortLived.getOption().orElse("-") + " shortExists="
                    + shortLived.exists() + " long=" + longLived.getOption().orElse("-") + " items=" + list + " attrs="
                    + map
                    + " shortAttrs=" + shortMap + " timers=" + timers;
        }

        @Override
        public Iterator<String> handleExpiredTimer(String key, TimerValues timerValues, ExpiredTimerInfo info) {
            return List.of("fired at=" + info.getExpiryTimeInMs() + " run=" + run)
                    .iterator();
        }
    }

    /** Event time: registers event-time timers and reports the watermark it sees. */
    static final class WatermarkProbe extends StatefulProcessor<String, String, String> {
        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            // no state variables: the watermark and the timers live in the operator's store
        }

        @Override
        public Iterator<String> handleInputRows(String key, Iterator<String> rows, TimerValues timerValues) {
            List<String> out = new ArrayList<>();
            while (rows.hasNext()) {
                String command = rows.next();
                if (command.startsWith("timer:")) {
                    getHandle().registerTimer(Long.parseLong(command.substring("timer:".length())));
                }
                List<Long> timers = new ArrayList<>();
                getHandle().listTimers().forEachRemaining(timers::add);
                out.add(command + " wm=" + timerValues.getCurrentWatermarkInMs() + " timers=" + timers + " run=" + run);
            }
            return out.iterator();
        }

        @Override
        public Iterator<String> handleExpiredTimer(String key, TimerValues timerValues, ExpiredTimerInfo info) {
            return List.of("fired at=" + info.getExpiryTimeInMs() + " wm=" + timerValues.getCurrentWatermarkInMs()
                            + " run=" + run)
                    .iterator();
        }
    }

    private KafkaStreams startApp(String applicationId, Path stateDir, AtomicReference<Throwable> failure) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(PT_IN, Consumed.with(Serdes.String(), Serdes.String()))
                .process(
                        TransformWithState.builder(StateProbe::new, TimeMode.PROCESSING_TIME)
                                .name("pt")
                                .keySerde(Serdes.String())
                                .valueSerde(Serdes.String())
                                .build(),
                        Named.as("pt"))
                .mapValues(v -> "pt " + v)
                .to(OUT, Produced.with(Serdes.String(), Serdes.String()));
        builder.stream(ET_IN, Consumed.with(Serdes.String(), Serdes.String()))
                .process(
                        TransformWithState.builder(WatermarkProbe::new, TimeMode.EVENT_TIME)
                                .name("et")
                                .keySerde(Serdes.String())
                                .valueSerde(Serdes.String())
                                .build(),
                        Named.as("et"))
                .mapValues(v -> "et " + v)
                .to(OUT, Produced.with(Serdes.String(), Serdes.String()));

        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        props.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 200);
        props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
        props.put(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), 6_000);
        props.put(StreamsConfig.consumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG), 500);
        KafkaStreams streams = new KafkaStreams(builder.build(), props);
        streams.setUncaughtExceptionHandler(e -> {
            failure.set(e);
            return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        });
        streams.start();
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (streams.state() != KafkaStreams.State.RUNNING) {
            if (failure.get() != null) {
                fail("streams failed to start", failure.get());
            }
            if (System.nanoTime() > deadline) {
                fail("streams not RUNNING within 60 s: " + streams.state());
            }
            sleep(50);
        }
        return streams;
    }

    private static void stopApp(KafkaStreams streams) {
        // KafkaStreams.CloseOptions: the close options of every supported Kafka Streams (4.1 has no other)
        @SuppressWarnings("deprecation")
        KafkaStreams.CloseOptions leave =
                new KafkaStreams.CloseOptions().leaveGroup(true).timeout(Duration.ofSeconds(30));
        streams.close(leave);
    }

    @Test
    void shouldRestoreStateTtlTimersAndWatermarkFromChangelogWhenLocalStateIsWiped(@TempDir Path dir) throws Exception {
        String applicationId = "restore-it-" + UUID.randomUUID().toString().substring(0, 8);
        Path stateDir = dir.resolve("state");
        AtomicReference<Throwable> failure = new AtomicReference<>();
        long t0 = System.nanoTime();

        // ---- run 1: fill state, register timers, advance the watermark to 12 000
        run = 1;
        KafkaStreams first = startApp(applicationId, stateDir, failure);
        TestRecords.produceStrings(kafka, PT_IN, List.of(Map.entry("k1", "fill"), Map.entry("k1", "probe")));
        TestRecords.produce(
                kafka,
                List.of(
                        new ProducerRecord<>(ET_IN, null, 10_000L, "e1", "timer:" + EVENT_TIMER_AT),
                        new ProducerRecord<>(ET_IN, null, 12_000L, "e1", "probe")),
                new StringSerializer(),
                new StringSerializer());
        List<String> run1 = values(TestRecords.consumeStrings(kafka, OUT, 4, Duration.ofSeconds(30)));
        stopApp(first);
        assertThat(failure.get()).isNull();
        LOG.info("run 1 done after {} ms: {}", ms(t0), run1);

        String filled = single(run1, "pt filled");
        long fillTime = Long.parseLong(group(filled, "now=(\\d+)"));
        assertThat(single(run1, "pt probe"))
                .contains(
                        "count=2",
                        "short=s",
                        "shortExists=true",
                        "long=l",
                        "items=[a, b]",
                        "attrs={x=1}",
                        "shortAttrs={y=2}",
                        "timers=[" + (fillTime + TIMER_DELAY_MS) + ", " + (fillTime + FAR_TIMER_DELAY_MS) + "]");
        assertThat(single(run1, "et timer:")).contains("wm=0", "timers=[" + EVENT_TIMER_AT + "]");
        assertThat(single(run1, "et probe")).contains("wm=10000", "timers=[" + EVENT_TIMER_AT + "]");
        assertThat(run1)
                .as("no timer may fire before the stop (else this test proves nothing)")
                .noneMatch(v -> v.contains("fired"));
        assertThat(kafka.endOffsets(applicationId + "-pt-state-changelog").values())
                .allMatch(offset -> offset > 0);
        assertThat(kafka.endOffsets(applicationId + "-et-state-changelog").values())
                .allMatch(offset -> offset > 0);

        // ---- wipe local state: everything must come back from the changelog topics
        Directories.deleteQuietly(stateDir);
        assertThat(stateDir).doesNotExist();
        long untilShortExpired = fillTime + SHORT_TTL.toMillis() + 200 - System.currentTimeMillis();
        if (untilShortExpired > 0) {
            sleep(untilShortExpired);
        }

        // ---- run 2: restore, probe, then advance the watermark past the event-time timer
        run = 2;
        KafkaStreams second = startApp(applicationId, stateDir, failure);
        try {
            assertThat(Files.isDirectory(stateDir)).isTrue();
            TestRecords.produceStrings(kafka, PT_IN, List.of(Map.entry("k1", "probe")));
            TestRecords.produce(
                    kafka,
                    List.of(
                            new ProducerRecord<>(ET_IN, null, 5_000L, "e1", "late"),
                            new ProducerRecord<>(ET_IN, null, 15_000L, "e1", "probe"),
                            new ProducerRecord<>(ET_IN, null, 25_000L, "e1", "advance")),
                    new StringSerializer(),
                    new StringSerializer());
            List<String> all = values(TestRecords.consumeStrings(kafka, OUT, 9, Duration.ofSeconds(45)));
            // 4 outputs of run 1, then 5 of run 2 (the late record must produce none)
            List<String> run2 = all.subList(4, all.size());
            LOG.info("run 2 done after {} ms: {}", ms(t0), run2);
            assertThat(failure.get()).isNull();

            // value/list/map state restored; short-TTL value and map entry stay expired; long-TTL ones live
            assertThat(single(run2, "pt probe"))
                    .contains(
                            "count=3",
                            "short=-",
                            "shortExists=false",
                            "long=l",
                            "items=[a, b]",
                            "attrs={x=1}",
                            "shortAttrs={}",
                            String.valueOf(fillTime + FAR_TIMER_DELAY_MS),
                            "run=2");
            // the near processing-time timer was pending at the stop and fires after the restore, exactly once
            assertThat(all)
                    .filteredOn(v -> v.startsWith("pt fired"))
                    .containsExactly("pt fired at=" + (fillTime + TIMER_DELAY_MS) + " run=2");
            // the watermark (12 000 at the stop) survived: the record at 5 000 is late and dropped
            assertThat(run2).noneMatch(v -> v.startsWith("et late"));
            assertThat(single(run2, "et probe")).contains("wm=12000", "timers=[" + EVENT_TIMER_AT + "]", "run=2");
            assertThat(single(run2, "et advance")).contains("wm=15000", "timers=[" + EVENT_TIMER_AT + "]");
            // the restored event-time timer fires once the watermark passes it
            assertThat(all)
                    .filteredOn(v -> v.startsWith("et fired"))
                    .containsExactly("et fired at=" + EVENT_TIMER_AT + " wm=25000 run=2");
        } finally {
            stopApp(second);
        }
        LOG.info("restore IT took {} ms", ms(t0));
    }

    private static List<String> values(List<ConsumerRecord<String, String>> records) {
        return records.stream().map(ConsumerRecord::value).toList();
    }

    private static String single(List<String> values, String prefix) {
        List<String> matching =
                values.stream().filter(v -> v.startsWith(prefix)).toList();
        assertThat(matching)
                .as("outputs starting with '%s' in %s", prefix, values)
                .hasSize(1);
        return matching.get(0);
    }

    private static String group(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        assertThat(m.find()).as("'%s' in '%s'", regex, text).isTrue();
        return m.group(1);
    }

    private static long ms(long startNanos) {
        return (System.nanoTime() - startNanos) / 1_000_000;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
