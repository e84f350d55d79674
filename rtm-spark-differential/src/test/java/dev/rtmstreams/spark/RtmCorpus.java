package dev.rtmstreams.spark;

import dev.rtmstreams.processor.ExpiredTimerInfo;
import dev.rtmstreams.processor.ListState;
import dev.rtmstreams.processor.MapState;
import dev.rtmstreams.processor.OutputMode;
import dev.rtmstreams.processor.StatefulProcessor;
import dev.rtmstreams.processor.StatefulProcessorWithInitialState;
import dev.rtmstreams.processor.TimeMode;
import dev.rtmstreams.processor.TimerValues;
import dev.rtmstreams.processor.TtlConfig;
import dev.rtmstreams.processor.ValueState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.Serdes;

/**
 * The corpus written against rtm-streams' API ({@code dev.rtmstreams.processor}): the twins of {@link SparkCorpus},
 * same names, same logic. Rows arrive as {@link Event#wire()} strings.
 */
final class RtmCorpus {
    private RtmCorpus() {}

    static Iterator<String> one(String row) {
        return List.of(row).iterator();
    }

    static Iterator<String> wires(Iterator<String> rows) {
        return Fmt.sorted(rows).iterator();
    }

    /** Value state with TTL and without; processing-time timers registered, deleted, and both in the timer handler. */
    static final class ValueTimers extends StatefulProcessor<String, String, String> {
        private final boolean dropLast;
        private ValueState<Long> count;
        private ValueState<String> last;

        ValueTimers() {
            this(false);
        }

        /** @param dropLast whether this version no longer has {@code last}: deleteIfExists in init */
        ValueTimers(boolean dropLast) {
            this.dropLast = dropLast;
        }

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            count = getHandle().getValueState("count", Serdes.Long(), TtlConfig.of(Duration.ofMillis(6_000)));
            if (dropLast) {
                getHandle().deleteIfExists("last");
            } else {
                last = getHandle().getValueState("last", Serdes.String(), TtlConfig.NONE);
            }
        }

        @Override
        public Iterator<String> handleInputRows(String key, Iterator<String> rows, TimerValues tv) {
            long now = tv.getCurrentProcessingTimeInMs();
            for (Iterator<String> it = wires(rows); it.hasNext(); ) {
                String v = Event.valueOf(it.next());
                switch (v) {
                    case "clear" -> count.clear();
                    case "t" -> getHandle().registerTimer(now + 2_500);
                    case "u" ->
                        Fmt.timers(getHandle().listTimers())
                                .forEach(t -> getHandle().deleteTimer(t));
                    default -> count.update((count.exists() ? count.get() : 0L) + 1);
                }
                if (last != null) {
                    last.update(v);
                }
            }
            return one(key + "|in now=" + now + " count=" + (count.exists() ? count.get() : null) + " last="
                    + (last == null ? "-" : last.get()) + " timers="
                    + Fmt.timers(getHandle().listTimers()));
        }

