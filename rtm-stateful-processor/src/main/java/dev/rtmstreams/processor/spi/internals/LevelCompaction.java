package dev.rtmstreams.processor.spi.internals;

import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.state.RocksDBConfigSetter;
import org.rocksdb.CompactionStyle;
import org.rocksdb.Options;

/**
 * The {@link RocksDBConfigSetter} of an operator store whose keys are written in time order (a time prefix): level
 * compaction instead of Kafka Streams' default universal compaction, then the application's own setter, if any, which
 * thus has the last word.
 *
 * <p>With universal compaction RocksDB merges whole sorted runs, rewriting rows that no longer receive writes again
 * and again; with level compaction and keys that grow with time, a flushed file overlaps only the newest key range,
 * so older files are moved down without being rewritten, and a range deletion of an old time prefix drops them.
 *
 * <p>Kafka Streams instantiates this class by name: the store's context hands it the application's setter class
 * under {@link #DELEGATE_CONFIG} ({@link #configsFor}).
 */
public final class LevelCompaction implements RocksDBConfigSetter {

    /** The application's own {@code rocksdb.config.setter} class, as this setter's store context passes it. */
    static final String DELEGATE_CONFIG = "rtm.internal.rocksdb.config.setter.delegate";

    private RocksDBConfigSetter delegate;

    /** Kafka Streams instantiates this class by name. */
    public LevelCompaction() {}

    /**
     * @param appConfigs the application's configs as a store context gives them
     * @return the configs a store with level compaction is opened with: this setter in place of the application's,
     *     which is passed on under {@link #DELEGATE_CONFIG}
     */
    static Map<String, Object> configsFor(Map<String, Object> appConfigs) {
        Map<String, Object> configs = new HashMap<>(appConfigs);
        Object own = configs.put(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG, LevelCompaction.class);
        if (own != null && own != LevelCompaction.class) {
            configs.put(DELEGATE_CONFIG, own);
        }
        return configs;
    }

    @Override
    public void setConfig(String storeName, Options options, Map<String, Object> configs) {
        options.setCompactionStyle(CompactionStyle.LEVEL);
        options.setLevelCompactionDynamicLevelBytes(true);
        Object own = configs.get(DELEGATE_CONFIG);
        if (own != null) {
            delegate = newSetter(own);
            delegate.setConfig(storeName, options, configs);
        }
    }

    @Override
    public void close(String storeName, Options options) {
        if (delegate != null) {
            delegate.close(storeName, options);
        }
    }

    private static RocksDBConfigSetter newSetter(Object setter) {
        try {
            Class<?> type = setter instanceof Class<?> c
                    ? c
                    : Class.forName(setter.toString().trim());
            return (RocksDBConfigSetter) Utils.newInstance(type);
        } catch (ClassNotFoundException | ClassCastException e) {
            throw new IllegalArgumentException(
                    StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG + " must name a RocksDBConfigSetter class: "
                            + setter,
                    e);
        }
    }
}
