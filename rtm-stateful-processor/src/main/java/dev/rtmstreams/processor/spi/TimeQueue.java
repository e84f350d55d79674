package dev.rtmstreams.processor.spi;

import java.util.List;
import org.apache.kafka.common.annotation.InterfaceStability;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * A time-ordered queue of byte entries, for eviction: which entries have a time at or below a bound, oldest first, a
 * bounded number per {@link #poll}. Entries of equal time come in the order of their store keys (time, then key
 * bytes), whatever the implementation: in a store ({@link #inStore}, one entry {@code [tag][time][...]} each) or on
 * the heap ({@link #onHeap}, entries grouped by time segment in byte arrays, sorted when eviction reaches them).
 *
 * <p>The queue tracks a lower bound of its entries' times ({@link #lowerBound}): lowered by {@link #add}, raised by
 * {@link #poll} to where the removed entries ended, so that a store-backed queue starts each scan there and RocksDB
 * never steps over the tombstones of everything already removed ({@link TimeSection}, the scan transformWithState's
 * timers and TTL index run through too). The entries' layout is the caller's ({@link EntryCodec}); the queue only
 * needs their time, their order and their store key.
 *
 * <p>Not thread-safe (one stream thread adds and polls), but {@link #retainedBytes} may be read from any thread.
 */
@InterfaceStability.Unstable
public interface TimeQueue {

    /**
     * The caller's layout of a queue's entries. An entry is any byte array carrying its time; its store key is
     * {@code [tag()][time, as ByteLayout#putTime][...]}, and {@link #compareSameTime} orders entries of equal time as
     * their store keys' bytes (unsigned) order them.
     */
    @InterfaceStability.Unstable
    interface EntryCodec {

        /** @return the first byte of every store key of the queue (not {@code 0xFF}) */
        byte tag();

        /** @return the time of the entry held in {@code a[off, off + len)} */
        long time(byte[] a, int off, int len);

        /**
         * @return the order of two entries of the same time, as the order of their store keys: negative, zero or
         *     positive
         */
        int compareSameTime(byte[] a, int aOff, int aLen, byte[] b, int bOff, int bLen);

        /** @return the store key of an entry: {@code [tag][time][...]} */
        Bytes storeKey(byte[] entry);

        /** @return the entry of a store key ({@link #storeKey}'s inverse) */
        Bytes entry(byte[] storeKey);
    }

    /**
     * @param store where the entries are kept (the queue writes {@code [tag]...} keys only); for a local index, the
     *     store without Kafka Streams' metered layer ({@link OperatorStores#localWrites})
     * @param codec the entries' layout
     * @return a queue with one store entry per queue entry, for queues too large for the heap
     */
    static TimeQueue inStore(KeyValueStore<Bytes, byte[]> store, EntryCodec codec) {
        return new StoreTimeQueue(store, codec);
    }

    /**
     * @param codec the entries' layout
     * @return a queue on the heap without an object per entry, in segments of one second of time
     */
    static TimeQueue onHeap(EntryCodec codec) {
        return new HeapTimeQueue(codec, HeapTimeQueue.SEGMENT_MS);
    }

    /**
     * Adds an entry at its time. No read, one store write (store-backed) or one array append (heap).
     *
     * @param entry the entry, in the codec's layout; copied, not kept
     * @param time its time, as the codec reads it from the entry
     */
    void add(byte[] entry, long time);

    /**
     * Removes up to {@code budget} entries with a time at or below {@code maxTime}, oldest first (scanning from the
     * {@link #lowerBound}), and raises the lower bound to where they ended.
     *
     * @param maxTime the largest time to remove
     * @param budget how many entries at most
     * @param out receives the removed entries, in order
     * @return whether entries at or below {@code maxTime} remain
     */
    boolean poll(long maxTime, int budget, List<Bytes> out);

    /** @return a time no entry is older than ({@link Long#MIN_VALUE} when unknown) */
    long lowerBound();

    /** Sets the {@link #lowerBound} to the oldest entry's time (one seek in a store): e.g. after a rebuild. */
    void seekLowerBound();

    /** @return the smallest time of an entry, or {@link Long#MAX_VALUE} when empty */
    long oldest();

    /** @return the largest time of an entry, or {@link Long#MIN_VALUE} when empty */
    long newest();

    /** Removes every entry; the lower bound becomes unknown. */
    void clear();

    /** Starts a run of {@link #add}s that need not be visible until {@link #endBulk} (a rebuild). */
    default void startBulk() {}

    /** Ends a run of adds started by {@link #startBulk}. */
    default void endBulk() {}

    /**
     * Makes the adds of the open bulk run so far visible; the run stays open (a writer that batches its adds between
     * reads of the queue, as the interval join does between probes). Does nothing outside a bulk run.
     */
    default void flushBulk() {}

    /** @return the heap bytes the queue holds for its entries (0 for a store-backed queue); safe from any thread */
    default long retainedBytes() {
        return 0;
    }
}
