package dev.rtmstreams.processor.spi;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import org.apache.kafka.common.annotation.InterfaceStability;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The persisted input buffer of the micro-batch contract, the one every rtm operator uses (transformWithState and
 * deduplication buffer their rows here, the join both sides' inputs): entries in arrival order under a sequence
 * number, read as a whole by a batch and deleted only after the batch ran (at-least-once across a crash). The store
 * is the owner's (changelogged, so that buffered rows survive a restart); the entry layout is the owner's codec.
 *
 * <p>Not thread-safe: one instance per task, used by the task's stream thread. A task whose processors all append
 * (the join's two sides) shares one instance, so that arrival order spans them.
 *
 * @param <E> an entry
 */
@InterfaceStability.Unstable
public final class MicroBatchBuffer<E> {

    private final KeyValueStore<Bytes, byte[]> store;
    private final byte[] prefix;
    private final boolean orderPreserving;
    private final Function<E, byte[]> encode;
    private final Function<byte[], E> decode;
    private long nextSeq;
    /**
     * Whether an entry may be waiting: set when one is appended, and at start (the buffer may hold restored entries);
     * cleared by {@link #read}.
     */
    private boolean mayHoldEntries = true;

    private MicroBatchBuffer(
            KeyValueStore<Bytes, byte[]> store,
            byte[] prefix,
            boolean orderPreserving,
            Function<E, byte[]> encode,
            Function<byte[], E> decode) {
        this.store = Objects.requireNonNull(store, "store");
        this.prefix = prefix;
        this.orderPreserving = orderPreserving;
        this.encode = Objects.requireNonNull(encode, "encode");
        this.decode = Objects.requireNonNull(decode, "decode");
    }

    /**
     * A buffer inside a store shared with other data: keys {@code [prefix][seq]}, the sequence order-preserving
     * ({@link ByteLayout#putTime}).
     *
     * @param store the operator store; not null
     * @param prefix the first byte of every buffer key, used by nothing else in {@code store}
     * @param encode an entry's bytes; not null
     * @param decode the inverse of {@code encode}; not null
     * @param <E> an entry
     * @return the buffer; call {@link #load} once the store is restored
     */
    public static <E> MicroBatchBuffer<E> prefixed(
            KeyValueStore<Bytes, byte[]> store, byte prefix, Function<E, byte[]> encode, Function<byte[], E> decode) {
        return new MicroBatchBuffer<>(store, new byte[] {prefix}, true, encode, decode);
    }

    /**
     * A buffer in a store of its own: keys are the sequence number, 8 bytes big-endian (the sequence never goes
     * negative).
     *
     * @param store a store holding nothing but this buffer; not null
     * @param encode an entry's bytes; not null
     * @param decode the inverse of {@code encode}; not null
     * @param <E> an entry
     * @return the buffer; call {@link #load} once the store is restored
     */
    public static <E> MicroBatchBuffer<E> dedicated(
            KeyValueStore<Bytes, byte[]> store, Function<E, byte[]> encode, Function<byte[], E> decode) {
        return new MicroBatchBuffer<>(store, new byte[0], false, encode, decode);
    }

    /** Continues the sequence after the restored entries (one reverse seek). */
    public void load() {
        try (KeyValueIterator<Bytes, byte[]> it = store.reverseRange(key(first()), key(Long.MAX_VALUE))) {
            nextSeq = it.hasNext() ? seqOf(it.next().key.get()) + 1 : 0L;
        }
    }

    /** Appends an entry after every earlier one. */
    public void append(E entry) {
        store.put(key(nextSeq++), encode.apply(entry));
        mayHoldEntries = true;
    }

    /** @return false when no entry can be waiting, so a batch may skip the scan */
    public boolean mayHoldEntries() {
        return mayHoldEntries;
    }

    /** @return every buffered entry with its buffer key, in arrival order (they stay buffered until {@link #delete}) */
    public List<KeyValue<Bytes, E>> read() {
        mayHoldEntries = false;
        List<KeyValue<Bytes, E>> entries = new ArrayList<>();
        try (KeyValueIterator<Bytes, byte[]> it = store.range(key(first()), key(Long.MAX_VALUE))) {
            while (it.hasNext()) {
                KeyValue<Bytes, byte[]> kv = it.next();
                entries.add(KeyValue.pair(kv.key, decode.apply(kv.value)));
            }
        }
        return entries;
    }

    /** Deletes the entries a batch consumed (as {@link #read} returned them). */
    public void delete(List<KeyValue<Bytes, E>> entries) {
        for (KeyValue<Bytes, E> e : entries) {
            store.delete(e.key);
        }
    }

    private long first() {
        return orderPreserving ? Long.MIN_VALUE : 0L;
    }

    private Bytes key(long seq) {
        byte[] k = new byte[prefix.length + 8];
        System.arraycopy(prefix, 0, k, 0, prefix.length);
        if (orderPreserving) {
            ByteLayout.putTime(k, prefix.length, seq);
        } else {
            ByteLayout.putLong(k, prefix.length, seq);
        }
        return Bytes.wrap(k);
    }

    private long seqOf(byte[] key) {
        return orderPreserving ? ByteLayout.getTime(key, prefix.length) : ByteLayout.getLong(key, prefix.length);
    }
}
