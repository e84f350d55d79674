package dev.rtmstreams.join.internals;

import dev.rtmstreams.processor.spi.UnloggedStore;
import dev.rtmstreams.processor.spi.UnloggedStoreBuilder;
import java.util.function.Supplier;
import org.apache.kafka.streams.state.StoreBuilder;

/**
 * A non-persistent, non-changelogged "store" that only carries one mutable object shared by the processors of one
 * task (the join's two side processors). Kafka Streams creates one instance per task from its {@link #builder} and
 * hands the same instance to every processor connected to it; {@code ProcessorContext#getStateStore} returns store
 * types it does not know undecorated. What the object holds is a cache of changelogged state: it starts empty with
 * every task incarnation and is rebuilt from the real stores.
 *
 * @param <T> the shared object
 */
final class TaskLocalStore<T> extends UnloggedStore {

    private final Supplier<T> factory;
    private T value;

    private TaskLocalStore(String name, Supplier<T> factory) {
        super(name);
        this.factory = factory;
    }

    /** @return the task's shared object, created on first use */
    T get() {
        if (value == null) {
            value = factory.get();
        }
        return value;
    }

    /**
     * Drops the shared object: the task's processors were closed (the task was suspended, recycled into a standby or
     * is closing). Kafka Streams keeps a recycled task's stores open, and a standby applies the other owner's
     * changelog records to them without these processors, so what the object caches would be stale when the task
     * becomes active again; the next incarnation's first processor starts from the stores.
     */
    void reset() {
        value = null;
    }

    @Override
    public void close() {
        reset();
        super.close();
    }

    /**
     * @param name the store's name
     * @param factory creates the shared object on first use in a task incarnation
     * @param <T> the shared object
     * @return a builder of one {@link TaskLocalStore} per task
     */
    static <T> StoreBuilder<TaskLocalStore<T>> builder(String name, Supplier<T> factory) {
        return new UnloggedStoreBuilder<>(
                name,
                () -> new TaskLocalStore<>(name, factory),
                "a task-local store has no cache",
                "a task-local store is not changelogged");
    }
}
