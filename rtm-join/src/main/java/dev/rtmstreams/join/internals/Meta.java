package dev.rtmstreams.join.internals;

import java.nio.ByteBuffer;

/** Mutable view of the join's persisted metadata of one task: max event time per side, global watermark, sequence. */
final class Meta {
    long leftMax = Codec.NONE;
    long rightMax = Codec.NONE;
    long global = Codec.NONE;
    long seqHigh = 0;

    static Meta decode(byte[] bytes) {
        Meta m = new Meta();
        if (bytes != null) {
            ByteBuffer b = ByteBuffer.wrap(bytes);
            m.leftMax = b.getLong();
            m.rightMax = b.getLong();
            m.global = b.getLong();
            m.seqHigh = b.getLong();
        }
        return m;
    }

    byte[] encode() {
        return ByteBuffer.allocate(32)
                .putLong(leftMax)
                .putLong(rightMax)
                .putLong(global)
                .putLong(seqHigh)
                .array();
    }

    long max(boolean left) {
        return left ? leftMax : rightMax;
    }

    /** @return true when the side's max event time moved */
    boolean observe(boolean left, long eventTime) {
        if (left) {
            if (eventTime > leftMax) {
                leftMax = eventTime;
                return true;
            }
        } else if (eventTime > rightMax) {
            rightMax = eventTime;
            return true;
        }
        return false;
    }
}
