package dev.rtmstreams.spark;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.ExpiredTimerInfo;
import org.apache.spark.sql.streaming.ListState;
import org.apache.spark.sql.streaming.MapState;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.StatefulProcessorWithInitialState;
import org.apache.spark.sql.streaming.TTLConfig;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TimerValues;
import org.apache.spark.sql.streaming.ValueState;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The corpus written against Apache Spark's API ({@code org.apache.spark.sql.streaming}). Every class has a twin of
 * the same name in {@link RtmCorpus}, line for line the same logic against rtm-streams' API.
 */
final class SparkCorpus {
    private SparkCorpus() {}

    static scala.collection.Iterator<String> one(String row) {
        return CollectionConverters.asScala(List.of(row).iterator());
    }

    static Iterator<String> wires(scala.collection.Iterator<Event> rows) {
        List<String> out = new ArrayList<>();
        CollectionConverters.asJava(rows).forEachRemaining(e -> out.add(e.wire()));
        return Fmt.sorted(out.iterator()).iterator();
    }

    /** Value state with TTL and without; processing-time timers registered, deleted, and both in the timer handler. */
    static final class ValueTimers extends StatefulProcessor<String, Event, String> {
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
            count = getHandle().getValueState("count", Encoders.LONG(), new TTLConfig(Duration.ofMillis(6_000)));
            if (dropLast) {
                getHandle().deleteIfExists("last");
            } else {
                last = getHandle().getValueState("last", Encoders.STRING(), TTLConfig.NONE());
            }
        }

        @Override
        public scala.collection.Iterator<String> handleInputRows(
                String key, scala.collection.Iterator<Event> rows, TimerValues tv) {
            long now = tv.getCurrentProcessingTimeInMs();
            for (Iterator<String> it = wires(rows); it.hasNext(); ) {
                String v = Event.valueOf(it.next());
                switch (v) {
                    case "clear" -> count.clear();
                    case "t" -> getHandle().registerTimer(now + 2_500);
                    case "u" ->
                        Fmt.timers(CollectionConverters.asJava(getHandle().listTimers()))
                                .forEach(t -> getHandle().deleteTimer(t));
                    default -> count.update((count.exists() ? count.get() : 0L) + 1);
                }
                if (last != null) {
                    last.update(v);
                }
            }
            return one(key + "|in now=" + now + " count=" + (count.exists() ? count.get() : null) + " last="
                    + (last == null ? "-" : last.get()) + " timers="
                    + Fmt.timers(CollectionConverters.asJava(getHandle().listTimers())));
        }

