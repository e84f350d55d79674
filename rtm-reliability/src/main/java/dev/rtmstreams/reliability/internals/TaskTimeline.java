package dev.rtmstreams.reliability.internals;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Which instance runs which active task, and when each task made progress, built from samples of the instances'
 * {@code /metrics} taken a few times a second during a group change. A sample gives an instance's active tasks and, per
 * task, a counter that grows while the task consumes its input (the sum of its input partitions' consumer positions).
 * A task made progress on an instance at a sample when its counter grew since the previous sample of the same JVM (the
 * first sample of a task in a JVM is its baseline). Samples are added in time order; the queries are pure functions of
 * them.
 */
final class TaskTimeline {

    /**
     * One scrape of one JVM.
     *
     * @param nanos when it answered ({@link System#nanoTime()})
     * @param instance the instance's name
     * @param jvm the JVM (the instance's start number): counters restart with each JVM
     * @param active its active task ids
     * @param progress per task a counter that grows while the task consumes input
     */
    record Sample(long nanos, String instance, int jvm, Set<String> active, Map<String, Double> progress) {
        /** Copies the collections. */
        Sample {
            active = Set.copyOf(active);
            progress = Map.copyOf(progress);
        }
    }

    /**
     * A task's longest stretch without progress within a window.
     *
     * @param task the task id
     * @param pauseMs the stretch, ms
     * @param recovered whether the task made progress again before the window ended
     */
    record Pause(String task, long pauseMs, boolean recovered) {}

    private final List<Sample> samples = new ArrayList<>();
    private final Map<String, Map<String, Double>> lastByJvm = new HashMap<>();
    private final SortedMap<String, List<Long>> progress = new TreeMap<>();
    private final SortedMap<String, List<long[]>> progressByOwner = new TreeMap<>();
    private final List<String> owners = new ArrayList<>();

    /**
     * Adds a sample (in time order).
     *
     * @param s the sample
     */
    synchronized void add(Sample s) {
        samples.add(s);
        String jvmKey = s.instance() + "#" + s.jvm();
        Map<String, Double> last = lastByJvm.getOrDefault(jvmKey, Map.of());
        int owner = owners.indexOf(s.instance());
        if (owner < 0) {
            owners.add(s.instance());
            owner = owners.size() - 1;
        }
        for (Map.Entry<String, Double> e : s.progress().entrySet()) {
            Double before = last.get(e.getKey());
            if (before != null && e.getValue() > before) {
                progress.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(s.nanos());
                progressByOwner
                        .computeIfAbsent(e.getKey(), k -> new ArrayList<>())
                        .add(new long[] {s.nanos(), owner});
            }
        }
        lastByJvm.put(jvmKey, s.progress());
    }

    /**
     * The owners of the active tasks in the latest sample of each instance at or before an instant, among the
     * instances given (those running then).
     *
     * @param atNanos the instant
     * @param running the instances to consider
     * @return per instance its sorted active task ids (an instance without a sample has none)
     */
    synchronized SortedMap<String, SortedSet<String>> ownership(long atNanos, Set<String> running) {
        SortedMap<String, SortedSet<String>> out = new TreeMap<>();
        for (String i : running) {
            out.put(i, new TreeSet<>());
        }
        Map<String, Sample> latest = new HashMap<>();
        for (Sample s : samples) {
            if (s.nanos() <= atNanos && running.contains(s.instance())) {
                latest.put(s.instance(), s);
            }
        }
        latest.forEach((i, s) -> out.get(i).addAll(s.active()));
        return out;
    }

    /**
     * Whether an assignment is complete: every task active on exactly one instance, and every instance active on at
     * least one when there are at least as many tasks as instances.
     *
     * @param assignment per instance its active tasks
     * @param tasksTotal tasks of the topology
     * @return whether complete
     */
    static boolean complete(Map<String, ? extends Set<String>> assignment, long tasksTotal) {
        long held = 0;
        Set<String> distinct = new TreeSet<>();
        for (Set<String> tasks : assignment.values()) {
            if (tasks.isEmpty() && tasksTotal >= assignment.size()) {
                return false;
            }
            held += tasks.size();
            distinct.addAll(tasks);
        }
        return held == tasksTotal && distinct.size() == tasksTotal;
    }

    /**
     * The tasks whose owner changed between two assignments: active on another instance after than before, or on
     * none before. A task that lost its owner and has none after counts too.
     *
     * @param before per instance its active tasks before
     * @param after per instance its active tasks after
     * @return the moved task ids, sorted
     */
    static SortedSet<String> moved(
            Map<String, ? extends Set<String>> before, Map<String, ? extends Set<String>> after) {
        Map<String, String> ownerBefore = owners(before);
        Map<String, String> ownerAfter = owners(after);
        SortedSet<String> out = new TreeSet<>();
        Set<String> all = new TreeSet<>(ownerBefore.keySet());
        all.addAll(ownerAfter.keySet());
        for (String task : all) {
            if (!Objects.equals(ownerBefore.get(task), ownerAfter.get(task))) {
                out.add(task);
            }
        }
        return out;
    }

    /**
     * When a task first made progress on a given instance after an instant.
     *
     * @param task the task id
     * @param instance its (new) owner
     * @param fromNanos the instant
     * @return the sample time, or -1 when it never did
     */
    synchronized long firstProgressOn(String task, String instance, long fromNanos) {
        int owner = owners.indexOf(instance);
        for (long[] p : progressByOwner.getOrDefault(task, List.of())) {
            if (p[0] > fromNanos && p[1] == owner) {
                return p[0];
            }
        }
        return -1;
    }

    /**
     * Each task's longest stretch without progress within a window: from the window's start to its first progress in
     * it, between two progresses, or from its last progress to the window's end (then it is not recovered).
     *
     * @param tasks the tasks
     * @param fromNanos the window's start
     * @param toNanos the window's end
     * @return the longest pause over the tasks (ties: the first task in order), or a zero pause without tasks
     */
    synchronized Pause longestPause(Set<String> tasks, long fromNanos, long toNanos) {
        Pause worst = new Pause("", 0, true);
        for (String task : new TreeSet<>(tasks)) {
            List<Long> times = progress.getOrDefault(task, Collections.emptyList());
            long prev = fromNanos;
            long longest = 0;
            boolean recovered = true;
            for (long t : times) {
                if (t <= fromNanos) {
                    continue;
                }
                if (t > toNanos) {
                    break;
                }
                longest = Math.max(longest, t - prev);
                prev = t;
            }
            if (toNanos - prev > longest) {
                longest = toNanos - prev;
                recovered = false;
            }
            long ms = longest / 1_000_000L;
            if (ms > worst.pauseMs()) {
                worst = new Pause(task, ms, recovered);
            }
        }
        return worst;
    }

    private static Map<String, String> owners(Map<String, ? extends Set<String>> assignment) {
        Map<String, String> out = new HashMap<>();
        assignment.forEach((instance, tasks) -> tasks.forEach(t -> out.put(t, instance)));
        return out;
    }
}
