package dev.rtmstreams.adattribution.workload;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.adattribution.avro.Click;
import dev.rtmstreams.adattribution.model.AvroWire;
import dev.rtmstreams.adattribution.model.ConfluentAvroSerde;
import dev.rtmstreams.adattribution.model.SchemaRegistryClient;
import dev.rtmstreams.testkit.SchemaRegistryStandIn;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The generator's codec in Confluent's framing, against {@link SchemaRegistryStandIn} (a stand-in, not a registry). */
class AvroCodecTest {

    @Test
    void shouldEncodeConfluentFramedClicksUnderTheTopicSubjectWhenWireIsConfluent() {
        try (SchemaRegistryStandIn registry = SchemaRegistryStandIn.start()) {
            AvroWire wire = AvroWire.confluent(
                    SchemaRegistryClient.builder(registry.url()).build());
            AvroCodec codec = new AvroCodec(wire, TopicNames.DEFAULTS);
            List<Event> events = WorkloadGenerator.generate(
                    WorkloadConfig.builder()
                            .rate(100)
                            .duration(java.time.Duration.ofSeconds(2))
                            .build(),
                    0L);
            Event click = events.stream()
                    .filter(e -> e.kind() == EventKind.CLICK)
                    .findFirst()
                    .orElseThrow();

            byte[] bytes = codec.value(click);

            assertThat(bytes[0]).isZero();
            assertThat(ConfluentAvroSerde.schemaIdOf(bytes)).isPositive();
            assertThat(registry.requests("POST /subjects/" + TopicNames.DEFAULTS.clicks() + "-value/versions"))
                    .isEqualTo(1);
            Click decoded =
                    wire.serde(Click.class, TopicNames.DEFAULTS.clicks()).decode(bytes);
            assertThat(decoded.getClickId()).isEqualTo(click.id());
            assertThat(codec.echo(null, bytes, 0L).identity()).isEqualTo(click.id());
        }
    }
}
