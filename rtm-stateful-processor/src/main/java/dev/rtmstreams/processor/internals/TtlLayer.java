package dev.rtmstreams.processor.internals;

import org.apache.kafka.common.utils.Bytes;

/**
 * The time-to-live layer of value, list and map state, in one place (the shape of Flink's {@code AbstractTtlState},
 * which wraps the plain state): the expiry a write gets, whether a stored expiry is still live, and the TTL index entry
 * that lets the cleaner find an expired value ({@link TtlCleaner}). The state classes store an expiry with every value
 * ({@link ValueCodec}, list records) and leave every decision about it to this layer; without TTL the layer is
 * {@link #NONE}: nothing expires and nothing is indexed.
 *
 * <p>Spark's rules ({@code TTLState}): processing-time TTL only; a value expires once the batch's processing time
 * reaches {@code write time + ttl}; an expired value reads as absent at once, before the cleaner removes it; every
 * write (update, append, put) sets a fresh expiry.
 */
abstract class TtlLayer {

    /** No time to live: values never expire, nothing is indexed. */
    static final TtlLayer NONE = new TtlLayer() {
        @Override
        long expiryOfWrite() {
            return Long.MAX_VALUE;
        }

        @Override
        boolean isLive(long expiry) {
            return true;
        }

        @Override
        void written(Bytes primaryKey, long expiry) {}

        @Override
        boolean enabled() {
            return false;
        }
    };

    /**
     * @param keys the operator's key context (its processing time; its TTL index)
     * @param ttlMs the time to live in ms; not positive: {@link #NONE}
     * @return the layer of a state variable with that time to live
     */
    static TtlLayer of(KeyContext keys, long ttlMs) {
        return ttlMs > 0 ? new ProcessingTimeTtl(keys, ttlMs) : NONE;
    }

    /** @return the expiry of a value written now ({@link Long#MAX_VALUE}: never) */
    abstract long expiryOfWrite();

    /** @return whether a value stored with {@code expiry} is still live now */
    abstract boolean isLive(long expiry);

    /** Records that {@code primaryKey} was written with {@code expiry}, so that the cleaner finds it once expired. */
    abstract void written(Bytes primaryKey, long expiry);

    /** @return whether values expire at all */
    abstract boolean enabled();

    /** Processing-time TTL: expiry = the current processing time + the time to live. */
    private static final class ProcessingTimeTtl extends TtlLayer {
        private final KeyContext keys;
        private final long ttlMs;

        ProcessingTimeTtl(KeyContext keys, long ttlMs) {
            this.keys = keys;
            this.ttlMs = ttlMs;
        }

        @Override
        long expiryOfWrite() {
            return keys.processingTime() + ttlMs;
        }

        @Override
        boolean isLive(long expiry) {
            return !ValueCodec.isExpired(expiry, keys.processingTime());
        }

        @Override
        void written(Bytes primaryKey, long expiry) {
            keys.indexTtl(expiry, primaryKey.get());
        }

        @Override
        boolean enabled() {
            return true;
        }
    }
}
