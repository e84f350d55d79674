package dev.rtmstreams.processor.internals;

import dev.rtmstreams.processor.spi.ByteLayout;
import java.util.Arrays;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueStore;

/** Stored form of a value or map entry: {@code [0][payload]} without TTL, {@code [1][expiry i64][payload]} with TTL. */
final class ValueCodec {

    private ValueCodec() {}

    static byte[] encode(byte[] payload, long expiry) {
        if (expiry == Long.MAX_VALUE) {
            byte[] out = new byte[1 + payload.length];
            System.arraycopy(payload, 0, out, 1, payload.length);
            return out;
        }
        byte[] out = new byte[9 + payload.length];
        out[0] = 1;
        ByteLayout.putLong(out, 1, expiry);
        System.arraycopy(payload, 0, out, 9, payload.length);
        return out;
    }

    static long expiry(byte[] stored) {
        return stored[0] == 1 ? ByteLayout.getLong(stored, 1) : Long.MAX_VALUE;
    }

    /** Spark's rule: a value is expired once the current time reaches its expiry. */
    static boolean isExpired(long expiry, long now) {
        return expiry <= now;
    }

    static byte[] payload(byte[] stored) {
        return Arrays.copyOfRange(stored, stored[0] == 1 ? 9 : 1, stored.length);
    }

    /**
     * Deletes the value or map entry stored under {@code primaryKey} if it expired at {@code now}
     * ({@link StateVariable#removeExpired} of value and map state).
     *
     * @return 1 if it was removed, else 0
     */
    static int removeIfExpired(KeyValueStore<Bytes, byte[]> store, byte[] primaryKey, long now) {
        Bytes k = Bytes.wrap(primaryKey);
        byte[] stored = store.get(k);
        if (stored != null && isExpired(expiry(stored), now)) {
            store.delete(k);
            return 1;
        }
        return 0;
    }
}
