package dev.rtmstreams.processor.spi;

import static dev.rtmstreams.processor.spi.ByteLayout.getTime;
import static dev.rtmstreams.processor.spi.ByteLayout.putTime;

import java.util.function.Consumer;
import org.apache.kafka.common.annotation.InterfaceStability;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * The time-ordered section of a store whose keys are {@code [tag][time][...]} (the time as {@link ByteLayout#putTime},
 * so byte order is time order), scanned in bounded passes from a tracked lower bound: the one scan loop of every
 * time-ordered queue of the operators (transformWithState's timers and TTL index in the operator store, a
 * {@link TimeQueue#inStore store-backed queue} such as the interval join's time index). The section only reads; the
 * caller removes what a pass took (each its own way: a batch of deletes, or one by one after acting on each entry)
 * and then reports the pass done ({@link #passed}), which raises the lower bound. Writers report each entry they add
 * ({@link #added}), which lowers it.
 *
 * <pre>{@code
 * TimeSection.Pass pass = section.scan(now, false, 100, taken::add);
 * for (Bytes k : taken) store.delete(k);
 * section.passed(pass);
 * }</pre>
 *
 * <p>Not thread-safe: for the stream thread.
 */
@InterfaceStability.Unstable
public final class TimeSection {

    /**
     * What a {@link #scan} saw.
     *
     * @param maxTime the largest time the pass took
     * @param taken how many entries it took
     * @param lastTime the time of the last entry taken ({@link Long#MIN_VALUE} when none)
     * @param more whether entries at or below {@code maxTime} remain (the pass stopped on its budget)
     * @param next the time of the first entry after the taken ones the pass saw, or {@link Long#MAX_VALUE} when it saw
     *     none
     */
    @InterfaceStability.Unstable
    public record Pass(long maxTime, int taken, long lastTime, boolean more, long next) {}

    private final ReadOnlyKeyValueStore<Bytes, byte[]> store;
    private final byte tag;
    private final TimeBound bound = new TimeBound();

    /**
     * @param store the store holding the section (read only: range scans)
     * @param tag the first byte of the section's keys; not {@code 0xFF}
     */
    public TimeSection(ReadOnlyKeyValueStore<Bytes, byte[]> store, byte tag) {
        if (tag == (byte) 0xFF) {
            throw new IllegalArgumentException("a time section's tag must not be 0xFF");
        }
        this.store = store;
        this.tag = tag;
    }

    /** @return the first byte of the section's keys */
    public byte tag() {
        return tag;
    }

    /** @return a time no entry of the section is older than ({@link Long#MIN_VALUE} when unknown) */
    public long lowerBound() {
        return bound.get();
    }

    /** An entry was written at {@code time}: the lower bound stays at or below it. */
    public void added(long time) {
        bound.added(time);
    }

    /** Sets the lower bound; {@code time} must be at or below every entry's time (e.g. the oldest entry's). */
    public void setLowerBound(long time) {
        bound.set(time);
    }

    /**
     * One bounded pass: hands the keys of up to {@code budget} entries with a time at or below {@code maxTime} to
     * {@code taken}, in key order, starting at the lower bound. Entries written until {@link #passed} keep the lower
     * bound at or below their time.
     *
     * @param maxTime the largest time to take
     * @param seekNext whether to read on past {@code maxTime} to the next entry (its time is then {@link Pass#next}),
     *     as a hint of when the next pass has work; otherwise the scan ends at {@code maxTime}
     * @param budget how many entries at most
     * @param taken receives each taken entry's key
     * @return what the pass saw, to hand to {@link #passed} once the taken entries are removed
     */
    public Pass scan(long maxTime, boolean seekNext, int budget, Consumer<Bytes> taken) {
        bound.startPass();
        if (!seekNext && bound.get() > maxTime) {
            return new Pass(maxTime, 0, Long.MIN_VALUE, false, Long.MAX_VALUE); // nothing that old: no empty range
        }
        int n = 0;
        long last = Long.MIN_VALUE;
        boolean more = false;
        long next = Long.MAX_VALUE;
        try (KeyValueIterator<Bytes, byte[]> it = store.range(
                Bytes.wrap(start(tag, bound.get())), Bytes.wrap(end(tag, seekNext ? Long.MAX_VALUE : maxTime)))) {
            while (it.hasNext()) {
                Bytes key = it.next().key;
                byte[] k = key.get();
                if (k.length < 9 || k[0] != tag) {
                    break; // the key just after the section: the scan's inclusive upper end
                }
                long t = getTime(k, 1);
                if (t > maxTime || n == budget) {
                    more = t <= maxTime;
                    next = t;
                    break;
                }
                taken.accept(key);
                n++;
                last = t;
            }
        }
        return new Pass(maxTime, n, last, more, next);
    }

    /** The entries {@code pass} took have been removed: raises the lower bound to where they ended. */
    public void passed(Pass pass) {
        bound.passed(pass);
    }

    /** @return the smallest time of an entry, or {@link Long#MAX_VALUE} when the section is empty (one seek) */
    public long oldest() {
        try (KeyValueIterator<Bytes, byte[]> it =
                store.range(Bytes.wrap(start(tag, bound.get())), Bytes.wrap(end(tag, Long.MAX_VALUE)))) {
            return firstTime(it, Long.MAX_VALUE);
        }
    }

    /** @return the largest time of an entry, or {@link Long#MIN_VALUE} when the section is empty (one seek) */
    public long newest() {
        try (KeyValueIterator<Bytes, byte[]> it =
                store.reverseRange(Bytes.wrap(start(tag, bound.get())), Bytes.wrap(end(tag, Long.MAX_VALUE)))) {
            return firstTime(it, Long.MIN_VALUE);
        }
    }

    private long firstTime(KeyValueIterator<Bytes, byte[]> it, long none) {
        while (it.hasNext()) {
            byte[] k = it.next().key.get();
            if (k.length >= 9 && k[0] == tag) {
                return getTime(k, 1);
            }
        }
        return none;
    }

    /** @return {@code [tag][time]}: sorts before every key {@code [tag][t >= time][...]} and after any earlier one */
    public static byte[] start(byte tag, long time) {
        byte[] out = new byte[9];
        out[0] = tag;
        putTime(out, 1, time);
        return out;
    }

    /**
     * @return an inclusive upper bound of the keys {@code [tag][t <= time][...]}: {@code [tag][time + 1]}, or
     *     {@code [tag + 1]} for {@link Long#MAX_VALUE}; a scan up to it may meet that one key, which is not in the range
     */
    public static byte[] end(byte tag, long time) {
        if (time == Long.MAX_VALUE) {
            return new byte[] {(byte) (tag + 1)};
        }
        return start(tag, time + 1);
    }
}
