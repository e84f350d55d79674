package dev.rtmstreams.join.internals;

import dev.rtmstreams.processor.spi.ByteLayout;
import dev.rtmstreams.processor.spi.InputWatermarks;
import dev.rtmstreams.processor.spi.PersistedWatermarks;
import java.util.function.Consumer;

/**
 * The join's persisted metadata of one task: the two inputs' watermark tracker (max event time per side, global
 * watermark; the operator runtime's {@link InputWatermarks}) and the sequence high mark, stored as
 * {@code [leftMax:8][rightMax:8][globalWatermark:8][seqHigh:8]} big-endian (see {@link Codec}), {@link Codec#NONE}
 * for "none yet". When a move of the watermarks is written is the shell's {@link PersistedWatermarks}; this class is
 * the join's codec.
 */
final class Meta {
    /** Input 0 is the left side, input 1 the right. */
    final InputWatermarks watermarks;
    /** The tracker with when to persist it; writes {@link #encode()} (the sequence high mark included). */
    final PersistedWatermarks persisted;

    long seqHigh = 0;

    private Meta(InputWatermarks watermarks, PersistedWatermarks.Persist persist, Consumer<byte[]> sink) {
        this.watermarks = watermarks;
        this.persisted = new PersistedWatermarks(watermarks, persist, true, w -> sink.accept(encode()));
    }

    /**
     * Decodes a record to read (the state readers): moves are never written.
     *
     * @param bytes the persisted record; null: none yet
     * @param fresh a new tracker for the join (see {@link JoinMeta#newWatermarks}), restored from {@code bytes}
     * @return the metadata
     */
    static Meta decode(byte[] bytes, InputWatermarks fresh) {
        return decode(bytes, fresh, PersistedWatermarks.Persist.RECOVERABLE, b -> {
            throw new IllegalStateException("the meta record read by a state reader is never written");
        });
    }

    /**
     * @param bytes the persisted record; null: none yet
     * @param fresh a new tracker for the join (see {@link JoinMeta#newWatermarks}), restored from {@code bytes}
     * @param persist when a move of the watermarks is written
     * @param sink writes the encoded record to the meta store
     * @return the metadata
     */
    static Meta decode(
            byte[] bytes, InputWatermarks fresh, PersistedWatermarks.Persist persist, Consumer<byte[]> sink) {
        Meta m = new Meta(fresh, persist, sink);
        if (bytes != null) {
            fresh.restore(ByteLayout.getLong(bytes, 16), ByteLayout.getLong(bytes, 0), ByteLayout.getLong(bytes, 8));
            m.seqHigh = ByteLayout.getLong(bytes, 24);
        }
        return m;
    }

    byte[] encode() {
        byte[] b = new byte[32];
        ByteLayout.putLong(b, 0, watermarks.maxEventTime(0));
        ByteLayout.putLong(b, 8, watermarks.maxEventTime(1));
        ByteLayout.putLong(b, 16, watermarks.value());
        ByteLayout.putLong(b, 24, seqHigh);
        return b;
    }

    /** @return the global watermark, or {@link Codec#NONE} */
    long global() {
        return watermarks.value();
    }

    /** @return a side's max event time, or {@link Codec#NONE} */
    long max(boolean left) {
        return watermarks.maxEventTime(left ? 0 : 1);
    }

    /** @return true when the side's max event time moved (then it is a change to persist, by the policy) */
    boolean observe(boolean left, long eventTime) {
        return persisted.observe(left ? 0 : 1, eventTime);
    }
}
