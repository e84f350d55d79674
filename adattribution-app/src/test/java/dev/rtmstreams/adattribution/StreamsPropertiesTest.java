package dev.rtmstreams.adattribution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rtmstreams.topology.RocksDbBoundedMemory;
import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;

class StreamsPropertiesTest {

    private static AppConfigBuilder config() {
        return AppConfig.builder().bootstrapServers("b:9092");
    }

    @Test
    void shouldBoundRocksDbMemoryOfAllStoresToTheDefaultWhenNothingIsSet() {
        Properties p = new AdAttributionService(config().build()).streamsProperties();

        assertThat(p.get(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG))
                .isEqualTo(RocksDbBoundedMemory.class.getName());
        assertThat(p.get(RocksDbBoundedMemory.TOTAL_MEMORY_BYTES_CONFIG))
                .isEqualTo(Long.toString(AppConfig.DEFAULT_ROCKSDB_MEMORY_BYTES));
    }

    @Test
    void shouldLeaveKafkaStreamsDefaultsWhenRocksDbMemoryIsZeroOrTheUserNamesAConfigSetter() {
        Properties unbounded =
                new AdAttributionService(config().rocksDbMemoryBytes(0).build()).streamsProperties();
        Properties own = new AdAttributionService(
                        config().kafkaOverride(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG, "com.example.MySetter")
                                .build())
                .streamsProperties();

        assertThat(unbounded)
                .doesNotContainKeys(
                        StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG,
                        RocksDbBoundedMemory.TOTAL_MEMORY_BYTES_CONFIG);
        assertThat(own.get(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG)).isEqualTo("com.example.MySetter");
        assertThat(own).doesNotContainKey(RocksDbBoundedMemory.TOTAL_MEMORY_BYTES_CONFIG);
    }

    @Test
    void shouldRejectARocksDbMemoryBelowTheMinimumNamingTheValue() {
        assertThatThrownBy(() -> config().rocksDbMemoryBytes(1000).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("rocksdb-memory")
                .hasMessageContaining("1000");
    }
}
