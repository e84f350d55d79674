package dev.rtmstreams.topology.internals;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.streams.TopologyDescription;

/**
 * How many times a record may cross the broker on its way through a topology: one fetch of an input topic, plus one
 * more for every topic that one sub-topology writes and another reads (a repartition topic, or any topic the
 * topology both writes and reads). A count aggregation behind a key change has two hops: each row waits for two
 * fetches, so the fetch wait of real-time mode counts twice in its latency.
 */
public final class BrokerHops {

    private BrokerHops() {}

    /**
     * @param description the topology's description
     * @return the number of sub-topologies in the longest chain linked by topics, at least 1 (a cycle is counted
     *     once around)
     */
    public static int of(TopologyDescription description) {
        List<TopologyDescription.Subtopology> subs = List.copyOf(description.subtopologies());
        Map<Integer, Set<String>> reads = new HashMap<>();
        Map<Integer, Set<String>> writes = new HashMap<>();
        for (TopologyDescription.Subtopology s : subs) {
            Set<String> in = new HashSet<>();
            Set<String> out = new HashSet<>();
            for (TopologyDescription.Node n : s.nodes()) {
                if (n instanceof TopologyDescription.Source source && source.topicSet() != null) {
                    in.addAll(source.topicSet());
                } else if (n instanceof TopologyDescription.Sink sink && sink.topic() != null) {
                    out.add(sink.topic());
                }
            }
            reads.put(s.id(), in);
            writes.put(s.id(), out);
        }
        int longest = 1;
        Map<Integer, Integer> memo = new HashMap<>();
        for (TopologyDescription.Subtopology s : subs) {
            longest = Math.max(longest, chainFrom(s.id(), reads, writes, memo, new HashSet<>()));
        }
        return longest;
    }

    // sub-topologies in the longest chain that starts at `id` (reading what an earlier one wrote)
    private static int chainFrom(
            int id,
            Map<Integer, Set<String>> reads,
            Map<Integer, Set<String>> writes,
            Map<Integer, Integer> memo,
            Set<Integer> onPath) {
        Integer known = memo.get(id);
        if (known != null) {
            return known;
        }
        onPath.add(id);
        int best = 1;
        for (Map.Entry<Integer, Set<String>> next : reads.entrySet()) {
            int other = next.getKey();
            if (other == id || onPath.contains(other)) {
                continue;
            }
            if (writes.get(id).stream().anyMatch(next.getValue()::contains)) {
                best = Math.max(best, 1 + chainFrom(other, reads, writes, memo, onPath));
            }
        }
        onPath.remove(id);
        memo.put(id, best);
        return best;
    }
}
