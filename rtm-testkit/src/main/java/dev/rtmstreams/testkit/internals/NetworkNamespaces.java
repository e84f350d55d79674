package dev.rtmstreams.testkit.internals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A network namespace per node of a cluster, so that one node can be cut off from the network while its process keeps
 * running: node {@code i} in namespace {@code rtm-<tag>-<i>} with address {@code <prefix>.<10+i>} on a veth pair whose
 * other end ({@code rtm<tag>h<i>}) is a port of a bridge ({@code rtm<tag>br}, address {@code <prefix>.1}) in the root
 * namespace, which the test's clients and the other nodes reach it through. {@link #disconnect(int)} takes the node's
 * bridge port down (nothing reaches the node and the node reaches nothing), {@link #reconnect(int)} brings it up again.
 * Needs root (or {@code CAP_NET_ADMIN}) and {@code ip} from iproute2; {@link #close()} deletes every link and namespace
 * it made, and a shutdown hook does so if this JVM exits first.
 */
public final class NetworkNamespaces implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(NetworkNamespaces.class);
    private static final Pattern PREFIX = Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})");

    private final String tag;
    private final String prefix;
    private final int nodes;
    private final List<List<String>> undo = new ArrayList<>();
    private final Thread hook;
    private boolean closed;

    private NetworkNamespaces(String tag, String prefix, int nodes) {
        this.tag = tag;
        this.prefix = prefix;
        this.nodes = nodes;
        this.hook = new Thread(this::deleteAll, "rtm-netns-cleanup-" + tag);
    }

    /**
     * Creates the bridge, and per node its namespace and veth pair, all up.
     *
     * @param prefix the first three octets of a /24 of the caller's own, e.g. {@code 10.213.0}; not used elsewhere on
     *     the machine
     * @param nodes the number of nodes, 1..9
     * @return the namespaces
     * @throws IllegalArgumentException if the prefix is not three octets
     * @throws IllegalStateException naming the failing {@code ip} command and its output (everything made so far is
     *     deleted again)
     */
    public static NetworkNamespaces create(String prefix, int nodes) {
        if (!PREFIX.matcher(prefix).matches()) {
            throw new IllegalArgumentException("network prefix must be three octets such as 10.213.0: " + prefix);
        }
        String tag = Integer.toString(ThreadLocalRandom.current().nextInt(36 * 36 * 36, 36 * 36 * 36 * 36), 36);
        NetworkNamespaces n = new NetworkNamespaces(tag, prefix, nodes);
        Runtime.getRuntime().addShutdownHook(n.hook);
        try {
            n.setUp();
        } catch (RuntimeException e) {
            n.close();
            throw e;
        }
        return n;
    }

    private void setUp() {
        String bridge = "rtm" + tag + "br";
        ip(List.of("link", "del", bridge), "link", "add", bridge, "type", "bridge");
        run("addr", "add", prefix + ".1/24", "dev", bridge);
        run("link", "set", bridge, "up");
        for (int i = 1; i <= nodes; i++) {
            String ns = namespace(i);
            String inside = "rtm" + tag + "n" + i;
            ip(List.of("netns", "del", ns), "netns", "add", ns);
            ip(List.of("link", "del", hostLink(i)), "link", "add", hostLink(i), "type", "veth", "peer", "name", inside);
            run("link", "set", inside, "netns", ns);
            run("link", "set", hostLink(i), "master", bridge);
            run("link", "set", hostLink(i), "up");
            run("netns", "exec", ns, "ip", "addr", "add", address(i) + "/24", "dev", inside);
            run("netns", "exec", ns, "ip", "link", "set", inside, "up");
            run("netns", "exec", ns, "ip", "link", "set", "lo", "up");
        }
        LOG.info("network namespaces rtm-{}-1..{} on bridge {} ({}.0/24)", tag, nodes, bridge, prefix);
    }

    /**
     * @param node 1..N
     * @return the node's address, e.g. {@code 10.213.0.11}
     */
    public String address(int node) {
        return prefix + "." + (10 + node);
    }

    /**
     * @param node 1..N
     * @return the node's namespace
     */
    public String namespace(int node) {
        return "rtm-" + tag + "-" + node;
    }

    /**
     * Writes a script that runs {@code java} in the node's namespace ({@code exec ip netns exec <ns> <java> "$@"}: the
     * process keeps the script's pid), to give a node as its java executable.
     *
     * @param node 1..N
     * @param dir where the script goes
     * @param java the real java executable
     * @return the script
     * @throws IllegalStateException if it cannot be written
     */
    public Path javaLauncher(int node, Path dir, Path java) {
        Path script = dir.resolve("java-in-" + namespace(node));
        try {
            Files.createDirectories(dir);
            Files.writeString(
                    script,
                    "#!/bin/sh\nexec ip netns exec " + namespace(node) + " '" + java + "' \"$@\"\n",
                    StandardCharsets.UTF_8);
            Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
            return script;
        } catch (IOException e) {
            throw new IllegalStateException("cannot write " + script + ": " + e, e);
        }
    }

    /**
     * Cuts the node off: its bridge port goes down, its process keeps running.
     *
     * @param node 1..N
     */
    public void disconnect(int node) {
        run("link", "set", hostLink(node), "down");
        LOG.info("node {} cut off from the network ({} down)", node, hostLink(node));
    }

    /**
     * Connects the node again: its bridge port comes up.
     *
     * @param node 1..N
     */
    public void reconnect(int node) {
        run("link", "set", hostLink(node), "up");
        LOG.info("node {} connected again ({} up)", node, hostLink(node));
    }

    private String hostLink(int node) {
        return "rtm" + tag + "h" + node;
    }

    /** Deletes every link and namespace made, last first. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        deleteAll();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // shutting down: the hook runs anyway
        }
    }

    private void deleteAll() {
        List<List<String>> todo;
        synchronized (undo) {
            todo = new ArrayList<>(undo);
            undo.clear();
        }
        for (int i = todo.size() - 1; i >= 0; i--) {
            try {
                exec(todo.get(i));
            } catch (RuntimeException e) {
                LOG.warn("cleanup: {}", e.getMessage());
            }
        }
    }

    /** Runs {@code ip args} and remembers {@code ip undo} for {@link #close()}. */
    private void ip(List<String> undoArgs, String... args) {
        run(args);
        synchronized (undo) {
            undo.add(undoArgs);
        }
    }

    private static void run(String... args) {
        exec(List.of(args));
    }

    private static void exec(List<String> args) {
        List<String> command = new ArrayList<>(List.of("ip"));
        command.addAll(args);
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IllegalStateException(
                        String.format(Locale.ROOT, "'%s' failed: %s", String.join(" ", command), out));
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run '" + String.join(" ", command) + "': " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running '" + String.join(" ", command) + "'", e);
        }
    }
}
