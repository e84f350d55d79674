package dev.rtmstreams.adattribution.model;

import java.util.Objects;
import java.util.Optional;
import org.apache.avro.specific.SpecificRecord;

/**
 * The wire format of a deployment, as one value: hands out the {@link AvroWireSerde} of a record type on a topic.
 * Code that reads or writes topics takes an {@code AvroWire} and never asks which format it is.
 *
 * <pre>{@code
 * AvroWire wire = AvroWire.confluent(SchemaRegistryClient.builder("http://registry:8081").build());
 * AvroWireSerde<Click> clicks = wire.serde(Click.class, "ad-clicks"); // subject ad-clicks-value
 * }</pre>
 *
 * Immutable and thread-safe.
 */
public final class AvroWire {

    private static final AvroWire SINGLE_OBJECT = new AvroWire(WireFormat.SINGLE_OBJECT, null);

    private final WireFormat format;
    private final SchemaRegistryClient registry;

    private AvroWire(WireFormat format, SchemaRegistryClient registry) {
        this.format = format;
        this.registry = registry;
    }

    /** @return Avro single-object encoding, no registry (the default) */
    public static AvroWire singleObject() {
        return SINGLE_OBJECT;
    }

    /**
     * Returns Confluent's framing with schemas in a registry.
     *
     * @param registry the registry; not null (one client per deployment, so its caches are shared)
     * @return the wire
     */
    public static AvroWire confluent(SchemaRegistryClient registry) {
        return new AvroWire(WireFormat.CONFLUENT, Objects.requireNonNull(registry, "registry"));
    }

    /** @return the format; never null */
    public WireFormat format() {
        return format;
    }

    /** @return the registry of the Confluent format; empty for single-object */
    public Optional<SchemaRegistryClient> registry() {
        return Optional.ofNullable(registry);
    }

    /**
     * Returns the value serde of a record type on a topic; with Confluent's framing its schema lives under the
     * subject {@code <topic>-value} (Confluent's default TopicNameStrategy).
     *
     * @param type the generated class; not null
     * @param topic the topic; not null
     * @param <T> the record type
     * @return a new serde
     */
    public <T extends SpecificRecord> AvroWireSerde<T> serde(Class<T> type, String topic) {
        Objects.requireNonNull(topic, "topic");
        return format == WireFormat.SINGLE_OBJECT
                ? AvroSerde.of(type)
                : ConfluentAvroSerde.of(type, topic + "-value", registry);
    }

    @Override
    public String toString() {
        return registry == null ? format.configValue() : format.configValue() + " " + registry;
    }
}
