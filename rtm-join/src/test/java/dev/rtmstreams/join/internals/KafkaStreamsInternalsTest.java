package dev.rtmstreams.join.internals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.kafka.common.utils.internals.AppInfoParser;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.KStream;
import org.junit.jupiter.api.Test;

/** Pins the Kafka Streams internals rtm-join reaches into to the version they were verified with. */
class KafkaStreamsInternalsTest {

    @Test
    void shouldRunOnTheKafkaStreamsVersionTheInternalsWereVerifiedWith() {
        // Upgrading Kafka? Check KafkaStreamsInternals against the new KStreamImpl/AbstractStream, then update this.
        assertThat(AppInfoParser.getVersion()).isEqualTo(KafkaStreamsInternals.VERIFIED_KAFKA_VERSION);
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
