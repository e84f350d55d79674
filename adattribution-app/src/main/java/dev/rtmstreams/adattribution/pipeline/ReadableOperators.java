package dev.rtmstreams.adattribution.pipeline;

import dev.rtmstreams.adattribution.AppConfig;
import dev.rtmstreams.adattribution.avro.Click;
import dev.rtmstreams.adattribution.avro.Impression;
import dev.rtmstreams.adattribution.model.AvroWire;
import dev.rtmstreams.adattribution.model.AvroWireSerde;
import dev.rtmstreams.join.IntervalJoin;
import dev.rtmstreams.join.JoinStateReader;
import dev.rtmstreams.processor.StateReader;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.UnaryOperator;

/** The service's operators whose state can be read, and how to decode it. */
public final class ReadableOperators {

    private ReadableOperators() {}

    /** @return operator name to the decoders of its state variables (keys are strings: transaction ids) */
    public static Map<String, UnaryOperator<StateReader>> all() {
        return Map.of(
                AdAttributionTopology.CORRELATION_NAME,
                r -> r.withDeserializer("request", CorrelationEvent.serde().deserializer())
                        .withDeserializer(
                                "pendingAcks", CorrelationEvent.serde().deserializer()));
    }

    /**
     * A join of the service whose state can be read.
     *
     * @param join the join as the service's topology builds it (names, serdes, watermark delays)
     * @param decoders decode its rows: the impressions and clicks themselves (Avro records, printed as JSON text)
     */
    public record ReadableJoin(IntervalJoin<String, ?, ?> join, UnaryOperator<JoinStateReader> decoders) {}

    /**
     * @param config the service's configuration (watermark delay, attribution window, wire format)
     * @return join name to the join and its decoders (keys are strings: impression ids)
     */
    public static Map<String, ReadableJoin> joins(AppConfig config) {
        AvroWire wire = AdAttributionTopology.wire(config);
        AvroWireSerde<Impression> impressions =
                wire.serde(Impression.class, config.topics().impressions());
        AvroWireSerde<Click> clicks = wire.serde(Click.class, config.topics().clicks());
        return Map.of(
                AdAttributionTopology.JOIN_NAME,
                new ReadableJoin(
                        AdAttributionTopology.clickAttribution(config, impressions, clicks),
                        r -> r.withDeserializer(
                                        JoinStateReader.JoinSide.LEFT, (topic, bytes) -> impressions.decode(bytes))
                                .withDeserializer(
                                        JoinStateReader.JoinSide.RIGHT, (topic, bytes) -> clicks.decode(bytes))));
    }

    /** @return the names of every readable operator: the transformWithState operators and the join, sorted */
    public static Set<String> names() {
        Set<String> names = new TreeSet<>(all().keySet());
        names.add(AdAttributionTopology.JOIN_NAME);
        return names;
    }
}
