package dev.rtmstreams.processor.spi;

import java.util.Objects;
import org.apache.kafka.common.annotation.InterfaceStability;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;

/**
 * Base of a custom store that holds nothing of its own to restore or persist (built with {@link
 * UnloggedStoreBuilder}): it registers with its task without a restore callback, is not persistent, and tracks
 * whether it is open. Subclasses add what they carry per task and override {@link #flush()} or {@link #close()} (call
 * {@code super.close()}) where they need to.
 */
@InterfaceStability.Unstable
public abstract class UnloggedStore implements StateStore {

    private final String name;
    private boolean open;

    /** @param name the store's name */
    protected UnloggedStore(String name) {
        this.name = Objects.requireNonNull(name, "name");
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

    /** Nothing to flush by default: the store persists nothing. */
    @Override
    public void flush() {}

    @Override
    public void close() {
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
}
