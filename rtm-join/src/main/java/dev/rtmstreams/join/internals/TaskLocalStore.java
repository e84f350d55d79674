package dev.rtmstreams.join.internals;

import java.util.Map;
import java.util.function.Supplier;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.state.StoreBuilder;

/**
 * A non-persistent, non-changelogged "store" that only carries one mutable object shared by the processors of one
 * task (the join's two side processors). Kafka Streams creates one instance per task from its {@link Builder} and
 * hands the same instance to every processor connected to it; {@code ProcessorContext#getStateStore} returns store
 * types it does not know undecorated. What the object holds is a cache of changelogged state: it starts empty with
 * every task incarnation and is rebuilt from the real stores.
 *
 * @param <T> the shared object
 */
final class TaskLocalStore<T> implements StateStore {

    private final String name;
    private final Supplier<T> factory;
    private T value;
    private boolean open;

    private TaskLocalStore(String name, Supplier<T> factory) {
        this.name = name;
        this.factory = factory;
    }

    /** @return the task's shared object, created on first use */
    T get() {
        if (value == null) {
            value = factory.get();
        }
        return value;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void init(StateStoreContext context, StateStore root) {
        context.register(root, (key, value) -> {
            // never called: nothing is changelogged
        });
        open = true;
    }

    @Override
    public void flush() {
        // nothing to flush: the object is derived from changelogged stores
    }

    @Override
    public void close() {
        value = null;
        open = false;
    }

    @Override
    public boolean persistent() {
        return false;
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    /** Builds one {@link TaskLocalStore} per task. */
    static final class Builder<T> implements StoreBuilder<TaskLocalStore<T>> {
        private final String name;
        private final Supplier<T> factory;

        Builder(String name, Supplier<T> factory) {
            this.name = name;
            this.factory = factory;
        }

        @Override
        public StoreBuilder<TaskLocalStore<T>> withCachingEnabled() {
            throw new UnsupportedOperationException("a task-local store has no cache");
        }

        @Override
        public StoreBuilder<TaskLocalStore<T>> withCachingDisabled() {
            return this;
        }

        @Override
        public StoreBuilder<TaskLocalStore<T>> withLoggingEnabled(Map<String, String> config) {
            throw new UnsupportedOperationException("a task-local store is not changelogged");
        }

        @Override
        public StoreBuilder<TaskLocalStore<T>> withLoggingDisabled() {
            return this;
        }

        @Override
        public TaskLocalStore<T> build() {
            return new TaskLocalStore<>(name, factory);
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
}
