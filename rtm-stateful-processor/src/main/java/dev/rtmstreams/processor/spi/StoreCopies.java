package dev.rtmstreams.processor.spi;

import dev.rtmstreams.processor.spi.internals.EntriesStore;
import java.nio.file.Path;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.TreeMap;
import org.apache.kafka.common.annotation.InterfaceStability;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * Read-only, in-memory copies of an operator store, for state readers: of a stopped application's RocksDB store
 * directory, or of entries an operator rebuilt itself (e.g. by replaying its changelog with its own layout rules).
 * Reading a copy never touches the original.
 */
@InterfaceStability.Unstable
public final class StoreCopies {

    private StoreCopies() {}

    /**
     * @param directory a RocksDB store directory of a stopped application:
     *     {@code <state.dir>/<application.id>/<task id>/rocksdb/<store name>}; not null
     * @return a copy of its entries (the store is opened read-only)
     * @throws IllegalArgumentException naming the directory when it is not a readable RocksDB store
     */
    public static ReadOnlyKeyValueStore<Bytes, byte[]> fromRocksDb(Path directory) {
        return EntriesStore.fromRocksDb(Objects.requireNonNull(directory, "directory"));
    }

    /**
     * @param entries the store's entries (copied; values are not copied); not null
     * @return a read-only store over a copy of {@code entries}, ordered as RocksDB orders keys
     */
    public static ReadOnlyKeyValueStore<Bytes, byte[]> of(NavigableMap<Bytes, byte[]> entries) {
        TreeMap<Bytes, byte[]> copy = new TreeMap<>(); // natural order of Bytes: unsigned lexicographic, as RocksDB
        copy.putAll(Objects.requireNonNull(entries, "entries"));
        return EntriesStore.of(copy);
    }
}
