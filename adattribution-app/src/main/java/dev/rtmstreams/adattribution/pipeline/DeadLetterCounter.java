package dev.rtmstreams.adattribution.pipeline;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/** Counts records sent to the dead-letter topic, per source topic. Thread-safe. */
public final class DeadLetterCounter {
    private final ConcurrentHashMap<String, LongAdder> counts = new ConcurrentHashMap<>();

    void increment(String sourceTopic) {
        counts.computeIfAbsent(sourceTopic, t -> new LongAdder()).increment();
    }

    /** @return dead-lettered records per source topic, sorted by topic */
    public Map<String, Long> snapshot() {
        Map<String, Long> out = new TreeMap<>();
        counts.forEach((k, v) -> out.put(k, v.sum()));
        return out;
    }

    /** @return all dead-lettered records */
    public long total() {
        return counts.values().stream().mapToLong(LongAdder::sum).sum();
    }
}
