package dev.rtmstreams.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Materialized;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.Options;

class RocksDbBoundedMemoryTest {

    @TempDir
    java.nio.file.Path stateDir;

    @Test
    void shouldShareOneBoundedCacheWhenStoresOfTheJvmOpen() {
        StreamsBuilder b = new StreamsBuilder();
        b.stream("in", Consumed.with(Serdes.String(), Serdes.String()))
                .groupByKey()
                .count(Materialized.as("counts-a"));
        b.stream("in2", Consumed.with(Serdes.String(), Serdes.String()))
                .groupByKey()
                .count(Materialized.as("counts-b"));
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "rocks-bounded");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        p.put(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG, RocksDbBoundedMemory.class.getName());
        p.put(RocksDbBoundedMemory.TOTAL_MEMORY_BYTES_CONFIG, Long.toString(32L * 1024 * 1024));

        try (TopologyTestDriver driver = new TopologyTestDriver(b.build(), p)) {
            TestInputTopic<String, String> in = driver.createInputTopic(
                    "in", Serdes.String().serializer(), Serdes.String().serializer());
            for (int i = 0; i < 2_000; i++) {
                in.pipeInput("k" + i, "v");
            }
            assertThat(RocksDbBoundedMemory.configuredTotalBytes()).isEqualTo(32L * 1024 * 1024);
            assertThat(RocksDbBoundedMemory.usedBytes()).isPositive().isLessThanOrEqualTo(32L * 1024 * 1024);
        }
    }

    @Test
    void shouldPutSharedCacheIntoEveryStoresOptions() {
        Map<String, Object> cfg = new HashMap<>(Map.of(RocksDbBoundedMemory.TOTAL_MEMORY_BYTES_CONFIG, "33554432"));
        try (Options a = new Options();
                Options c = new Options()) {
            a.setTableFormatConfig(new BlockBasedTableConfig());
            c.setTableFormatConfig(new BlockBasedTableConfig());
            new RocksDbBoundedMemory().setConfig("a", a, cfg);
            new RocksDbBoundedMemory().setConfig("c", c, cfg);

            assertThat(((BlockBasedTableConfig) a.tableFormatConfig()).cacheIndexAndFilterBlocks())
                    .isTrue();
            assertThat(a.writeBufferManager()).isSameAs(c.writeBufferManager()).isNotNull();
        }
    }

    @Test
    void shouldRejectTotalBelowOneMebibyte() {
        try (Options o = new Options()) {
            assertThatThrownBy(() -> new RocksDbBoundedMemory()
                            .setConfig("s", o, Map.of(RocksDbBoundedMemory.TOTAL_MEMORY_BYTES_CONFIG, "1000")))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("1000");
        }
    }
}