        @Override
        public Iterator<String> handleExpiredTimer(String key, TimerValues tv, ExpiredTimerInfo info) {
            long t = info.getExpiryTimeInMs();
            Long c = count.exists() ? count.get() : null;
            String out = key + "|fired t=" + t + " now=" + tv.getCurrentProcessingTimeInMs() + " count=" + c
                    + " timers=" + Fmt.timers(getHandle().listTimers());
            if (c != null && c % 2 == 1) {
                getHandle().registerTimer(t + 2_000);
            } else if (c != null) {
                for (long other : Fmt.timers(getHandle().listTimers())) {
                    if (other != t) {
                        getHandle().deleteTimer(other);
                    }
                }
            }
            return one(out);
        }
    }

    /** List state with TTL (appendValue, put, clear) and without (appendList). */
    static final class ListTtl extends StatefulProcessor<String, String, String> {
        private ListState<String> items;
        private ListState<String> all;

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            items = getHandle().getListState("items", Serdes.String(), TtlConfig.of(Duration.ofMillis(4_000)));
            all = getHandle().getListState("all", Serdes.String(), TtlConfig.NONE);
        }

        @Override
        public Iterator<String> handleInputRows(String key, Iterator<String> rows, TimerValues tv) {
            List<String> batch = new ArrayList<>();
            wires(rows).forEachRemaining(w -> batch.add(Event.valueOf(w)));
            for (String v : batch) {
                switch (v) {
                    case "clear" -> items.clear();
                    case "put" -> items.put(List.of(key + "-p1", key + "-p2"));
                    default -> items.appendValue(v);
                }
            }
            all.appendList(batch);
            List<String> allNow = new ArrayList<>();
            all.get().forEachRemaining(allNow::add);
            if (allNow.size() > 8) {
                all.put(List.copyOf(allNow.subList(allNow.size() - 4, allNow.size())));
            }
            List<String> itemsNow = new ArrayList<>();
            if (items.exists()) {
                items.get().forEachRemaining(itemsNow::add);
            }
            return one(key + "|items=" + itemsNow + " exists=" + items.exists() + " all=" + allNow);
        }
    }

    /** Map state with TTL: updateValue, removeKey, clear, containsKey, keys/values/iterator. */
    static final class MapTtl extends StatefulProcessor<String, String, String> {
        private MapState<String, Long> counts;

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            counts = getHandle()
                    .getMapState("counts", Serdes.String(), Serdes.Long(), TtlConfig.of(Duration.ofMillis(4_000)));
        }

        @Override
        public Iterator<String> handleInputRows(String key, Iterator<String> rows, TimerValues tv) {
            for (Iterator<String> it = wires(rows); it.hasNext(); ) {
                String v = Event.valueOf(it.next());
                if (v.equals("clear")) {
                    counts.clear();
                } else if (v.equals("rm")) {
                    counts.removeKey("a");
                } else {
                    counts.updateValue(v, (counts.containsKey(v) ? counts.getValue(v) : 0L) + 1);
                }
            }
            Map<String, Long> m = new HashMap<>();
            counts.iterator().forEachRemaining(e -> m.put(e.getKey(), e.getValue()));
            int keys = 0;
            for (Iterator<String> it = counts.keys(); it.hasNext(); it.next()) {
                keys++;
            }
            long sum = 0;
            for (Iterator<Long> it = counts.values(); it.hasNext(); ) {
                sum += it.next();
            }
            return one(key + "|map=" + Fmt.map(m) + " exists=" + counts.exists() + " hasA=" + counts.containsKey("a")
                    + " keys=" + keys + " sum=" + sum);
        }
    }

    /** Event-time timers: one pending timer per key moved with every batch; the handler registers one more once. */
    static final class EventTimers extends StatefulProcessor<String, String, String> {
        private ValueState<Long> sum;
        private ValueState<Boolean> again;

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            sum = getHandle().getValueState("sum", Serdes.Long(), TtlConfig.NONE);
            again = getHandle().getValueState("again", Serdes.Boolean(), TtlConfig.NONE);
        }

        @Override
        public Iterator<String> handleInputRows(String key, Iterator<String> rows, TimerValues tv) {
            long n = 0;
            long maxTs = Long.MIN_VALUE;
            for (Iterator<String> it = wires(rows); it.hasNext(); ) {
                maxTs = Math.max(maxTs, Event.eventTimeOf(it.next()));
                n++;
            }
            sum.update((sum.exists() ? sum.get() : 0L) + n);
            Fmt.timers(getHandle().listTimers()).forEach(t -> getHandle().deleteTimer(t));
            getHandle().registerTimer(maxTs + 2_000);
            return one(key + "|in n=" + n + " sum=" + sum.get() + " wm=" + tv.getCurrentWatermarkInMs() + " timers="
                    + Fmt.timers(getHandle().listTimers()));
        }

        @Override
        public Iterator<String> handleExpiredTimer(String key, TimerValues tv, ExpiredTimerInfo info) {
            long t = info.getExpiryTimeInMs();
            String out = key + "|fired t=" + t + " wm=" + tv.getCurrentWatermarkInMs() + " sum="
                    + (sum.exists() ? sum.get() : null);
            sum.clear();
            if (!again.exists()) {
                again.update(true);
                getHandle().registerTimer(tv.getCurrentWatermarkInMs() + 1_500);
            } else {
                again.clear();
            }
            return one(out);
        }
    }

    /** Initial state seeds a count. */
    static final class InitialCounts extends StatefulProcessorWithInitialState<String, String, String, Long> {
        private ValueState<Long> count;

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            count = getHandle().getValueState("count", Serdes.Long(), TtlConfig.NONE);
        }

        @Override
        public void handleInitialState(String key, Long initial, TimerValues tv) {
            count.update(initial);
        }

        @Override
        public Iterator<String> handleInputRows(String key, Iterator<String> rows, TimerValues tv) {
            long n = 0;
            for (Iterator<String> it = wires(rows); it.hasNext(); it.next()) {
                n++;
            }
            count.update((count.exists() ? count.get() : 0L) + n);
            return one(key + "|count=" + count.get());
        }
    }

    /**
     * A probe for the known differences: {@code at:N} registers a timer at N (absolute when N is an epoch time, else
     * N ms after the batch's processing time); {@code chain:N} makes the next timer handler register one at N.
     */
    static final class Probe extends StatefulProcessor<String, String, String> {
        private ValueState<Long> chain;

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            chain = getHandle().getValueState("chain", Serdes.Long(), TtlConfig.NONE);
        }

        @Override
        public Iterator<String> handleInputRows(String key, Iterator<String> rows, TimerValues tv) {
            List<String> seen = new ArrayList<>();
            for (Iterator<String> it = wires(rows); it.hasNext(); ) {
                String w = it.next();
                String v = Event.valueOf(w);
                seen.add(w);
                if (v.startsWith("at:")) {
                    long n = Long.parseLong(v.substring(3));
                    getHandle().registerTimer(n > 1_000_000_000_000L ? n : tv.getCurrentProcessingTimeInMs() + n);
                } else if (v.startsWith("chain:")) {
                    chain.update(Long.parseLong(v.substring(6)));
                }
            }
            return one(key + "|in " + seen + " wm=" + tv.getCurrentWatermarkInMs());
        }

        @Override
        public Iterator<String> handleExpiredTimer(String key, TimerValues tv, ExpiredTimerInfo info) {
            if (chain.exists()) {
                getHandle().registerTimer(chain.get());
                chain.clear();
            }
            return one(key + "|fired t=" + info.getExpiryTimeInMs() + " now=" + tv.getCurrentProcessingTimeInMs()
                    + " wm=" + tv.getCurrentWatermarkInMs());
        }
    }
}
