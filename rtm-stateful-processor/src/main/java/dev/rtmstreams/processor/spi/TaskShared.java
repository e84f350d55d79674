package dev.rtmstreams.processor.spi;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.kafka.common.annotation.InterfaceStability;
import org.apache.kafka.streams.processor.api.ProcessingContext;

/**
 * One object per task shared by the processors of one operator in that task: transformWithState's runtime (its main
 * and initial-state processors), the interval join's in-memory state (its two side processors). The first processor
 * of a task incarnation to {@link #acquire} creates it; every acquire is matched by one {@link #release} in the
 * processor's {@code close}, and the last release drops it (and hands it to the close action), so that the next
 * incarnation of the task (after a suspension, a recycle into a standby, a revival) starts from the stores again:
 * what the object caches would be stale, a standby having applied another owner's changelog without these processors.
 *
 * <p>An instance belongs to one operator instance (the supplier holds it), not to the JVM. A task is identified by its
 * id and its task directory ({@code <state.dir>/<application.id>/<task>}), so several Kafka Streams instances of one
 * topology in one JVM never share an object (two cannot hold the same task directory: Kafka Streams locks it).
 * Processors of one task may run on different stream threads over their lifetime, hence the lock.
 *
 * <p>Why a registry and not a per-task store (an {@link UnloggedStore} that Kafka Streams creates once per task): such
 * a store is one more store in the operator's topology, and a processor constructed and initialized by hand (e.g. over
 * a {@code MockProcessorContext} holding only the operator's named store, as transformWithState's users test) would
 * fail without it. The registry needs nothing in the topology.
 *
 * <pre>{@code
 * private final TaskShared<JoinTaskState> shared = new TaskShared<>(state -> {});
 * // init:  state = shared.acquire(context, JoinTaskState::new);
 * // close: shared.release(context);
 * }</pre>
 *
 * @param <T> the shared object
 */
@InterfaceStability.Unstable
public final class TaskShared<T> {

    private final Map<String, Entry<T>> byTask = new HashMap<>();
    private final Consumer<? super T> onLastRelease;

    private static final class Entry<T> {
        final T value;
        int refs;

        Entry(T value) {
            this.value = value;
        }
    }

    /**
     * @param onLastRelease called with the object when the last processor of its task incarnation releases it (e.g.
     *     to close it); never null, {@code v -> {}} for nothing
     */
    public TaskShared(Consumer<? super T> onLastRelease) {
        this.onLastRelease = Objects.requireNonNull(onLastRelease, "onLastRelease");
    }

    /**
     * The task's object, created by {@code create} when no processor of this task incarnation holds one. A failing
     * {@code create} leaves nothing behind: the task's next attempt creates afresh.
     *
     * @param context the acquiring processor's context (its task id and task directory identify the task)
     * @param create makes and prepares the object; must not return null
     * @return the task's object, never null; release it with {@link #release} in the processor's {@code close}
     * @throws NullPointerException when {@code create} returned null
     * @throws RuntimeException what {@code create} threw
     */
    public synchronized T acquire(ProcessingContext context, Supplier<? extends T> create) {
        String id = id(context);
        Entry<T> e = byTask.get(id);
        if (e == null) {
            T value = Objects.requireNonNull(create.get(), "the task's shared object (create returned null)");
            e = new Entry<>(value);
            byTask.put(id, e);
        }
        e.refs++;
        return e.value;
    }

    /**
     * Gives up one hold on the task's object; the last one drops it and calls the close action. Call it once per
     * successful {@link #acquire} (a processor whose acquire failed holds nothing); a task that holds nothing is left
     * as it is.
     *
     * @param context the releasing processor's context
     */
    public synchronized void release(ProcessingContext context) {
        String id = id(context);
        Entry<T> e = byTask.get(id);
        if (e != null && --e.refs <= 0) {
            byTask.remove(id);
            onLastRelease.accept(e.value);
        }
    }

    /** @return how many tasks hold an object now (for tests and diagnostics) */
    public synchronized int size() {
        return byTask.size();
    }

    /** Task id plus task directory, so that several Kafka Streams instances in one JVM never share an object. */
    private static String id(ProcessingContext context) {
        String dir;
        try {
            dir = context.stateDir().getAbsolutePath();
        } catch (RuntimeException e) {
            dir = "-"; // e.g. a MockProcessorContext without a state directory
        }
        return context.taskId() + "@" + dir;
    }
}
