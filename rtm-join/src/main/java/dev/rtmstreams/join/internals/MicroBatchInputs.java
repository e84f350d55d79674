package dev.rtmstreams.join.internals;

import dev.rtmstreams.processor.spi.ByteLayout;
import dev.rtmstreams.processor.spi.HeadersLayout;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The inputs of both sides of a join task waiting for the next micro-batch, in arrival order across the sides: the
 * changelogged pending store ({@link Codec}'s pending entry layout), read as a whole by a batch and deleted only after
 * the batch ran (at-least-once across a crash).
 */
final class MicroBatchInputs {

    /** One buffered input. */
    record Input(boolean left, long recordTs, long eventTime, byte[] keyBytes, Headers headers, byte[] valueBytes) {}

    private final KeyValueStore<Bytes, byte[]> pending;
    private final JoinTaskState shared;

    MicroBatchInputs(JoinSpec<?, ?, ?> spec, ProcessorContext<?, ?> context, JoinTaskState shared) {
        this.pending = context.getStateStore(spec.pendingStore());
        this.shared = shared;
    }

    /** Buffers one input under sequence number {@code seq}. */
    void append(long seq, boolean left, long recordTs, long eventTime, byte[] keyBytes, Headers headers, byte[] value) {
        byte[] headerBytes = HeadersLayout.encode(headers);
        ByteBuffer b = ByteBuffer.allocate(1 + 8 + 8 + 4 + keyBytes.length + 4 + headerBytes.length + value.length);
        b.put((byte) (left ? 0 : 1))
                .putLong(recordTs)
                .putLong(eventTime)
                .putInt(keyBytes.length)
                .put(keyBytes)
                .putInt(headerBytes.length)
                .put(headerBytes)
                .put(value);
        pending.put(Bytes.wrap(ByteLayout.longValue(seq)), b.array());
        shared.pendingMayHoldInputs = true;
    }

    /**
     * @return false when no input can be waiting since the last batch (nothing was buffered by either side, and the
     *     store's restored content has been drained); clears the flag
     */
    boolean takeMayHoldInputs() {
        boolean may = shared.pendingMayHoldInputs;
        shared.pendingMayHoldInputs = false;
        return may;
    }

    /** Hands every buffered input to {@code batch} in arrival order, then deletes them. */
    void drain(Consumer<Input> batch) {
        List<Bytes> done = new ArrayList<>();
        try (KeyValueIterator<Bytes, byte[]> it = pending.all()) {
            while (it.hasNext()) {
                KeyValue<Bytes, byte[]> kv = it.next();
                done.add(kv.key);
                ByteBuffer b = ByteBuffer.wrap(kv.value);
                boolean left = b.get() == 0;
                long recordTs = b.getLong();
                long eventTime = b.getLong();
                byte[] keyBytes = new byte[b.getInt()];
                b.get(keyBytes);
                byte[] headerBytes = new byte[b.getInt()];
                b.get(headerBytes);
                Headers headers = HeadersLayout.read(headerBytes, 0);
                byte[] valueBytes = new byte[b.remaining()];
                b.get(valueBytes);
                batch.accept(new Input(left, recordTs, eventTime, keyBytes, headers, valueBytes));
            }
        }
        for (Bytes k : done) {
            pending.delete(k);
        }
    }
}
