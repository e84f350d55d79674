package dev.rtmstreams.testkit.internals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.common.Uuid;

/**
 * Where the nodes of a cluster being built sit: on {@code localhost}, or each in a {@link NetworkNamespaces network
 * namespace} of its own, and the {@link NodeLayout} of each node on those addresses.
 *
 * @param namespaces the nodes' network namespaces, if any; the caller closes them
 * @param layouts one layout per node, in node order
 */
public record ClusterNetwork(Optional<NetworkNamespaces> namespaces, List<NodeLayout> layouts) {

    /** Copies the list. */
    public ClusterNetwork {
        layouts = List.copyOf(layouts);
    }

    /**
     * Lays out the nodes; with a network prefix, creates their network namespaces first.
     *
     * @param controllerPorts the controller port of each node, in node order
     * @param networkPrefix the first three octets of the namespaces' /24, or null for every node on {@code localhost}
     * @return the layouts (a single node without namespaces is laid out as a lone broker)
     * @throws IllegalStateException if {@code ip} fails (nothing it made is left)
     */
    public static ClusterNetwork create(int[] controllerPorts, String networkPrefix) {
        int nodes = controllerPorts.length;
        if (networkPrefix == null && nodes == 1) {
            return new ClusterNetwork(Optional.empty(), List.of(NodeLayout.single(controllerPorts[0])));
        }
        NetworkNamespaces network = networkPrefix == null ? null : NetworkNamespaces.create(networkPrefix, nodes);
        try {
            List<String> hosts = new ArrayList<>();
            for (int i = 1; i <= nodes; i++) {
                hosts.add(network == null ? "localhost" : network.address(i));
            }
            return new ClusterNetwork(
                    Optional.ofNullable(network),
                    NodeLayout.cluster(controllerPorts, hosts, Uuid.randomUuid().toString()));
        } catch (RuntimeException e) {
            if (network != null) {
                network.close();
            }
            throw e;
        }
    }

    /**
     * Returns the {@code java} a node is started with: with network namespaces a script that starts it inside the
     * node's namespace, else none (the builder's default).
     *
     * @param nodeId the node's id, 1..N
     * @param dir where the script is written
     * @return the launcher, or empty without network namespaces
     */
    public Optional<Path> javaLauncher(int nodeId, Path dir) {
        return namespaces.map(
                n -> n.javaLauncher(nodeId, dir, Path.of(System.getProperty("java.home"), "bin", "java")));
    }

    /** Deletes the network namespaces, if any. */
    public void close() {
        namespaces.ifPresent(NetworkNamespaces::close);
    }
}
