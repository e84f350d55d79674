package dev.rtmstreams.topology;

import dev.rtmstreams.processor.spi.ConfigValues;
import java.util.Map;
import org.apache.kafka.common.annotation.InterfaceStability;
import org.apache.kafka.streams.state.RocksDBConfigSetter;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.Cache;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.WriteBufferManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bounds the off-heap memory of every RocksDB store in the JVM, as Kafka Streams' memory-management guide
 * describes: one shared LRU block cache and one {@link WriteBufferManager} charging memtables to that cache, created
 * once per JVM with the configured total; index and filter blocks are cached in it with high priority.
 * <p>Enable with {@code rocksdb.config.setter=dev.rtmstreams.topology.RocksDbBoundedMemory} (or
 * {@link RtmStreams.Builder#rocksDbMemory(long)}) and size it with {@value #TOTAL_MEMORY_BYTES_CONFIG}
 * (default {@value #DEFAULT_TOTAL_MEMORY_BYTES} bytes); {@value #MEMTABLE_FRACTION_CONFIG} (default 0.5) of it may
 * hold memtables. The first store opened in the JVM fixes the sizes; a later different setting is logged and ignored.
 * The shared cache lives as long as the JVM (it is never closed per store).
 */
@InterfaceStability.Evolving
public final class RocksDbBoundedMemory implements RocksDBConfigSetter {

    /** Total bytes for block cache plus memtables of all RocksDB stores of the JVM. */
    public static final String TOTAL_MEMORY_BYTES_CONFIG = "rtm.rocksdb.total.memory.bytes";
    /** Default of {@link #TOTAL_MEMORY_BYTES_CONFIG}: 256 MiB. */
    public static final long DEFAULT_TOTAL_MEMORY_BYTES = 256L * 1024 * 1024;
    /** Share of the total that memtables may use (0 to 1). */
    public static final String MEMTABLE_FRACTION_CONFIG = "rtm.rocksdb.memtable.fraction";
    /** Share of the cache reserved for index and filter blocks (high priority pool). */
    static final double INDEX_FILTER_RATIO = 0.1;

    private static final Logger LOG = LoggerFactory.getLogger(RocksDbBoundedMemory.class);
    private static Cache cache;
    private static WriteBufferManager writeBufferManager;
    private static long totalBytes;
    private static long memtableBytes;

    /** Kafka Streams instantiates this class by name. */
    public RocksDbBoundedMemory() {}

    @Override
    public void setConfig(String storeName, Options options, Map<String, Object> configs) {
        long total = ConfigValues.longValue(configs, TOTAL_MEMORY_BYTES_CONFIG, DEFAULT_TOTAL_MEMORY_BYTES);
        double fraction = ConfigValues.doubleValue(configs, MEMTABLE_FRACTION_CONFIG, 0.5);
        if (total < 1024 * 1024) {
            throw new IllegalArgumentException(TOTAL_MEMORY_BYTES_CONFIG + " must be at least 1 MiB: " + total);
        }
        if (!(fraction > 0 && fraction < 1)) {
            throw new IllegalArgumentException(MEMTABLE_FRACTION_CONFIG + " must be in (0, 1): " + fraction);
        }
        synchronized (RocksDbBoundedMemory.class) {
            if (cache == null) {
                totalBytes = total;
                memtableBytes = (long) (total * fraction);
                cache = new LRUCache(total, -1, false, INDEX_FILTER_RATIO);
                writeBufferManager = new WriteBufferManager(memtableBytes, cache);
                LOG.info("RocksDB memory bounded to {} bytes per JVM ({} for memtables)", totalBytes, memtableBytes);
            } else if (total != totalBytes) {
                LOG.warn(
                        "{}={} ignored for store {}: the JVM-wide RocksDB memory is already bounded to {} bytes",
                        TOTAL_MEMORY_BYTES_CONFIG,
                        total,
                        storeName,
                        totalBytes);
            }
        }
        BlockBasedTableConfig table = (BlockBasedTableConfig) options.tableFormatConfig();
        table.setBlockCache(cache);
        table.setCacheIndexAndFilterBlocks(true);
        table.setCacheIndexAndFilterBlocksWithHighPriority(true);
        table.setPinTopLevelIndexAndFilter(true);
        options.setWriteBufferManager(writeBufferManager);
        options.setTableFormatConfig(table);
    }

    @Override
    public void close(String storeName, Options options) {
        // the cache and write buffer manager are shared by every store of the JVM: never closed here
    }

    /** @return the JVM-wide total in bytes, or 0 before the first store was configured */
    public static synchronized long configuredTotalBytes() {
        return totalBytes;
    }

    /** @return bytes currently used by the shared block cache (memtables included), or 0 before the first store */
    public static synchronized long usedBytes() {
        return cache == null ? 0 : cache.getUsage();
    }
}
