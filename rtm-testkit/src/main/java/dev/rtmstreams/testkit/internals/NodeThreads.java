package dev.rtmstreams.testkit.internals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.ToIntFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one action on every node of a cluster at once, a thread per node, and waits for all of them: the nodes of a
 * KRaft quorum start (and stop gracefully) only together, since each waits for a majority of the voters.
 */
public final class NodeThreads {

    private static final Logger LOG = LoggerFactory.getLogger(NodeThreads.class);

    private NodeThreads() {}

    /**
     * Starts every node at once and waits until each has started; when one fails (or this thread is interrupted),
     * kills them all.
     *
     * @param nodes the nodes, in node-id order
     * @param nodeId a node's id
     * @param start starts a node and waits until it is ready
     * @param kill kills a node
     * @param <N> the node type
     * @throws IllegalStateException naming the lowest node id that did not start and holding its failure (the other
     *     nodes' failures suppressed), or when interrupted
     */
    public static <N> void startAll(List<N> nodes, ToIntFunction<N> nodeId, Consumer<N> start, Consumer<N> kill) {
        SortedMap<Integer, RuntimeException> failures;
        try {
            failures = runEach(nodes, nodeId, "kafka-cluster-start", start);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            nodes.forEach(kill);
            throw new IllegalStateException("interrupted while starting the cluster", e);
        }
        if (!failures.isEmpty()) {
            nodes.forEach(kill);
            int first = failures.firstKey();
            IllegalStateException e = new IllegalStateException(
                    "broker node " + first + " of " + nodes.size() + " did not start: "
                            + failures.get(first).getMessage(),
                    failures.get(first));
            failures.tailMap(first + 1).values().forEach(e::addSuppressed);
            throw e;
        }
    }

    /**
     * Stops every node at once and waits until each has stopped; a node that cannot be stopped is logged. When this
     * thread is interrupted, kills them all and keeps the interrupt.
     *
     * @param nodes the nodes
     * @param nodeId a node's id
     * @param stop stops a node
     * @param kill kills a node
     * @param <N> the node type
     */
    public static <N> void stopAll(List<N> nodes, ToIntFunction<N> nodeId, Consumer<N> stop, Consumer<N> kill) {
        try {
            runEach(nodes, nodeId, "kafka-cluster-stop", stop)
                    .forEach((id, e) -> LOG.warn("cannot stop broker node {}: {}", id, e.toString()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            nodes.forEach(kill);
        }
    }

    /**
     * Runs {@code action} on each node in a thread of its own named {@code <threadName>-<node id>} and waits until
     * every thread has ended.
     *
     * @param nodes the nodes
     * @param nodeId a node's id
     * @param threadName the prefix of the threads' names
     * @param action what to do with a node
     * @param <N> the node type
     * @return what the action threw, by node id in id order; empty when it threw nothing
     * @throws InterruptedException if this thread is interrupted while waiting (the node threads run on)
     */
    static <N> SortedMap<Integer, RuntimeException> runEach(
            List<N> nodes, ToIntFunction<N> nodeId, String threadName, Consumer<N> action) throws InterruptedException {
        Map<Integer, RuntimeException> failures = new ConcurrentHashMap<>();
        List<Thread> threads = new ArrayList<>();
        for (N node : nodes) {
            int id = nodeId.applyAsInt(node);
            Thread t = new Thread(
                    () -> {
                        try {
                            action.accept(node);
                        } catch (RuntimeException e) {
                            failures.put(id, e);
                        }
                    },
                    threadName + "-" + id);
            t.start();
            threads.add(t);
        }
        for (Thread t : threads) {
            t.join();
        }
        return new TreeMap<>(failures);
    }
}
