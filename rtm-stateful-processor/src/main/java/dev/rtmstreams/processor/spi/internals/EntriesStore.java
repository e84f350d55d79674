package dev.rtmstreams.processor.spi.internals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;

/**
 * An operator store's entries held in memory, read-only: entries rebuilt by replaying store writes (a changelog
 * topic, an interactive-query result) with an operator's own layout rules, or a copy of a RocksDB store directory.
 * For the state readers ({@link dev.rtmstreams.processor.spi.StoreCopies}).
 */
public final class EntriesStore implements ReadOnlyKeyValueStore<Bytes, byte[]> {

    private final NavigableMap<Bytes, byte[]> entries;

    private EntriesStore(NavigableMap<Bytes, byte[]> entries) {
        this.entries = entries;
    }

    /** @return a store over {@code entries} (not copied: the caller hands them over) */
    public static EntriesStore of(NavigableMap<Bytes, byte[]> entries) {
        return new EntriesStore(entries);
    }

    /** @return a copy of the RocksDB store in {@code directory} (opened read-only) */
    public static EntriesStore fromRocksDb(Path directory) {
        if (!Files.isDirectory(directory) || !Files.exists(directory.resolve("CURRENT"))) {
            throw new IllegalArgumentException("not a RocksDB store directory (no CURRENT file): " + directory);
        }
        RocksDB.loadLibrary();
        NavigableMap<Bytes, byte[]> m = new TreeMap<>();
        try (Options options = new Options();
                RocksDB db = RocksDB.openReadOnly(options, directory.toString());
                RocksIterator it = db.newIterator()) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                m.put(Bytes.wrap(it.key()), it.value());
            }
        } catch (RocksDBException e) {
            throw new IllegalArgumentException(
                    "cannot read RocksDB store directory " + directory + ": " + e.getMessage(), e);
        }
        return new EntriesStore(m);
    }

    @Override
    public byte[] get(Bytes key) {
        return entries.get(key);
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> range(Bytes from, Bytes to) {
        return iterator(entries.subMap(from, true, to, true));
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> reverseRange(Bytes from, Bytes to) {
        return iterator(entries.subMap(from, true, to, true).descendingMap());
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> all() {
        return iterator(entries);
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> reverseAll() {
        return iterator(entries.descendingMap());
    }

    @Override
    public <PS extends Serializer<P>, P> KeyValueIterator<Bytes, byte[]> prefixScan(P prefix, PS serializer) {
        byte[] p = serializer.serialize(null, prefix);
        NavigableMap<Bytes, byte[]> matching = new TreeMap<>();
        for (Map.Entry<Bytes, byte[]> e : entries.tailMap(Bytes.wrap(p), true).entrySet()) {
            if (!startsWith(e.getKey().get(), p)) {
                break;
            }
            matching.put(e.getKey(), e.getValue());
        }
        return iterator(matching);
    }

    private static boolean startsWith(byte[] k, byte[] p) {
        if (k.length < p.length) {
            return false;
        }
        for (int i = 0; i < p.length; i++) {
            if (k[i] != p[i]) {
                return false;
            }
        }
        return true;
    }

    @Override
    public long approximateNumEntries() {
        return entries.size();
    }

    private static KeyValueIterator<Bytes, byte[]> iterator(Map<Bytes, byte[]> view) {
        Iterator<Map.Entry<Bytes, byte[]>> it = view.entrySet().iterator();
        return new KeyValueIterator<>() {
            private Map.Entry<Bytes, byte[]> peeked;

            @Override
            public boolean hasNext() {
                return peeked != null || it.hasNext();
            }

            @Override
            public KeyValue<Bytes, byte[]> next() {
                Map.Entry<Bytes, byte[]> e = peeked != null ? peeked : it.next();
                peeked = null;
                return KeyValue.pair(e.getKey(), e.getValue());
            }

            @Override
            public Bytes peekNextKey() {
                if (peeked == null) {
                    peeked = it.next();
                }
                return peeked.getKey();
            }

            @Override
            public void close() {}
        };
    }
}
