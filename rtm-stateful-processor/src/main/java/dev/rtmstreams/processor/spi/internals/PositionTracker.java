package dev.rtmstreams.processor.spi.internals;

import java.util.Arrays;
import java.util.Optional;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.query.Position;

/**
 * The position of an operator store (per input partition, the offset of the newest record that wrote to it), kept
 * in a few primitive slots instead of Kafka Streams' {@link Position}, which RocksDB and in-memory stores update on
 * every write through nested concurrent maps and boxed offsets (~3% of a real-time stream thread). The store it
 * serves is given a context without record metadata ({@link StoreContextView}), so it does not track its own.
 *
 * <p>Written on the stream thread, read by interactive-query threads: both sides synchronize on this object, which is
 * uncontended on the write path.
 */
final class PositionTracker {

    private final StateStoreContext context;
    private final Position initial;
    private String[] topics = new String[4];
    private int[] partitions = new int[4];
    private long[] offsets = new long[4];
    private int size;

    /**
     * @param context the store's real context, whose record metadata names the record being processed
     * @param initial the position the store had when it was opened (e.g. read from its checkpoint file)
     */
    PositionTracker(StateStoreContext context, Position initial) {
        this.context = context;
        this.initial = initial == null ? Position.emptyPosition() : initial.copy();
    }

    /** Records that the record being processed wrote to the store (no-op outside a record, e.g. on restore). */
    synchronized void update() {
        Optional<RecordMetadata> meta = context.recordMetadata();
        if (meta.isEmpty()) {
            return;
        }
        RecordMetadata m = meta.get();
        String topic = m.topic();
        if (topic == null) {
            return; // e.g. a punctuation: Kafka Streams does not move the position either
        }
        int partition = m.partition();
        long offset = m.offset();
        for (int i = 0; i < size; i++) {
            if (partitions[i] == partition && (topics[i] == topic || topics[i].equals(topic))) {
                if (offset > offsets[i]) {
                    offsets[i] = offset;
                }
                return;
            }
        }
        if (size == topics.length) {
            topics = Arrays.copyOf(topics, size * 2);
            partitions = Arrays.copyOf(partitions, size * 2);
            offsets = Arrays.copyOf(offsets, size * 2);
        }
        topics[size] = topic;
        partitions[size] = partition;
        offsets[size] = offset;
        size++;
    }

    /** @return a copy of the current position: the initial one merged with every write since */
    synchronized Position position() {
        Position p = initial.copy();
        for (int i = 0; i < size; i++) {
            p.withComponent(topics[i], partitions[i], offsets[i]);
        }
        return p;
    }
}
