package dev.rtmstreams.processor.spi;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The supported range and the version on the classpath. */
class KafkaStreamsVersionTest {

    @Test
    void shouldSupportExactlyKafkaStreams41To44() {
        assertThat(KafkaStreamsVersion.SUPPORTED_RANGE).isEqualTo("4.1 to 4.4");
        for (String v : new String[] {"4.1.0", "4.1.2", "4.2.2", "4.3.2", "4.4.0", "4.4.1-SNAPSHOT"}) {
            assertThat(KafkaStreamsVersion.isSupported(v)).as(v).isTrue();
        }
        for (String v : new String[] {"4.0.2", "3.9.1", "4.5.0", "5.0.0", "unknown", "", "x.y"}) {
            assertThat(KafkaStreamsVersion.isSupported(v)).as(v).isFalse();
        }
        assertThat(KafkaStreamsVersion.isSupported(null)).isFalse();
    }

    @Test
    void shouldReadTheVersionOfTheKafkaStreamsOnTheClasspath() {
        String v = KafkaStreamsVersion.current();

        assertThat(v).isNotEqualTo("unknown").matches("\\d+\\.\\d+\\.\\d+.*");
        assertThat(KafkaStreamsVersion.isSupported(v)).as(v).isTrue();
        // the build's kafka.version, whichever of the matrix runs (ops/compat-matrix.sh)
        String built = System.getProperty("rtm.expected.kafka.version");
        if (built != null && !built.isBlank()) {
            assertThat(v).isEqualTo(built);
        }
    }
}
