package dev.rtmstreams.topology.internals;

import dev.rtmstreams.topology.SizingReport;
import dev.rtmstreams.topology.SubtopologySizing;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyDescription;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Slot accounting over {@link Topology#describe()}; see {@code SlotAccounting}. */
public final class TopologySizer {

    private static final Logger LOG = LoggerFactory.getLogger(TopologySizer.class);

    private TopologySizer() {}

    /** Structure of a topology as needed for sizing. */
    public record Shape(
            Map<Integer, Set<String>> sources,
            Map<Integer, Set<String>> sinks,
            Map<Integer, Pattern> patterns,
            Set<String> internalTopics,
            Map<String, Integer> explicitCounts) {
        /** @return the external source topics (not written by the topology itself) */
        public Set<String> externalSources() {
            Set<String> out = new TreeSet<>();
            sources.values().forEach(out::addAll);
            out.removeAll(internalTopics);
            return out;
        }
    }

    /** @return the shape of {@code topology} */
    public static Shape shape(Topology topology) {
        TopologyDescription d = topology.describe();
        Map<Integer, Set<String>> sources = new TreeMap<>();
        Map<Integer, Set<String>> sinks = new TreeMap<>();
        Map<Integer, Pattern> patterns = new TreeMap<>();
        for (TopologyDescription.Subtopology s : d.subtopologies()) {
            Set<String> src = new TreeSet<>();
            Set<String> snk = new TreeSet<>();
            for (TopologyDescription.Node n : s.nodes()) {
                if (n instanceof TopologyDescription.Source source) {
                    if (source.topicSet() != null) {
                        src.addAll(source.topicSet());
                    }
                    if (source.topicPattern() != null) {
                        patterns.put(s.id(), source.topicPattern());
                    }
                } else if (n instanceof TopologyDescription.Sink sink && sink.topic() != null) {
                    snk.add(sink.topic());
                }
            }
            sources.put(s.id(), src);
            sinks.put(s.id(), snk);
        }
        Set<String> written = new HashSet<>();
        sinks.values().forEach(written::addAll);
        Set<String> internal = new TreeSet<>();
        for (Set<String> src : sources.values()) {
            for (String t : src) {
                if (written.contains(t)) {
                    internal.add(t);
                }
            }
        }
        return new Shape(sources, sinks, patterns, internal, explicitRepartitionCounts(topology));
    }

    /**
     * Partition counts set on the topology for internal topics ({@code Repartitioned#withNumberOfPartitions}); read
     * from Kafka Streams' internal builder by reflection, read-only. Empty when that is not possible (the
     * compatibility check of {@code RtmStreams} reports it when it is built: hook {@code topology.repartition-counts}).
     */
    static Map<String, Integer> explicitRepartitionCounts(Topology topology) {
        try {
            return explicitRepartitionCountsOrThrow(topology);
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.debug("cannot read explicit repartition partition counts from the topology; inferring them", e);
            return Map.of();
        }
    }

    /**
     * @param topology a topology
     * @return the partition counts it sets on internal topics
     * @throws ReflectiveOperationException when Kafka Streams' internal topology builder has another shape
     */
    @SuppressWarnings("unchecked")
    public static Map<String, Integer> explicitRepartitionCountsOrThrow(Topology topology)
            throws ReflectiveOperationException {
        Field f = Topology.class.getDeclaredField("internalTopologyBuilder");
        f.setAccessible(true);
        Object builder = f.get(topology);
        Field props = builder.getClass().getDeclaredField("internalTopicNamesWithProperties");
        props.setAccessible(true);
        Map<String, Object> m = (Map<String, Object>) props.get(builder);
        Map<String, Integer> out = new HashMap<>();
        synchronized (builder) {
            for (Map.Entry<String, Object> e : m.entrySet()) {
                Object v =
                        e.getValue().getClass().getMethod("numberOfPartitions").invoke(e.getValue());
                ((Optional<Integer>) v).ifPresent(n -> out.put(e.getKey(), n));
            }
        }
        return out;
    }

    /** See {@code SlotAccounting#compute}. */
    public static SizingReport compute(
            Topology topology, Map<String, Integer> partitionCounts, int threads, int instances, int tasksPerSlot) {
        Objects.requireNonNull(topology, "topology");
        Objects.requireNonNull(partitionCounts, "partitionCounts");
        requirePositive("threads", threads);
        requirePositive("instances", instances);
        requirePositive("tasksPerSlot", tasksPerSlot);
        partitionCounts.forEach((t, n) -> {
            if (n == null || n < 1) {
                throw new IllegalArgumentException("partition count of topic " + t + " must be at least 1: " + n);
            }
        });
        Shape shape = shape(topology);
        Map<Integer, Integer> tasks = new TreeMap<>();
        Map<Integer, Map<String, Integer>> counts = new TreeMap<>();
        for (Integer id : shape.sources().keySet()) {
            tasksOf(id, shape, partitionCounts, tasks, counts, new HashSet<>());
        }
        List<SubtopologySizing> subs = new ArrayList<>();
        int total = 0;
        for (Map.Entry<Integer, Integer> e : tasks.entrySet()) {
            boolean shuffle = shape.sources().get(e.getKey()).stream().anyMatch(shape.internalTopics()::contains);
            subs.add(new SubtopologySizing(e.getKey(), counts.get(e.getKey()), e.getValue(), shuffle));
            total += e.getValue();
        }
        int required = (total + tasksPerSlot - 1) / tasksPerSlot;
        return new SizingReport(subs, total, tasksPerSlot, required, threads, instances, threads * instances);
    }

    private static int tasksOf(
            int id,
            Shape shape,
            Map<String, Integer> given,
            Map<Integer, Integer> tasks,
            Map<Integer, Map<String, Integer>> counts,
            Set<Integer> visiting) {
        Integer known = tasks.get(id);
        if (known != null) {
            return known;
        }
        if (!visiting.add(id)) {
            throw new IllegalArgumentException("cyclic repartitioning through sub-topology " + id
                    + ": give the repartition topics' partition counts explicitly");
        }
        Map<String, Integer> perTopic = new LinkedHashMap<>();
        int max = 0;
        for (String topic : shape.sources().get(id)) {
            int n = partitionsOf(topic, shape, given, tasks, counts, visiting);
            perTopic.put(topic, n);
            max = Math.max(max, n);
        }
        Pattern pattern = shape.patterns().get(id);
        if (pattern != null) {
            for (Map.Entry<String, Integer> e : new TreeMap<>(given).entrySet()) {
                if (pattern.matcher(e.getKey()).matches()) {
                    perTopic.put(e.getKey(), e.getValue());
                    max = Math.max(max, e.getValue());
                }
            }
            if (perTopic.isEmpty()) {
                throw new IllegalArgumentException("no partition count given for any topic matching the source pattern "
                        + pattern + " of sub-topology " + id);
            }
        }
        visiting.remove(id);
        tasks.put(id, max);
        counts.put(id, perTopic);
        return max;
    }

    private static int partitionsOf(
            String topic,
            Shape shape,
            Map<String, Integer> given,
            Map<Integer, Integer> tasks,
            Map<Integer, Map<String, Integer>> counts,
            Set<Integer> visiting) {
        Integer n = given.get(topic);
        if (n == null) {
            for (Map.Entry<String, Integer> e : given.entrySet()) {
                if (e.getKey().endsWith("-" + topic) && shape.internalTopics().contains(topic)) {
                    n = e.getValue();
                }
            }
        }
        if (n != null) {
            return n;
        }
        if (!shape.internalTopics().contains(topic)) {
            throw new IllegalArgumentException("partition count of source topic " + topic
                    + " is unknown: give it in partitionCounts or let RtmStreams ask the cluster");
        }
        Integer explicit = shape.explicitCounts().get(topic);
        if (explicit != null) {
            return explicit;
        }
        int max = 0;
        for (Map.Entry<Integer, Set<String>> e : shape.sinks().entrySet()) {
            if (e.getValue().contains(topic)) {
                max = Math.max(max, tasksOf(e.getKey(), shape, given, tasks, counts, visiting));
            }
        }
        return max;
    }

    private static void requirePositive(String name, int value) {
        if (value < 1) {
            throw new IllegalArgumentException(name + " must be at least 1: " + value);
        }
    }
}
