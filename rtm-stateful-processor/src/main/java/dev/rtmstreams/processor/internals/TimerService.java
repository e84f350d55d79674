package dev.rtmstreams.processor.internals;

import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * Timers of one operator task, in processing or event time (after Flink's {@code InternalTimerService} and Spark's
 * {@code TimerStateImpl}): a time-ordered index {@code [TIMER][time][key]} for firing and a per-key index
 * {@code [TIMER/KEY][key][time]} for listing, both in the operator store. Keeps a hint of the earliest pending time
 * so that a pass with nothing due costs no store scan.
 */
final class TimerService {

    /** A pending timer. */
    record Timer(long time, byte[] key) {}

    private final KeyValueStore<Bytes, byte[]> store;
    private final int maxPerPass;
    private long nextTimerHint = Long.MIN_VALUE; // Long.MIN_VALUE: unknown, scan

    /**
     * @param store the operator store
     * @param maxPerPass upper bound of timers returned by one {@link #due} call (more are due next pass)
     */
    TimerService(KeyValueStore<Bytes, byte[]> store, int maxPerPass) {
        this.store = store;
        this.maxPerPass = maxPerPass;
    }

    /** Registers a timer at {@code time} for {@code key}; registering it twice keeps one. */
    void register(byte[] key, long time) {
        store.put(Bytes.wrap(Layout.timerKey(time, key)), Layout.EMPTY);
        store.put(Bytes.wrap(Layout.timerByKey(key, time)), Layout.EMPTY);
        if (nextTimerHint != Long.MIN_VALUE && time < nextTimerHint) {
            nextTimerHint = time;
        }
    }

    /** Deletes the timer at {@code time} for {@code key}, if any. */
    void delete(byte[] key, long time) {
        store.delete(Bytes.wrap(Layout.timerKey(time, key)));
        store.delete(Bytes.wrap(Layout.timerByKey(key, time)));
    }

    /** @return whether a timer at {@code time} for {@code key} is pending */
    boolean exists(byte[] key, long time) {
        return store.get(Bytes.wrap(Layout.timerKey(time, key))) != null;
    }

    /** @return the pending timers of {@code key} in ascending time order */
    List<Long> list(byte[] key) {
        return list(store, key);
    }

    /** @return the pending timers of {@code key} in {@code store}, ascending (also for read-only tooling) */
    static List<Long> list(ReadOnlyKeyValueStore<Bytes, byte[]> store, byte[] key) {
        byte[] prefix = Layout.timerByKeyPrefix(key);
        List<Long> out = new ArrayList<>();
        try (KeyValueIterator<Bytes, byte[]> it = store.prefixScan(Bytes.wrap(prefix), BytesSer.INSTANCE)) {
            while (it.hasNext()) {
                byte[] k = it.next().key.get();
                if (k.length == prefix.length + 8) {
                    out.add(Layout.getTime(k, prefix.length));
                }
            }
        }
        return out;
    }

    /**
     * @param upTo exclusive bound: timers with time strictly below it are due (Spark: {@code <})
     * @return up to {@code maxPerPass} due timers in (time, key) order; empty without a scan when the hint shows
     *     nothing is due. Call {@link #passDone} after firing them.
     */
    List<Timer> due(long upTo) {
        if (nextTimerHint != Long.MIN_VALUE && nextTimerHint >= upTo) {
            return List.of();
        }
        List<Timer> due = new ArrayList<>();
        long next = Long.MAX_VALUE;
        try (KeyValueIterator<Bytes, byte[]> it = store.range(
                Bytes.wrap(Layout.timeSectionStart(Layout.TIMER)),
                Bytes.wrap(Layout.timeSectionEnd(Layout.TIMER, Long.MAX_VALUE)))) {
            while (it.hasNext()) {
                byte[] k = it.next().key.get();
                long t = Layout.timeOf(k);
                if (t >= upTo || due.size() >= maxPerPass) {
                    next = t;
                    break;
                }
                due.add(new Timer(t, Layout.suffixOfTimeKey(k)));
            }
        }
        // the earliest pending time: the returned timers stay pending until fired and deleted
        nextTimerHint = due.isEmpty() ? next : due.get(0).time();
        return due;
    }

    /** After firing the timers of a {@link #due} call: handlers may have registered timers, so rescan next time. */
    void passDone(boolean firedAny) {
        if (firedAny) {
            nextTimerHint = Long.MIN_VALUE;
        }
    }
}
