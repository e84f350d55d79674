package dev.rtmstreams.processor.internals;

import org.apache.kafka.common.utils.Bytes;

/**
 * The time-to-live wrapper of value, list and map state (Flink's {@code AbstractTtlState}, which wraps a plain state):
 * the expiry a write gets, whether a stored expiry is still live, and the TTL index entry that lets the cleaner find
 * an expired value ({@link TtlCleaner}). The wrapped state stores the expiry with every value ({@link ValueCodec}, list
 * records) over the same byte layout as without TTL, and leaves every decision about it to this wrapper.
 *
 * <p>Spark's rules ({@code TTLState}): processing-time TTL only; a value expires once the batch's processing time
 * reaches {@code write time + ttl}; an expired value reads as absent at once, before the cleaner removes it; every
 * write (update, append, put) sets a fresh expiry.
 */
abstract class TtlState<P extends StoredStateVariable> {

    /** The wrapped plain state. */
    final P plain;

    final KeyContext keys;
    private final long ttlMs;

    /**
     * @param plain the plain state to wrap (its key context gives the processing time and the TTL index)
     * @param ttlMs the time to live in ms; positive
     */
    TtlState(P plain, long ttlMs) {
        if (ttlMs <= 0) {
            throw new IllegalArgumentException("ttl must be positive: " + ttlMs + " ms");
        }
        this.plain = plain;
        this.keys = plain.keys;
        this.ttlMs = ttlMs;
    }

    /** @return the expiry of a value written now: the current processing time + the time to live */
    final long expiryOfWrite() {
        return keys.processingTime() + ttlMs;
    }

    /** @return whether a value stored with {@code expiry} is still live now */
    final boolean isLive(long expiry) {
        return !ValueCodec.isExpired(expiry, keys.processingTime());
    }

    /** Records that {@code primaryKey} was written with {@code expiry}, so that the cleaner finds it once expired. */
    final void written(Bytes primaryKey, long expiry) {
        keys.indexTtl(expiry, primaryKey.get());
    }
}
