package dev.rtmstreams.testkit.internals;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Where a child-process broker node sits in its cluster: its {@code node.id}, the static controller quorum
 * ({@code controller.quorum.voters}), the cluster id every node of a cluster is formatted with, and the broker defaults
 * of the cluster's size (replication factors), applied before the caller's own properties.
 *
 * @param nodeId the node's {@code node.id}; positive
 * @param host the address its listeners bind to and advertise ({@code localhost}, or its network namespace's address)
 * @param quorumVoters {@code id@host:port} of every controller, comma-separated
 * @param clusterId the cluster id to format with, or empty for a new random one (a single node)
 * @param defaults broker properties of the cluster's size; the caller's properties override them
 */
public record NodeLayout(
        int nodeId, String host, String quorumVoters, Optional<String> clusterId, Map<String, String> defaults) {

    /** Checks and copies. */
    public NodeLayout {
        if (nodeId < 1) {
            throw new IllegalArgumentException("nodeId must be positive: " + nodeId);
        }
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(quorumVoters, "quorumVoters");
        Objects.requireNonNull(clusterId, "clusterId");
        defaults = Map.copyOf(defaults);
    }

    /**
     * The layout of a lone node: node 1, the only voter, a new cluster id, no further defaults (the single-node
     * defaults of {@link BrokerProcessFiles#writeConfig} hold).
     *
     * @param controllerPort the node's controller port
     * @return the layout
     */
    public static NodeLayout single(int controllerPort) {
        return new NodeLayout(1, "localhost", "1@localhost:" + controllerPort, Optional.empty(), Map.of());
    }

    /**
     * The layouts of the nodes of a cluster of combined broker+controller nodes, ids 1..N, every node a voter.
     *
     * @param controllerPorts the controller port of each node, in node order
     * @param hosts the address of each node, in node order
     * @param clusterId the cluster id all nodes are formatted with
     * @return one layout per node, in node order
     */
    public static List<NodeLayout> cluster(int[] controllerPorts, List<String> hosts, String clusterId) {
        int n = controllerPorts.length;
        if (hosts.size() != n) {
            throw new IllegalArgumentException(n + " controller ports but " + hosts.size() + " hosts: " + hosts);
        }
        StringBuilder voters = new StringBuilder();
        for (int i = 0; i < n; i++) {
            voters.append(i == 0 ? "" : ",")
                    .append(i + 1)
                    .append('@')
                    .append(hosts.get(i))
                    .append(':')
                    .append(controllerPorts[i]);
        }
        Map<String, String> defaults = replicationDefaults(n);
        return java.util.stream.IntStream.range(0, n)
                .mapToObj(i -> new NodeLayout(i + 1, hosts.get(i), voters.toString(), Optional.of(clusterId), defaults))
                .collect(Collectors.toList());
    }

    /**
     * The replication defaults of a cluster of {@code nodes} nodes: replication factor {@code min(3, nodes)} for new
     * and internal topics, min ISR 2 from three nodes on (1 below).
     *
     * @param nodes the node count; positive
     * @return the broker properties, in a stable order
     */
    public static Map<String, String> replicationDefaults(int nodes) {
        String rf = Integer.toString(Math.min(3, nodes));
        String minIsr = nodes >= 3 ? "2" : "1";
        Map<String, String> d = new LinkedHashMap<>();
        d.put("default.replication.factor", rf);
        d.put("min.insync.replicas", minIsr);
        d.put("offsets.topic.replication.factor", rf);
        d.put("transaction.state.log.replication.factor", rf);
        d.put("transaction.state.log.min.isr", minIsr);
        d.put("share.coordinator.state.topic.replication.factor", rf);
        d.put("share.coordinator.state.topic.min.isr", minIsr);
        return d;
    }
}
