package dev.rtmstreams.join.internals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rtmstreams.processor.spi.KafkaStreamsVersion;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.KStream;
import org.junit.jupiter.api.Test;

/** Pins the Kafka Streams internals rtm-join reaches into to the versions they were verified with. */
class KafkaStreamsInternalsTest {

    @Test
    void shouldRunOnAKafkaStreamsVersionTheInternalsWereVerifiedWith() {
        // Upgrading Kafka? Check KafkaStreamsInternals against the new KStreamImpl/AbstractStream, run the version
        // matrix (ops/compat-matrix.sh), then widen KafkaStreamsVersion's range and update VERIFIED_KAFKA_VERSION.
        assertThat(KafkaStreamsVersion.isSupported(KafkaStreamsVersion.current()))
                .as("Kafka Streams %s in %s", KafkaStreamsVersion.current(), KafkaStreamsVersion.SUPPORTED_RANGE)
                .isTrue();
        assertThat(KafkaStreamsVersion.isSupported(KafkaStreamsInternals.VERIFIED_KAFKA_VERSION))
                .isTrue();
    }

    @Test
    void shouldTellAKeyChangedStreamFromASourceStream() {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> source = b.stream("in");
        assertThat(KafkaStreamsInternals.repartitionRequired(source)).isFalse();
        assertThat(KafkaStreamsInternals.repartitionRequired(source.selectKey((k, v) -> v)))
                .isTrue();
        assertThat(KafkaStreamsInternals.repartitionRequired(source.mapValues(v -> v)))
                .isFalse();
        KafkaStreamsInternals.ensureCopartitioned(source, b.stream("other"));
    }

    @Test
    void shouldFailClosedNamingTheWayOutWhenAStreamIsNotKafkaStreamsOwn() {
        KStream<String, String> foreign = java.lang.reflect.Proxy.newProxyInstance(
                                KStream.class.getClassLoader(), new Class<?>[] {KStream.class}, (p, m, a) -> null)
                        instanceof KStream<?, ?> k
                ? castStream(k)
                : null;
        assertThatThrownBy(() -> KafkaStreamsInternals.repartitionRequired(foreign))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("repartitionIfKeyChanged(false)")
                .hasMessageContaining(KafkaStreamsInternals.VERIFIED_KAFKA_VERSION);
    }

    @SuppressWarnings("unchecked")
    private static KStream<String, String> castStream(KStream<?, ?> k) {
        return (KStream<String, String>) k;
    }
}
