package dev.rtmstreams.join.internals;

import dev.rtmstreams.processor.spi.HeadersLayout;
import dev.rtmstreams.processor.spi.MicroBatchBuffer;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.function.Consumer;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.api.ProcessorContext;

/**
 * The inputs of both sides of a join task waiting for the next micro-batch, in arrival order across the sides: the
 * operator runtime's {@link MicroBatchBuffer} over the changelogged pending store ({@link Codec}'s pending entry
 * layout), one instance per task shared by the two side processors, read as a whole by a batch and deleted only after
 * the batch ran (at-least-once across a crash).
 */
final class MicroBatchInputs {

    /** One buffered input. */
    record Input(boolean left, long recordTs, long eventTime, byte[] keyBytes, Headers headers, byte[] valueBytes) {}

    private final MicroBatchBuffer<Input> buffer;

    MicroBatchInputs(JoinSpec<?, ?, ?> spec, ProcessorContext<?, ?> context, JoinTaskState shared) {
        if (shared.pendingInputs == null) {
            shared.pendingInputs = MicroBatchBuffer.dedicated(
                    context.getStateStore(spec.pendingStore()), MicroBatchInputs::encode, MicroBatchInputs::decode);
            shared.pendingInputs.load();
        }
        this.buffer = shared.pendingInputs;
    }

    /** Buffers one input after every earlier one of either side. */
    void append(boolean left, long recordTs, long eventTime, byte[] keyBytes, Headers headers, byte[] value) {
        buffer.append(new Input(left, recordTs, eventTime, keyBytes, headers, value));
    }

    /**
     * @return false when no input can be waiting since the last batch (nothing was buffered by either side, and the
     *     store's restored content has been drained)
     */
    boolean mayHoldInputs() {
        return buffer.mayHoldEntries();
    }

    /** Hands every buffered input to {@code batch} in arrival order, then deletes them. */
    void drain(Consumer<Input> batch) {
        List<KeyValue<Bytes, Input>> inputs = buffer.read();
        for (KeyValue<Bytes, Input> in : inputs) {
            batch.accept(in.value);
        }
        buffer.delete(inputs);
    }

    private static byte[] encode(Input in) {
        byte[] headerBytes = HeadersLayout.encode(in.headers());
        byte[] keyBytes = in.keyBytes();
        byte[] value = in.valueBytes();
        ByteBuffer b = ByteBuffer.allocate(1 + 8 + 8 + 4 + keyBytes.length + 4 + headerBytes.length + value.length);
        b.put((byte) (in.left() ? 0 : 1))
                .putLong(in.recordTs())
                .putLong(in.eventTime())
                .putInt(keyBytes.length)
                .put(keyBytes)
                .putInt(headerBytes.length)
                .put(headerBytes)
                .put(value);
        return b.array();
    }

    private static Input decode(byte[] bytes) {
        ByteBuffer b = ByteBuffer.wrap(bytes);
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
        return new Input(left, recordTs, eventTime, keyBytes, headers, valueBytes);
    }
}
