package dev.rtmstreams.join.internals;

import dev.rtmstreams.processor.spi.ByteLayout;

/**
 * Mutable view of the join's persisted metadata of one task: max event time per side, global watermark, sequence
 * high mark, stored as {@code [leftMax:8][rightMax:8][globalWatermark:8][seqHigh:8]} big-endian (see {@link Codec}).
 */
final class Meta {
    long leftMax = Codec.NONE;
    long rightMax = Codec.NONE;
    long global = Codec.NONE;
    long seqHigh = 0;

    static Meta decode(byte[] bytes) {
        Meta m = new Meta();
        if (bytes != null) {
            m.leftMax = ByteLayout.getLong(bytes, 0);
            m.rightMax = ByteLayout.getLong(bytes, 8);
            m.global = ByteLayout.getLong(bytes, 16);
            m.seqHigh = ByteLayout.getLong(bytes, 24);
        }
        return m;
    }

    byte[] encode() {
        byte[] b = new byte[32];
        ByteLayout.putLong(b, 0, leftMax);
        ByteLayout.putLong(b, 8, rightMax);
        ByteLayout.putLong(b, 16, global);
        ByteLayout.putLong(b, 24, seqHigh);
        return b;
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
