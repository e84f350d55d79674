package dev.rtmstreams.processor.testing;

import dev.rtmstreams.processor.TransformWithState;
import dev.rtmstreams.processor.spi.internals.QueryableOperatorStore;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.apache.kafka.common.annotation.InterfaceStability;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.BytesDeserializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorSupplier;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.apache.kafka.streams.processor.api.ProcessingContext;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;

/**
 * A changelog restore for {@link TopologyTestDriver}, which replays no changelog: restarts a
 * {@link TransformWithState} operator in a new driver, on a fresh state directory, with its store rebuilt from the
 * changelog records an earlier driver wrote, as Kafka Streams restores a store before it calls
 * {@code Processor#init}. The operator's processors first write the records into the operator's store, below its
 * change-logging layer (so the restore is not logged again), and only then run their own {@code init}.
 *
 * <pre>{@code
 * List<KeyValue<Bytes, byte[]>> changelog = ChangelogRestore.readChangelog(driver, "app", tws);
 * driver.close();
 * ChangelogRestore restore = new ChangelogRestore(tws, changelog);
 * StreamsBuilder b = new StreamsBuilder();
 * b.stream("in", Consumed.with(Serdes.String(), Serdes.String()))
 *         .process(restore.of(tws), Named.as("tws"))
 *         .to("out", Produced.with(Serdes.String(), Serdes.String()));
 * TopologyTestDriver restarted = new TopologyTestDriver(b.build(), props);  // new state directory, same "app"
 * }</pre>
 *
 * <p>Wrap every supplier of one operator (main, fixed-key, initial-state) with one instance: the first of its
 * processors initialized restores, the others find the store restored. One instance serves one driver; the operator
 * may be another version of the one that wrote the changelog (same name, so the same store), to test state evolution.
 *
 * <p>Not thread-safe (a driver initializes its processors on one thread).
 */
@InterfaceStability.Evolving
public final class ChangelogRestore {

    private final String storeName;
    private final List<KeyValue<Bytes, byte[]>> records;
    private boolean restored;

    /**
     * @param operator the operator whose store to restore; not null
     * @param changelog its changelog records in write order (a null value deletes the key); not null, copied
     */
    public ChangelogRestore(TransformWithState<?, ?, ?> operator, List<KeyValue<Bytes, byte[]>> changelog) {
        this.storeName = Objects.requireNonNull(operator, "operator").storeName();
        this.records = List.copyOf(Objects.requireNonNull(changelog, "changelog"));
    }

    /**
     * Reads the records a driver has written to an operator's changelog topic ({@code <applicationId>-<store
     * name>-changelog}) since the last read: the topic is consumed, so read each record once, before the driver
     * closes.
     *
     * @param driver the running driver; not null
     * @param applicationId the driver's {@code application.id}; not null
     * @param operator the operator; not null
     * @return the records in write order (a null value is a delete); empty when none were written
     */
    public static List<KeyValue<Bytes, byte[]>> readChangelog(
            TopologyTestDriver driver, String applicationId, TransformWithState<?, ?, ?> operator) {
        Objects.requireNonNull(driver, "driver");
        Objects.requireNonNull(applicationId, "applicationId");
        Objects.requireNonNull(operator, "operator");
        return driver.createOutputTopic(
                        applicationId + "-" + operator.storeName() + "-changelog",
                        new BytesDeserializer(),
                        new ByteArrayDeserializer())
                .readKeyValuesToList();
    }

    /**
     * Wraps a processor supplier of the operator.
     *
     * @param supplier the operator ({@code TransformWithState} itself) or its initial-state processor; not null
     * @param <K> the input key type
     * @param <I> the input value type
     * @param <KO> the output key type
     * @param <O> the output value type
     * @return {@code supplier} whose processors restore the store before their {@code init}
     */
    public <K, I, KO, O> ProcessorSupplier<K, I, KO, O> of(ProcessorSupplier<K, I, KO, O> supplier) {
        Objects.requireNonNull(supplier, "supplier");
        return new ProcessorSupplier<>() {
            @Override
            public Processor<K, I, KO, O> get() {
                Processor<K, I, KO, O> p = supplier.get();
                return new Processor<>() {
                    @Override
                    public void init(ProcessorContext<KO, O> context) {
                        restore(context);
                        p.init(context);
                    }

                    @Override
                    public void process(Record<K, I> record) {
                        p.process(record);
                    }

                    @Override
                    public void close() {
                        p.close();
                    }
                };
            }

            @Override
            public Set<StoreBuilder<?>> stores() {
                return supplier.stores();
            }
        };
    }

    /**
     * Wraps a fixed-key processor supplier of the operator.
     *
     * @param supplier the operator as a fixed-key processor ({@code TransformWithState#asFixedKey()}); not null
     * @param <K> the key type
     * @param <I> the input value type
     * @param <O> the output value type
     * @return {@code supplier} whose processors restore the store before their {@code init}
     */
    public <K, I, O> FixedKeyProcessorSupplier<K, I, O> of(FixedKeyProcessorSupplier<K, I, O> supplier) {
        Objects.requireNonNull(supplier, "supplier");
        return new FixedKeyProcessorSupplier<>() {
            @Override
            public FixedKeyProcessor<K, I, O> get() {
                FixedKeyProcessor<K, I, O> p = supplier.get();
                return new FixedKeyProcessor<>() {
                    @Override
                    public void init(FixedKeyProcessorContext<K, O> context) {
                        restore(context);
                        p.init(context);
                    }

                    @Override
                    public void process(FixedKeyRecord<K, I> record) {
                        p.process(record);
                    }

                    @Override
                    public void close() {
                        p.close();
                    }
                };
            }

            @Override
            public Set<StoreBuilder<?>> stores() {
                return supplier.stores();
            }
        };
    }

    private void restore(ProcessingContext context) {
        if (restored) {
            return;
        }
        restored = true;
        // below the change-logging layer (the operator's store has no restore observer, so this is not public API)
        KeyValueStore<Bytes, byte[]> innermost = QueryableOperatorStore.innermost(context.getStateStore(storeName));
        if (innermost == null) {
            throw new IllegalStateException("store " + storeName + " is not a transformWithState operator's store;"
                    + " wrap the suppliers of the operator whose storeName() it is");
        }
        for (KeyValue<Bytes, byte[]> kv : records) {
            if (kv.value == null) {
                innermost.delete(kv.key);
            } else {
                innermost.put(kv.key, kv.value);
            }
        }
    }
}
