package dev.rtmstreams.processor.spi;

import java.util.Objects;
import org.apache.kafka.common.annotation.InterfaceStability;

/**
 * An operator task's {@link InputWatermarks} with when to persist them, the part every operator shares; what is
 * written, and where, is the operator's codec ({@link Writer}): transformWithState writes the watermark alone into its
 * operator store, the interval join one meta record with both sides' maxima, the watermark and its sequence high mark.
 * The layouts differ and stay each operator's; this class decides when the writer runs.
 *
 * <p>Every move goes through {@link #observe} and {@link #advance}, which note that the persisted state is behind
 * (a move of an input's max counts only when the layout holds the maxima). Then, by the {@link Persist policy}: written
 * at once, or when the owner calls {@link #persistIfMoved()} (before each commit of the task, as Spark records the
 * watermark once per batch; or once at the end of a record whose handling moved it several times), or never on its own
 * (the owner recovers it from other state after a restart, and writes with {@link #write()} when it must). Not
 * thread-safe: used by the task's stream thread only. Allocation-free on the per-record path.
 *
 * <pre>{@code
 * PersistedWatermarks w = new PersistedWatermarks(inputs, Persist.DEFERRED, false, ws -> store.put(KEY, encode(ws)));
 * w.observe(0, eventTime);
 * w.advance();
 * // before the task commits:
 * w.persistIfMoved();
 * }</pre>
 */
@InterfaceStability.Unstable
public final class PersistedWatermarks {

    /** When a move is written. */
    public enum Persist {
        /** Every move is written at once. */
        EACH_MOVE,
        /** A move is written by the next {@link #persistIfMoved()} (e.g. right before the task's commit). */
        DEFERRED,
        /**
         * A move is never written on its own: the owner recovers the watermarks from other state after a restart and
         * writes them with {@link #write()} when it writes that record for another reason.
         */
        RECOVERABLE
    }

    /** The operator's codec: writes the watermarks in the operator's own layout. */
    @FunctionalInterface
    public interface Writer {
        /** @param watermarks the current watermarks, to encode and put into the operator's store */
        void write(InputWatermarks watermarks);
    }

    private final InputWatermarks watermarks;
    private final boolean maximaPersisted;
    private final Writer writer;
    private Persist persist;
    private boolean unpersisted;

    /**
     * @param watermarks the task's tracker, restored by the owner from its persisted state; not null
     * @param persist when a move is written; not null
     * @param maximaPersisted whether the layout holds the inputs' max event times (then a move of one is a change to
     *     write; otherwise only a move of the watermark is)
     * @param writer the operator's codec; not null
     */
    public PersistedWatermarks(InputWatermarks watermarks, Persist persist, boolean maximaPersisted, Writer writer) {
        this.watermarks = Objects.requireNonNull(watermarks, "watermarks");
        this.persist = Objects.requireNonNull(persist, "persist");
        this.maximaPersisted = maximaPersisted;
        this.writer = Objects.requireNonNull(writer, "writer");
    }

    /** @return the tracker (for reads: value, maxima, lateness) */
    public InputWatermarks watermarks() {
        return watermarks;
    }

    /** @return when a move is written */
    public Persist persist() {
        return persist;
    }

    /**
     * Changes when a move is written (e.g. to {@link Persist#DEFERRED} once the task's pre-commit hook is installed).
     * A move not yet written stays to be written.
     *
     * @param persist the new policy; not null
     */
    public void persist(Persist persist) {
        this.persist = Objects.requireNonNull(persist, "persist");
    }

    /**
     * Takes a row's event time into its input's max ({@link InputWatermarks#observe}).
     *
     * @return whether the input's max moved
     */
    public boolean observe(int input, long eventTime) {
        boolean moved = watermarks.observe(input, eventTime);
        if (moved && maximaPersisted) {
            moved();
        }
        return moved;
    }

    /**
     * Moves the watermark to what the inputs allow, every input active ({@link InputWatermarks#advance()}).
     *
     * @return whether the watermark moved
     */
    public boolean advance() {
        boolean moved = watermarks.advance();
        if (moved) {
            moved();
        }
        return moved;
    }

    /**
     * Moves the watermark to what the inputs allow at {@code nowMs}, idle inputs by the tracker's rule
     * ({@link InputWatermarks#advance(long, long[])}).
     *
     * @return whether the watermark moved
     */
    public boolean advance(long nowMs, long[] lastInputMs) {
        boolean moved = watermarks.advance(nowMs, lastInputMs);
        if (moved) {
            moved();
        }
        return moved;
    }

    /** @return whether a move has not been written yet */
    public boolean unpersisted() {
        return unpersisted;
    }

    /** Writes the watermarks if a move has not been written yet (a {@link Persist#RECOVERABLE} one never is). */
    public void persistIfMoved() {
        if (unpersisted) {
            write();
        }
    }

    /** Writes the watermarks now, whatever the policy. */
    public void write() {
        unpersisted = false;
        writer.write(watermarks);
    }

    private void moved() {
        switch (persist) {
            case EACH_MOVE -> write();
            case DEFERRED -> unpersisted = true;
            case RECOVERABLE -> {
                // recovered from other state after a restart: not written on its own
            }
        }
    }
}
