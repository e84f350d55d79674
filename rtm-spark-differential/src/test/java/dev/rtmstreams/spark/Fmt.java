package dev.rtmstreams.spark;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Output formatting shared by both versions of every corpus processor, so that equal behaviour prints equal rows. */
final class Fmt {
    private Fmt() {}

    /** @return the timers, ascending */
    static List<Long> timers(Iterator<?> it) {
        List<Long> out = new ArrayList<>();
        it.forEachRemaining(t -> out.add((Long) t));
        out.sort(null);
        return out;
    }

    /** @return the rows' wire strings, sorted (Spark does not define the order of a key's rows within a batch) */
    static List<String> sorted(Iterator<String> wires) {
        List<String> out = new ArrayList<>();
        wires.forEachRemaining(out::add);
        out.sort(null);
        return out;
    }

    static <V> String map(Map<String, V> m) {
        return new TreeMap<>(m).toString();
    }
}
