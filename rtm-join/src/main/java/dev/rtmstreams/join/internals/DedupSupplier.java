package dev.rtmstreams.join.internals;

import dev.rtmstreams.join.Deduplicate;
import dev.rtmstreams.processor.EventTimeExtractor;
import dev.rtmstreams.processor.ExecutionMode;
import dev.rtmstreams.processor.StoreBackend;
import dev.rtmstreams.processor.TimeMode;
import dev.rtmstreams.processor.TransformWithState;
import java.time.Duration;
import java.util.Set;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.StoreBuilder;

/**
 * Processor supplier of {@link Deduplicate}: a {@link TransformWithState} running {@link DedupProcessor} on values
 * stamped with their record timestamp (so event-time extractors that read the record timestamp work in both execution
 * contracts).
 */
public final class DedupSupplier<K, V, ID> implements ProcessorSupplier<K, V, K, V> {

    private final TransformWithState<K, Stamped<V>, V> tws;

    /** Creates the supplier; arguments are validated by {@code Deduplicate.Builder}. */
    public DedupSupplier(
            String name,
            Deduplicate.IdExtractor<K, V, ID> idExtractor,
            Serde<ID> idSerde,
            Duration ttl,
            EventTimeExtractor<K, V> eventTime,
            Duration delay,
            Serde<K> keySerde,
            Serde<V> valueSerde,
            StoreBackend backend,
            ExecutionMode mode) {
        TimeMode timeMode = ttl != null ? TimeMode.PROCESSING_TIME : TimeMode.EVENT_TIME;
        TransformWithState.Builder<K, Stamped<V>, V> b = TransformWithState.<K, Stamped<V>, V>builder(
                        () -> new DedupProcessor<>(idExtractor, idSerde, ttl, eventTime, delay), timeMode)
                .name(name)
                .valueSerde(new Stamped.StampedSerde<>(valueSerde, name))
                .storeBackend(backend);
        if (keySerde != null) {
            b.keySerde(keySerde);
        }
        if (mode != null) {
            b.executionMode(mode);
        }
        if (eventTime != null) {
            b.eventTimeExtractor((k, s, ts) -> eventTime.extract(k, s.value(), s.timestamp()))
                    .watermarkDelay(delay);
        }
        this.tws = b.build();
    }

    /** @return the name of the operator's state store */
    public String storeName() {
        return tws.storeName();
    }

    @Override
    public Processor<K, V, K, V> get() {
        Processor<K, Stamped<V>, K, V> inner = tws.get();
        return new Processor<>() {
            @Override
            public void init(ProcessorContext<K, V> context) {
                inner.init(context);
            }

            @Override
            public void process(Record<K, V> record) {
                inner.process(record.withValue(new Stamped<>(record.value(), record.timestamp())));
            }

            @Override
            public void close() {
                inner.close();
            }
        };
    }

    @Override
    public Set<StoreBuilder<?>> stores() {
        return tws.stores();
    }
}
