package dev.rtmstreams.adattribution.pipeline;

import dev.rtmstreams.processor.StateReader;
import java.util.Map;
import java.util.function.UnaryOperator;

/** The service's transformWithState operators whose state can be read, and how to decode it. */
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
}
