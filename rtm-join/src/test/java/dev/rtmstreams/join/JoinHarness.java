package dev.rtmstreams.join;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.function.Consumer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.test.TestRecord;

/**
 * TopologyTestDriver fixture: String keys, String values, event time = record timestamp unless the builder says
 * otherwise; output value = {@code left + "," + right} (null sides printed as {@code null}).
 */
final class JoinHarness implements AutoCloseable {

    static final String NAME = "j";
    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    final TopologyTestDriver driver;
    final TestInputTopic<String, String> left;
    final TestInputTopic<String, String> right;
    final TestOutputTopic<String, String> out;
    final TestOutputTopic<String, byte[]> late;
    final IntervalJoin<String, String, String> join;

    JoinHarness(Consumer<IntervalJoin.Builder<String, String, String>> config) {
        this(config, new Properties());
    }

    JoinHarness(Consumer<IntervalJoin.Builder<String, String, String>> config, Properties extra) {
        IntervalJoin.Builder<String, String, String> b = IntervalJoin.<String, String, String>builder()
                .keySerde(Serdes.String())
                .leftSerde(Serdes.String())
                .rightSerde(Serdes.String())
                .name(NAME)
                .lateRecordsTopic("late");
        config.accept(b);
        join = b.build();
        StreamsBuilder sb = new StreamsBuilder();
        KStream<String, String> l = sb.stream("left", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> r = sb.stream("right", Consumed.with(Serdes.String(), Serdes.String()));
        join.join(l, r, (k, lv, rv) -> lv + "," + rv).to("out", Produced.with(Serdes.String(), Serdes.String()));
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "join-test");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "dummy:9092");
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir());
        p.putAll(extra);
        driver = new TopologyTestDriver(sb.build(), p, T0);
        left = driver.createInputTopic(
                "left", Serdes.String().serializer(), Serdes.String().serializer());
        right = driver.createInputTopic(
                "right", Serdes.String().serializer(), Serdes.String().serializer());
        out = driver.createOutputTopic(
                "out", Serdes.String().deserializer(), Serdes.String().deserializer());
        late = driver.createOutputTopic(
                "late", Serdes.String().deserializer(), Serdes.ByteArray().deserializer());
    }

    private static String stateDir() {
        try {
            return java.nio.file.Files.createTempDirectory("rtm-join-test").toString();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static long t(Duration d) {
        return T0.plus(d).toEpochMilli();
    }

    void left(String key, String value, long ts) {
        left.pipeInput(key, value, ts);
    }

    void right(String key, String value, long ts) {
        right.pipeInput(key, value, ts);
    }

    List<String> outValues() {
        List<String> values = new ArrayList<>();
        for (TestRecord<String, String> r : out.readRecordsToList()) {
            values.add(r.value());
        }
        return values;
    }

    long storeSize(String storeName) {
        KeyValueStore<Bytes, byte[]> store = driver.getKeyValueStore(storeName);
        long n = 0;
        try (KeyValueIterator<Bytes, byte[]> it = store.all()) {
            while (it.hasNext()) {
                it.next();
                n++;
            }
        }
        return n;
    }

    /** Counts the entries of a buffer store whose key starts with {@code prefix} (0 = rows, 1 = time index). */
    long bufferEntries(String storeName, int prefix) {
        KeyValueStore<Bytes, byte[]> store = driver.getKeyValueStore(storeName);
        long n = 0;
        try (KeyValueIterator<Bytes, byte[]> it = store.all()) {
            while (it.hasNext()) {
                if (it.next().key.get()[0] == prefix) {
                    n++;
                }
            }
        }
        return n;
    }

    /** @return the left buffer's rows, of either layout (plain row keys, or segmented with {@code SEGMENTS}) */
    long leftRows() {
        return bufferEntries(join.leftBufferStoreName(), 0) + bufferEntries(join.leftBufferStoreName(), 4);
    }

    /** @return the right buffer's rows, of either layout */
    long rightRows() {
        return bufferEntries(join.rightBufferStoreName(), 0) + bufferEntries(join.rightBufferStoreName(), 4);
    }

    /** @return the left buffer's rows keyed by time segment ({@code EvictionIndex.SEGMENTS}) */
    long leftSegmentRows() {
        return bufferEntries(join.leftBufferStoreName(), 4);
    }

    /** @return whether the topology has a store of this name */
    boolean hasStore(String storeName) {
        return driver.getAllStateStores().containsKey(storeName);
    }

    /** Index entries in the left side's local index store (the buffer store itself must hold none). */
    long leftIndexEntries() {
        if (bufferEntries(join.leftBufferStoreName(), 1) != 0) {
            throw new AssertionError("index entries in the left buffer store");
        }
        return bufferEntries(NAME + "-left-index", 1);
    }

    /** Index entries in the right side's local index store (the buffer store itself must hold none). */
    long rightIndexEntries() {
        if (bufferEntries(join.rightBufferStoreName(), 1) != 0) {
            throw new AssertionError("index entries in the right buffer store");
        }
        return bufferEntries(NAME + "-right-index", 1);
    }

    /** @return the records a store's changelog topic received so far (read once: the topic is consumed) */
    List<TestRecord<byte[], byte[]>> changelog(String storeName) {
        return driver.createOutputTopic(
                        "join-test-" + storeName + "-changelog",
                        Serdes.ByteArray().deserializer(),
                        Serdes.ByteArray().deserializer())
                .readRecordsToList();
    }

    /** @return the heap bytes of the join's time indexes ({@link IntervalJoin#timeIndexBytes}) */
    long timeIndexBytes() {
        return IntervalJoin.timeIndexBytes(driver.metrics(), NAME);
    }

    long lateCount() {
        return IntervalJoin.lateRecordsTotal(driver.metrics(), NAME);
    }

    void tick(Duration wallClock) {
        driver.advanceWallClockTime(wallClock);
    }

    @Override
    public void close() {
        driver.close();
    }
}
