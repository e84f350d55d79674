package dev.rtmstreams.processor.spi;

import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import org.apache.kafka.common.annotation.InterfaceStability;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.state.StoreBuilder;

/**
 * Builds a custom store that Kafka Streams neither caches nor changelogs: a store an operator adds for what it holds
 * per task outside the changelogged stores (a cache derived from them, or a hook into the task's commit). Caching
 * and logging stay disabled: asking to enable either throws.
 *
 * <pre>{@code
 * builder.addStateStore(new UnloggedStoreBuilder<>(name, () -> new EpochStore(name),
 *         "the epoch store holds no data to cache", "the epoch store holds no data to log"), processorName);
 * }</pre>
 *
 * @param <S> the store type
 */
@InterfaceStability.Unstable
public final class UnloggedStoreBuilder<S extends StateStore> implements StoreBuilder<S> {

    private final String name;
    private final Supplier<S> stores;
    private final String noCache;
    private final String noLog;

    /**
     * @param name the store's name
     * @param stores a new store per call (Kafka Streams builds one per task)
     * @param noCache the message of the exception {@link #withCachingEnabled()} throws
     * @param noLog the message of the exception {@link #withLoggingEnabled(Map)} throws
     */
    public UnloggedStoreBuilder(String name, Supplier<S> stores, String noCache, String noLog) {
        this.name = Objects.requireNonNull(name, "name");
        this.stores = Objects.requireNonNull(stores, "stores");
        this.noCache = noCache;
        this.noLog = noLog;
    }

    /** @throws UnsupportedOperationException always: the store has no cache */
    @Override
    public StoreBuilder<S> withCachingEnabled() {
        throw new UnsupportedOperationException(noCache);
    }

    @Override
    public StoreBuilder<S> withCachingDisabled() {
        return this;
    }

    /** @throws UnsupportedOperationException always: the store is not changelogged */
    @Override
    public StoreBuilder<S> withLoggingEnabled(Map<String, String> config) {
        throw new UnsupportedOperationException(noLog);
    }

    @Override
    public StoreBuilder<S> withLoggingDisabled() {
        return this;
    }

    @Override
    public S build() {
        return stores.get();
    }

    @Override
    public Map<String, String> logConfig() {
        return Map.of();
    }

    @Override
    public boolean loggingEnabled() {
        return false;
    }

    @Override
    public String name() {
        return name;
    }
}
