package dev.rtmstreams.processor.spi;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.kafka.common.annotation.InterfaceStability;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Writes to a store in {@code putAll} batches of a fixed size, for bulk rewrites such as rebuilding a local index
 * from the changelogged entries when a task starts (one RocksDB write batch per {@code size} entries instead of one
 * write each, and never more than {@code size} entries held in memory).
 *
 * <pre>{@code
 * StoreWriteBatch batch = new StoreWriteBatch(index, 1_000);
 * for (...) batch.put(key, value); // written whenever 1 000 are pending
 * batch.flush();                   // writes the rest
 * }</pre>
 *
 * <p>Entries are written in the order given, each batch with one {@link KeyValueStore#putAll} call on the store
 * given. Not thread-safe; for the stream thread, not for a per-record path.
 */
@InterfaceStability.Unstable
public final class StoreWriteBatch {

    private final KeyValueStore<Bytes, byte[]> store;
    private final int size;
    private final List<KeyValue<Bytes, byte[]>> pending;

    /**
     * @param store where the entries are written; not null
     * @param size how many entries make a batch
     * @throws IllegalArgumentException when {@code size} is not positive
     */
    public StoreWriteBatch(KeyValueStore<Bytes, byte[]> store, int size) {
        if (size <= 0) {
            throw new IllegalArgumentException("size must be positive: " + size);
        }
        this.store = Objects.requireNonNull(store, "store");
        this.size = size;
        this.pending = new ArrayList<>(size);
    }

    /**
     * Adds an entry; writes the batch when it holds {@code size} entries.
     *
     * @param key the key; not null
     * @param value the value, or null to delete the key
     */
    public void put(Bytes key, byte[] value) {
        pending.add(KeyValue.pair(key, value));
        if (pending.size() >= size) {
            flush();
        }
    }

    /**
     * Writes the pending entries with one {@code putAll} (an empty one when none are pending). The list handed to
     * {@code putAll} is reused afterwards: the store must not keep it (Kafka Streams' stores do not).
     */
    public void flush() {
        store.putAll(pending);
        pending.clear();
    }

    /** @return how many entries are pending (added and not yet written) */
    public int pending() {
        return pending.size();
    }
}
