package dev.rtmstreams.processor.internals;

import dev.rtmstreams.processor.spi.ByteLayout;
import dev.rtmstreams.processor.spi.StoreWriteBatch;
import dev.rtmstreams.processor.spi.TimeSection;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BiConsumer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * Timers of one operator task, in processing or event time (after Flink's {@code InternalTimerService} and Spark's
 * {@code TimerStateImpl}): a time-ordered index {@code [TIMER][time][key]} for firing and a per-key index
 * {@code [TIMER/KEY][key][time]} for listing, both in the operator store. Keeps a hint of the earliest pending time
 * so that a pass with nothing due costs no store scan. Due timers are found by the operator shell's
 * {@link TimeSection} scan (the one the TTL cleanup and the interval join's store-backed time index use), from a
 * lower bound of the pending times: fired timers are deleted in time order, and RocksDB would otherwise step over all
 * their tombstones on every pass until compaction drops them (the cost of a pass grew with the number of timers fired
 * so far).
 *
 * <p>Only the time-ordered index is changelogged: the per-key index holds the same facts, so it is written to the
 * store underneath the change-logging layer (the operator store's innermost layer), dropped once per task
 * incarnation after restoration ({@link #resetKeyIndex}) and written anew from the time-ordered index the first time
 * the processor lists its timers ({@link #list(byte[])}); from then on every register and delete keeps it. A
 * processor that never lists its timers (a deduplication, a timeout per key) so writes one store entry per timer,
 * not two, and deletes one. A store without that layer keeps both indexes changelogged and always maintained.
 * Read-only tooling ({@link #list(ReadOnlyKeyValueStore, byte[])}) reads the time-ordered index, which is always
 * complete.
 */
final class TimerService {

    /** A pending timer. */
    record Timer(long time, byte[] key) {}

    private static final int REBUILD_BATCH = 1000;

    private final KeyValueStore<Bytes, byte[]> store;
    private final KeyValueStore<Bytes, byte[]> keyIndex;
    private final int maxPerPass;
    // whether keyIndex holds every pending timer (always when it is the changelogged store itself)
    private boolean keyIndexLive;
    private long nextTimerHint = Long.MIN_VALUE; // Long.MIN_VALUE: unknown, scan
    // The time-ordered index, with a lower bound of the pending times
    private final TimeSection timers;
    // The pass of the last due call that returned timers, until passDone: it moves the lower bound once they fired
    private TimeSection.Pass pendingPass;

    /**
     * @param store the operator store (changelogged)
     * @param keyIndex where the per-key index lives: the operator store's innermost layer (not changelogged, rebuilt
     *     by {@link #resetKeyIndex} and written on first use), or {@code store} itself
     * @param maxPerPass upper bound of timers returned by one {@link #due} call (more are due next pass)
     */
    TimerService(KeyValueStore<Bytes, byte[]> store, KeyValueStore<Bytes, byte[]> keyIndex, int maxPerPass) {
        this.store = store;
        this.keyIndex = keyIndex;
        this.maxPerPass = maxPerPass;
        this.keyIndexLive = keyIndex == store;
        this.timers = new TimeSection(store, Layout.TIMER);
    }

    /** Registers a timer at {@code time} for {@code key}; registering it twice keeps one. */
    void register(byte[] key, long time) {
        store.put(Bytes.wrap(Layout.timerKey(time, key)), Layout.EMPTY);
        if (keyIndexLive) {
            keyIndex.put(Bytes.wrap(Layout.timerByKey(key, time)), Layout.EMPTY);
        }
        if (nextTimerHint != Long.MIN_VALUE && time < nextTimerHint) {
            nextTimerHint = time;
        }
        timers.added(time);
    }

    /** Deletes the timer at {@code time} for {@code key}, if any. */
    void delete(byte[] key, long time) {
        store.delete(Bytes.wrap(Layout.timerKey(time, key)));
        if (keyIndexLive) {
            keyIndex.delete(Bytes.wrap(Layout.timerByKey(key, time)));
        }
    }

    /**
     * Drops the per-key index when it is not changelogged: called once per task incarnation, after the store was
     * restored. A restored or migrated task has no per-key entries of timers registered since the last flush (or any,
     * on a new machine), and the store may hold entries of timers deleted since (or written by an earlier version):
     * every entry is removed, and the index is written anew from the time-ordered one on the first {@link
     * #list(byte[])}.
     */
    void resetKeyIndex() {
        if (keyIndex == store) {
            return;
        }
        clearKeyIndex();
        keyIndexLive = false;
    }

    private void clearKeyIndex() {
        StoreWriteBatch batch = new StoreWriteBatch(keyIndex, REBUILD_BATCH);
        try (KeyValueIterator<Bytes, byte[]> it = keyIndex.range(
                Bytes.wrap(Layout.sectionStart(Layout.TIMER_BY_KEY)),
                Bytes.wrap(Layout.sectionEnd(Layout.TIMER_BY_KEY)))) {
            while (it.hasNext()) {
                Bytes k = it.next().key;
                if (k.get()[0] == Layout.TIMER_BY_KEY) {
                    batch.put(k, null);
                }
            }
        }
        batch.flush();
    }

    // clears the per-key index and writes it from the time-ordered one; it is maintained from then on
    private void writeKeyIndex() {
        clearKeyIndex();
        StoreWriteBatch batch = new StoreWriteBatch(keyIndex, REBUILD_BATCH);
        forEachTimer(store, (time, owner) -> batch.put(Bytes.wrap(Layout.timerByKey(owner, time)), Layout.EMPTY));
        batch.flush();
        keyIndexLive = true;
    }

    /** @return whether a timer at {@code time} for {@code key} is pending */
    boolean exists(byte[] key, long time) {
        return store.get(Bytes.wrap(Layout.timerKey(time, key))) != null;
    }

    /**
     * @return the pending timers of {@code key} in ascending time order (from the per-key index, written from the
     *     time-ordered one on the first call of a task incarnation)
     */
    List<Long> list(byte[] key) {
        if (!keyIndexLive) {
            writeKeyIndex();
        }
        return listByKey(keyIndex, key);
    }

    /**
     * For read-only tooling: the pending timers of {@code key} in {@code store}, ascending, from the time-ordered
     * index (complete whether or not the per-key index is maintained; a scan of every pending timer).
     */
    static List<Long> list(ReadOnlyKeyValueStore<Bytes, byte[]> store, byte[] key) {
        List<Long> out = new ArrayList<>();
        forEachTimer(store, (time, owner) -> {
            if (Arrays.equals(owner, key)) {
                out.add(time);
            }
        });
        return out;
    }

    /** For read-only tooling: every pending timer of {@code store}, in (time, key) order. */
    static void forEachTimer(ReadOnlyKeyValueStore<Bytes, byte[]> store, BiConsumer<Long, byte[]> f) {
        try (KeyValueIterator<Bytes, byte[]> it = store.range(
                Bytes.wrap(Layout.sectionStart(Layout.TIMER)), Bytes.wrap(Layout.sectionEnd(Layout.TIMER)))) {
            while (it.hasNext()) {
                byte[] k = it.next().key.get();
                if (k[0] == Layout.TIMER) {
                    f.accept(Layout.timeOf(k), Layout.suffixOfTimeKey(k));
                }
            }
        }
    }

    private static List<Long> listByKey(ReadOnlyKeyValueStore<Bytes, byte[]> store, byte[] key) {
        byte[] prefix = Layout.timerByKeyPrefix(key);
        List<Long> out = new ArrayList<>();
        try (KeyValueIterator<Bytes, byte[]> it = store.prefixScan(Bytes.wrap(prefix), BytesSer.INSTANCE)) {
            while (it.hasNext()) {
                byte[] k = it.next().key.get();
                if (k.length == prefix.length + 8) {
                    out.add(ByteLayout.getTime(k, prefix.length));
                }
            }
        }
        return out;
    }

    /**
     * @param upTo exclusive bound: timers with time strictly below it are due (the operator passes its batch time or
     *     watermark plus one: timers fire at equality, as Spark's {@code TimerStateImpl.getExpiredTimers})
     * @return up to {@code maxPerPass} due timers in (time, key) order; empty without a scan when the hint shows
     *     nothing is due. The caller fires (and deletes) every returned timer, then calls {@link #passDone}.
     */
    List<Timer> due(long upTo) {
        if (upTo == Long.MIN_VALUE || (nextTimerHint != Long.MIN_VALUE && nextTimerHint >= upTo)) {
            return List.of();
        }
        List<Timer> due = new ArrayList<>();
        // read on past the due timers to the next pending one: the hint of when the next pass has work
        TimeSection.Pass pass = timers.scan(upTo - 1, true, maxPerPass, key -> {
            byte[] k = key.get();
            due.add(new Timer(Layout.timeOf(k), Layout.suffixOfTimeKey(k)));
        });
        // the earliest pending time: the returned timers stay pending until fired and deleted
        nextTimerHint = due.isEmpty() ? pass.next() : due.get(0).time();
        if (due.isEmpty()) {
            timers.passed(pass);
        } else {
            // once the returned timers have fired, what stays pending is at the last returned time or later (or at
            // the time of a timer registered meanwhile): passDone moves the lower bound there
            pendingPass = pass;
        }
        return due;
    }

    /**
     * After firing (and deleting) every timer of a {@link #due} call: handlers may have registered timers, so rescan
     * next time, from where that call's scan ended (or an earlier registered time) on.
     */
    void passDone(boolean firedAny) {
        if (firedAny) {
            nextTimerHint = Long.MIN_VALUE;
            if (pendingPass != null) {
                timers.passed(pendingPass);
            }
        }
        pendingPass = null;
    }
}
