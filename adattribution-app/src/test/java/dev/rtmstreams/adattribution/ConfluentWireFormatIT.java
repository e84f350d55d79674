package dev.rtmstreams.adattribution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.adattribution.avro.AttributedClick;
import dev.rtmstreams.adattribution.avro.Click;
import dev.rtmstreams.adattribution.avro.Impression;
import dev.rtmstreams.adattribution.cli.ConfigResolver;
import dev.rtmstreams.adattribution.cli.ServiceOption;
import dev.rtmstreams.adattribution.model.AvroWire;
import dev.rtmstreams.adattribution.model.ConfluentAvroSerde;
import dev.rtmstreams.adattribution.model.SchemaRegistryClient;
import dev.rtmstreams.adattribution.model.WireFormat;
import dev.rtmstreams.adattribution.pipeline.DeadLetterHeaders;
import dev.rtmstreams.adattribution.pipeline.Events;
import dev.rtmstreams.testkit.EmbeddedKafkaCluster;
import dev.rtmstreams.testkit.SchemaRegistryStandIn;
import dev.rtmstreams.testkit.TestRecords;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end with {@code --wire-format confluent}: a real embedded KRaft broker, the service configured from its
 * options (registry credentials from the environment), and {@link SchemaRegistryStandIn} as the registry. The
 * stand-in is an in-process HTTP server implementing the documented subset of the Schema Registry REST API, NOT a
 * real Schema Registry (none can run here without a container engine).
 */
class ConfluentWireFormatIT {

    @Test
    void shouldAttributeConfluentFramedClicksAndDeadLetterAnUnknownSchemaIdWhenRunWithConfluentWire(@TempDir Path dir)
            throws Exception {
        try (EmbeddedKafkaCluster kafka = EmbeddedKafkaCluster.builder().build().start();
                SchemaRegistryStandIn registry = SchemaRegistryStandIn.start().basicAuth("rtm", "s3cret")) {
            kafka.createTopics(1, "ad-impressions", "ad-clicks", "ad-requests", "ad-acks");
            Map<ServiceOption, String> cli = new EnumMap<>(ServiceOption.class);
            cli.put(ServiceOption.BOOTSTRAP_SERVERS, kafka.bootstrapServers());
            cli.put(ServiceOption.APPLICATION_ID, "adattribution-confluent-it");
            cli.put(ServiceOption.STATE_DIR, dir.resolve("state").toString());
            cli.put(ServiceOption.CREATE_TOPICS, "true");
            cli.put(ServiceOption.CHECKPOINT_INTERVAL, "PT1S");
            cli.put(ServiceOption.HTTP_PORT, "-1");
            cli.put(ServiceOption.WIRE_FORMAT, "confluent");
            cli.put(ServiceOption.SCHEMA_REGISTRY_URL, registry.url());
            Map<String, String> env = Map.of(
                    ConfigResolver.SCHEMA_REGISTRY_USER_ENV, "rtm",
                    ConfigResolver.SCHEMA_REGISTRY_PASSWORD_ENV, "s3cret");
            AppConfig config = new ConfigResolver(env::get).resolve(cli, null).config();
            assertThat(config.wireFormat()).isEqualTo(WireFormat.CONFLUENT);

            AvroWire producer = AvroWire.confluent(SchemaRegistryClient.builder(registry.url())
                    .basicAuth("rtm", "s3cret")
                    .build());
            long t0 = System.currentTimeMillis();
            byte[] unknownId = {0, 0, 0, 0x7f, 0, 2, 'x'};
            List<ProducerRecord<String, byte[]>> records = List.of(
                    new ProducerRecord<>(
                            "ad-impressions",
                            null,
                            t0,
                            "imp-1",
                            producer.serde(Impression.class, "ad-impressions").encode(Events.impression("imp-1", t0))),
                    new ProducerRecord<>("ad-clicks", null, t0, "imp-1", unknownId),
                    new ProducerRecord<>(
                            "ad-clicks",
                            null,
                            t0,
                            "imp-1",
                            producer.serde(Click.class, "ad-clicks").encode(Events.click("c-1", "imp-1", t0 + 1000))));

            try (AdAttributionService service = new AdAttributionService(config)) {
                service.start();
                TestRecords.produce(kafka, records, new StringSerializer(), new ByteArraySerializer());

                List<ConsumerRecord<String, byte[]>> out = TestRecords.consume(
                        kafka,
                        "attributed-clicks",
                        1,
                        Duration.ofSeconds(60),
                        new StringDeserializer(),
                        new ByteArrayDeserializer());
                List<ConsumerRecord<String, byte[]>> dead = TestRecords.consume(
                        kafka,
                        "adattribution-dlq",
                        1,
                        Duration.ofSeconds(30),
                        new StringDeserializer(),
                        new ByteArrayDeserializer());

                assertThat(out).hasSize(1);
                byte[] bytes = out.get(0).value();
                assertThat(bytes[0]).isZero(); // the output is Confluent-framed too
                assertThat(producer.registry()
                                .orElseThrow()
                                .latest("attributed-clicks-value")
                                .id())
                        .isEqualTo(ConfluentAvroSerde.schemaIdOf(bytes));
                AttributedClick a = producer.serde(AttributedClick.class, "attributed-clicks")
                        .decode(bytes);
                assertThat(a.getClickId()).isEqualTo("c-1");
                assertThat(a.getImpressionId()).isEqualTo("imp-1");
                assertThat(dead).singleElement().satisfies(r -> {
                    assertThat(r.value()).isEqualTo(unknownId);
                    assertThat(new String(
                                    r.headers()
                                            .lastHeader(DeadLetterHeaders.ERROR_CODE)
                                            .value(),
                                    StandardCharsets.UTF_8))
                            .isEqualTo("AVRO_DECODE_UNKNOWN_SCHEMA");
                });
            }
        }
    }
}
