package dev.rtmstreams.processor.internals;

import dev.rtmstreams.processor.ListState;
import dev.rtmstreams.processor.errors.EmptyListException;
import dev.rtmstreams.processor.errors.NullValueException;
import dev.rtmstreams.processor.spi.ByteLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.function.LongPredicate;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.utils.Bytes;

/**
 * List state on the operator store: one entry per grouping key holding the elements as
 * {@code [expiry i64][len i32][bytes]*} ({@code Long.MAX_VALUE} = no expiry). Plain: every element is stored with
 * {@link #NEVER} and read. With time to live it is wrapped in a {@link TtlListState}: each element then has its own
 * expiry, given when appended ({@code put} refreshes all), and appends drop the elements the wrapper's live filter
 * rejects while rewriting.
 */
final class ListStateImpl<T> extends StoredStateVariable implements ListState<T> {

    private final Serializer<T> serializer;
    private final Deserializer<T> deserializer;

    ListStateImpl(KeyContext keys, String name, Serde<T> serde) {
        super(keys, name);
        this.serializer = serde.serializer();
        this.deserializer = serde.deserializer();
    }

    private Bytes key(String op) {
        return Bytes.wrap(Layout.concat(prefix, keys.keySuffix(op, name)));
    }

    /** Elements of a stored list whose expiry passes {@code keep}, as raw {@code [expiry][len][bytes]} records. */
    static List<byte[]> records(byte[] stored, LongPredicate keep) {
        List<byte[]> out = new ArrayList<>();
        if (stored == null) {
            return out;
        }
        int pos = 0;
        while (pos < stored.length) {
            long expiry = ByteLayout.getLong(stored, pos);
            int len = ByteLayout.getInt(stored, pos + 8);
            if (keep.test(expiry)) {
                out.add(Arrays.copyOfRange(stored, pos, pos + 12 + len));
            }
            pos += 12 + len;
        }
        return out;
    }

    private static byte[] record(byte[] payload, long expiry) {
        byte[] r = new byte[12 + payload.length];
        ByteLayout.putLong(r, 0, expiry);
        ByteLayout.putInt(r, 8, payload.length);
        System.arraycopy(payload, 0, r, 12, payload.length);
        return r;
    }

    static byte[] join(List<byte[]> records) {
        int n = 0;
        for (byte[] r : records) {
            n += r.length;
        }
        byte[] out = new byte[n];
        int pos = 0;
        for (byte[] r : records) {
            System.arraycopy(r, 0, out, pos, r.length);
            pos += r.length;
        }
        return out;
    }

    boolean exists(LongPredicate live) {
        return !records(keys.store.get(key("exists")), live).isEmpty();
    }

    Iterator<T> get(LongPredicate live) {
        List<byte[]> kept = records(keys.store.get(key("get")), live);
        List<T> out = new ArrayList<>(kept.size());
        for (byte[] r : kept) {
            out.add(deserializer.deserialize(name, Arrays.copyOfRange(r, 12, r.length)));
        }
        return out.iterator();
    }

    private List<byte[]> encode(List<T> values, long expiry) {
        if (values == null) {
            throw new NullValueException(name);
        }
        if (values.isEmpty()) {
            throw new EmptyListException(name);
        }
        List<byte[]> out = new ArrayList<>(values.size());
        for (T v : values) {
            if (v == null) {
                throw new NullValueException(name);
            }
            out.add(record(serializer.serialize(name, v), expiry));
        }
        return out;
    }

    /**
     * Replaces the current key's list by {@code newState}, every element with {@code expiry}.
     *
     * @return the key written
     */
    Bytes put(List<T> newState, long expiry) {
        Bytes k = key("put");
        keys.store.put(k, join(encode(newState, expiry)));
        return k;
    }

    /**
     * Appends {@code newState} with {@code expiry} to the elements {@code live} keeps.
     *
     * @return the key written
     */
    Bytes appendValue(T newState, long expiry, LongPredicate live) {
        Bytes k = key("appendValue");
        if (newState == null) {
            throw new NullValueException(name);
        }
        List<byte[]> records = records(keys.store.get(k), live);
        records.add(record(serializer.serialize(name, newState), expiry));
        keys.store.put(k, join(records));
        return k;
    }

    /**
     * Appends {@code newState}, every element with {@code expiry}, to the elements {@code live} keeps.
     *
     * @return the key written
     */
    Bytes appendList(List<T> newState, long expiry, LongPredicate live) {
        Bytes k = key("appendList");
        List<byte[]> add = encode(newState, expiry);
        List<byte[]> records = records(keys.store.get(k), live);
        records.addAll(add);
        keys.store.put(k, join(records));
        return k;
    }

    @Override
    public boolean exists() {
        return exists(ALL);
    }

    @Override
    public Iterator<T> get() {
        return get(ALL);
    }

    @Override
    public void put(List<T> newState) {
        put(newState, NEVER);
    }

    @Override
    public void appendValue(T newState) {
        appendValue(newState, NEVER, ALL);
    }

    @Override
    public void appendList(List<T> newState) {
        appendList(newState, NEVER, ALL);
    }

    @Override
    public void clear() {
        keys.store.delete(key("clear"));
    }

    /** @return the number of elements (live or not) of a stored list */
    static int count(byte[] stored) {
        int n = 0;
        int pos = 0;
        while (pos < stored.length) {
            pos += 12 + ByteLayout.getInt(stored, pos + 8);
            n++;
        }
        return n;
    }
}
