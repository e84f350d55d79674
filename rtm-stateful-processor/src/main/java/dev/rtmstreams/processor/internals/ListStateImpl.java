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
 * {@code [expiry i64][len i32][bytes]*} ({@code Long.MAX_VALUE} = no expiry). Each element has its own expiry,
 * the {@link TtlLayer}'s when appended; {@link #put} refreshes all. Appends drop already-expired elements while
 * rewriting.
 */
final class ListStateImpl<T> extends StoredStateVariable implements ListState<T> {

    private final Serializer<T> serializer;
    private final Deserializer<T> deserializer;

    ListStateImpl(KeyContext keys, String name, Serde<T> serde, TtlLayer ttl) {
        super(keys, name, ttl);
        this.serializer = serde.serializer();
        this.deserializer = serde.deserializer();
    }

    private Bytes key(String op) {
        return Bytes.wrap(Layout.concat(prefix, keys.keySuffix(op, name)));
    }

    /** Live (non-expired) elements of a stored list, as raw {@code [expiry][len][bytes]} records. */
    private List<byte[]> liveRecords(byte[] stored) {
        return records(stored, ttl::isLive);
    }

    /** Elements of a stored list whose expiry passes {@code keep}, as raw {@code [expiry][len][bytes]} records. */
    private static List<byte[]> records(byte[] stored, LongPredicate keep) {
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

    private static byte[] join(List<byte[]> records) {
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

    @Override
    public boolean exists() {
        return !liveRecords(keys.store.get(key("exists"))).isEmpty();
    }

    @Override
    public Iterator<T> get() {
        List<byte[]> live = liveRecords(keys.store.get(key("get")));
        List<T> out = new ArrayList<>(live.size());
        for (byte[] r : live) {
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

    private void write(Bytes k, List<byte[]> records, long expiry) {
        keys.store.put(k, join(records));
        ttl.written(k, expiry);
    }

    @Override
    public void put(List<T> newState) {
        Bytes k = key("put");
        long expiry = ttl.expiryOfWrite();
        write(k, encode(newState, expiry), expiry);
    }

    @Override
    public void appendValue(T newState) {
        Bytes k = key("appendValue");
        if (newState == null) {
            throw new NullValueException(name);
        }
        long expiry = ttl.expiryOfWrite();
        List<byte[]> records = liveRecords(keys.store.get(k));
        records.add(record(serializer.serialize(name, newState), expiry));
        write(k, records, expiry);
    }

    @Override
    public void appendList(List<T> newState) {
        Bytes k = key("appendList");
        long expiry = ttl.expiryOfWrite();
        List<byte[]> add = encode(newState, expiry);
        List<byte[]> records = liveRecords(keys.store.get(k));
        records.addAll(add);
        write(k, records, expiry);
    }

    @Override
    public void clear() {
        keys.store.delete(key("clear"));
    }

    @Override
    public int removeExpired(byte[] primaryKey, long now) {
        Bytes k = Bytes.wrap(primaryKey);
        byte[] stored = keys.store.get(k);
        if (stored == null) {
            return 0;
        }
        List<byte[]> live = records(stored, expiry -> !ValueCodec.isExpired(expiry, now));
        int removed = count(stored) - live.size();
        if (live.isEmpty()) {
            keys.store.delete(k);
        } else if (removed > 0) {
            keys.store.put(k, join(live));
        }
        return removed;
    }

    /** @return the number of elements (live or not) of a stored list */
    private static int count(byte[] stored) {
        int n = 0;
        int pos = 0;
        while (pos < stored.length) {
            pos += 12 + ByteLayout.getInt(stored, pos + 8);
            n++;
        }
        return n;
    }
}
