package dev.rtmstreams.processor.internals;

import dev.rtmstreams.processor.errors.ImplicitKeyNotFoundException;
import dev.rtmstreams.processor.errors.InvalidHandleStateException;
import dev.rtmstreams.processor.spi.TimeSection;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * What a state variable sees of the current call (Flink's keyed-state backend context, narrowed): the operator
 * store, the grouping key the call runs for, the call's processing time and the handle's lifecycle phase. The
 * runtime {@link #enter enters} a key around each user call and {@link #exit exits} after it.
 */
final class KeyContext {

    /** The operator's store, shared by state variables, timers, TTL index and buffer (see {@link Layout}). */
    final KeyValueStore<Bytes, byte[]> store;

    /** Lifecycle phase of the handle (Spark's {@code StatefulProcessorHandleState}). */
    HandleState state = HandleState.CREATED;

    private byte[] keyBytes;
    private byte[] keySuffix;
    private long processingTime;

    /**
     * The TTL index, in expiry order (see {@link TtlCleaner}), with a lower bound of its expiries: lowered by
     * {@link #indexTtl}, raised by the cleaner after a pass, so that its scan does not step over the tombstones of
     * entries it already removed.
     */
    final TimeSection ttl;

    KeyContext(KeyValueStore<Bytes, byte[]> store) {
        this.store = store;
        this.ttl = new TimeSection(store, Layout.TTL);
    }

    /** Writes the TTL index entry {@code [TTL][expiry][primaryKey]} of a state value that expires at {@code expiry}. */
    void indexTtl(long expiry, byte[] primaryKey) {
        store.put(Bytes.wrap(Layout.ttlKey(expiry, primaryKey)), Layout.EMPTY);
        ttl.added(expiry);
    }

    /** Makes {@code keyBytes} the current grouping key, with processing time {@code processingTime}. */
    void enter(byte[] keyBytes, long processingTime) {
        this.keyBytes = keyBytes;
        this.keySuffix = Layout.keySuffix(keyBytes);
        this.processingTime = processingTime;
    }

    /** No grouping key is current any more. */
    void exit() {
        keyBytes = null;
        keySuffix = null;
    }

    /**
     * @param what the state variable or facility asking (for the error)
     * @return the serialized current grouping key
     */
    byte[] keyBytes(String what) {
        if (keyBytes == null) {
            throw new ImplicitKeyNotFoundException(what);
        }
        return keyBytes;
    }

    /**
     * Checks that state operation {@code operation} of variable {@code stateName} may run now and returns the
     * {@code [keyLen][key]} suffix of the current key.
     */
    byte[] keySuffix(String operation, String stateName) {
        checkStateAccess(operation);
        if (keySuffix == null) {
            throw new ImplicitKeyNotFoundException(stateName);
        }
        return keySuffix;
    }

    /** Deletes every store entry whose key starts with {@code prefix}. @return how many */
    int deletePrefix(byte[] prefix) {
        List<Bytes> found = new ArrayList<>();
        try (KeyValueIterator<Bytes, byte[]> it = store.prefixScan(Bytes.wrap(prefix), BytesSer.INSTANCE)) {
            while (it.hasNext()) {
                found.add(it.next().key);
            }
        }
        for (Bytes k : found) {
            store.delete(k);
        }
        return found.size();
    }

    /** Processing time of the current call (constant within a micro-batch). */
    long processingTime() {
        return processingTime;
    }

    /**
     * State is read and written only while a grouping key is current (rows, initial state, timers), so {@code init}
     * (CREATED) and {@code close} (CLOSED) get the handle-state error.
     */
    void checkStateAccess(String operation) {
        if (state == HandleState.CLOSED || state == HandleState.CREATED) {
            throw new InvalidHandleStateException(snakeCase(operation), state.name());
        }
    }

    /** {@code getOption} to {@code get_option}: Spark's spelling of operation types. */
    static String snakeCase(String operation) {
        StringBuilder b = new StringBuilder(operation.length() + 4);
        for (char c : operation.toCharArray()) {
            if (Character.isUpperCase(c)) {
                b.append('_').append(Character.toLowerCase(c));
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }
}