        @Override
        public scala.collection.Iterator<String> handleExpiredTimer(String key, TimerValues tv, ExpiredTimerInfo info) {
            long t = info.getExpiryTimeInMs();
            Long c = count.exists() ? count.get() : null;
            String out =
                    key + "|fired t=" + t + " now=" + tv.getCurrentProcessingTimeInMs() + " count=" + c + " timers="
                            + Fmt.timers(CollectionConverters.asJava(getHandle().listTimers()));
            if (c != null && c % 2 == 1) {
                getHandle().registerTimer(t + 2_000);
            } else if (c != null) {
                for (long other :
                        Fmt.timers(CollectionConverters.asJava(getHandle().listTimers()))) {
                    if (other != t) {
                        getHandle().deleteTimer(other);
                    }
                }
            }
            return one(out);
        }
    }

    /** List state with TTL (appendValue, put, clear) and without (appendList). */
    static final class ListTtl extends StatefulProcessor<String, Event, String> {
        private ListState<String> items;
        private ListState<String> all;

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            items = getHandle().getListState("items", Encoders.STRING(), new TTLConfig(Duration.ofMillis(4_000)));
            all = getHandle().getListState("all", Encoders.STRING(), TTLConfig.NONE());
        }

        @Override
        public scala.collection.Iterator<String> handleInputRows(
                String key, scala.collection.Iterator<Event> rows, TimerValues tv) {
            List<String> batch = new ArrayList<>();
            wires(rows).forEachRemaining(w -> batch.add(Event.valueOf(w)));
            for (String v : batch) {
                switch (v) {
                    case "clear" -> items.clear();
                    case "put" -> items.put(new String[] {key + "-p1", key + "-p2"});
                    default -> items.appendValue(v);
                }
            }
            all.appendList(batch.toArray(new String[0]));
            List<String> allNow = new ArrayList<>();
            CollectionConverters.asJava(all.get()).forEachRemaining(allNow::add);
            if (allNow.size() > 8) {
                all.put(allNow.subList(allNow.size() - 4, allNow.size()).toArray(new String[0]));
            }
            List<String> itemsNow = new ArrayList<>();
            if (items.exists()) {
                CollectionConverters.asJava(items.get()).forEachRemaining(itemsNow::add);
            }
            return one(key + "|items=" + itemsNow + " exists=" + items.exists() + " all=" + allNow);
        }
    }

    /** Map state with TTL: updateValue, removeKey, clear, containsKey, keys/values/iterator. */
    static final class MapTtl extends StatefulProcessor<String, Event, String> {
        private MapState<String, Long> counts;

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            counts = getHandle()
                    .getMapState("counts", Encoders.STRING(), Encoders.LONG(), new TTLConfig(Duration.ofMillis(4_000)));
        }

        @Override
        public scala.collection.Iterator<String> handleInputRows(
                String key, scala.collection.Iterator<Event> rows, TimerValues tv) {
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
            CollectionConverters.asJava(counts.iterator()).forEachRemaining(e -> m.put(e._1(), e._2()));
            int keys = 0;
            for (Iterator<String> it = CollectionConverters.asJava(counts.keys()); it.hasNext(); it.next()) {
                keys++;
            }
            long sum = 0;
            for (Iterator<Long> it = CollectionConverters.asJava(counts.values()); it.hasNext(); ) {
                sum += it.next();
            }
            return one(key + "|map=" + Fmt.map(m) + " exists=" + counts.exists() + " hasA=" + counts.containsKey("a")
                    + " keys=" + keys + " sum=" + sum);
        }
    }

    /** Event-time timers: one pending timer per key moved with every batch; the handler registers one more once. */
    static final class EventTimers extends StatefulProcessor<String, Event, String> {
        private ValueState<Long> sum;
        private ValueState<Boolean> again;

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            sum = getHandle().getValueState("sum", Encoders.LONG(), TTLConfig.NONE());
            again = getHandle().getValueState("again", Encoders.BOOLEAN(), TTLConfig.NONE());
        }

        @Override
        public scala.collection.Iterator<String> handleInputRows(
                String key, scala.collection.Iterator<Event> rows, TimerValues tv) {
            long n = 0;
            long maxTs = Long.MIN_VALUE;
            for (Iterator<String> it = wires(rows); it.hasNext(); ) {
                maxTs = Math.max(maxTs, Event.eventTimeOf(it.next()));
                n++;
            }
            sum.update((sum.exists() ? sum.get() : 0L) + n);
            Fmt.timers(CollectionConverters.asJava(getHandle().listTimers()))
                    .forEach(t -> getHandle().deleteTimer(t));
            getHandle().registerTimer(maxTs + 2_000);
            return one(key + "|in n=" + n + " sum=" + sum.get() + " wm=" + tv.getCurrentWatermarkInMs() + " timers="
                    + Fmt.timers(CollectionConverters.asJava(getHandle().listTimers())));
        }

        @Override
        public scala.collection.Iterator<String> handleExpiredTimer(String key, TimerValues tv, ExpiredTimerInfo info) {
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
    static final class InitialCounts extends StatefulProcessorWithInitialState<String, Event, String, Long> {
        private ValueState<Long> count;

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            count = getHandle().getValueState("count", Encoders.LONG(), TTLConfig.NONE());
        }

        @Override
        public void handleInitialState(String key, Long initial, TimerValues tv) {
            count.update(initial);
        }

        @Override
        public scala.collection.Iterator<String> handleInputRows(
                String key, scala.collection.Iterator<Event> rows, TimerValues tv) {
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
    static final class Probe extends StatefulProcessor<String, Event, String> {
        private ValueState<Long> chain;

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            chain = getHandle().getValueState("chain", Encoders.LONG(), TTLConfig.NONE());
        }

        @Override
        public scala.collection.Iterator<String> handleInputRows(
                String key, scala.collection.Iterator<Event> rows, TimerValues tv) {
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
        public scala.collection.Iterator<String> handleExpiredTimer(String key, TimerValues tv, ExpiredTimerInfo info) {
            if (chain.exists()) {
                getHandle().registerTimer(chain.get());
                chain.clear();
            }
            return one(key + "|fired t=" + info.getExpiryTimeInMs() + " now=" + tv.getCurrentProcessingTimeInMs()
                    + " wm=" + tv.getCurrentWatermarkInMs());
        }
    }
}
