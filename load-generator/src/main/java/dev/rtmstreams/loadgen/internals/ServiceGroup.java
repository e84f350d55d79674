package dev.rtmstreams.loadgen.internals;

import dev.rtmstreams.tools.ChildJvm;
import dev.rtmstreams.tools.Directories;
import dev.rtmstreams.tools.LocalHttp;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * N instances of the ad-attribution service sharing one application id, each in its own JVM with its own state
 * directory (deleted on close) and HTTP port: the system under test of {@code bench} in the service's modes and of
 * {@code run --app-jar}. {@link #start} returns once every instance is RUNNING and the group is stable: each instance
 * holds at least one active task of its own, and the assignment stayed the same over two readings a second apart
 * ({@link GroupAssignment}), so the run starts after the group's rebalances, not inside them.
 */
final class ServiceGroup implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ServiceGroup.class);
    private static final Duration POLL = Duration.ofSeconds(1);

    /** Starts one instance. */
    interface Launcher {
        /**
         * @param index 1..N
         * @param label the instance's name in reports ({@code instance-INDEX})
         * @param stateDir its own state directory
         * @return the started (not yet ready) instance, ready by {@code /health} on its HTTP port
         *     ({@link dev.rtmstreams.tools.ServiceJar#run})
         * @throws IOException when it cannot be started
         */
        ChildJvm start(int index, String label, Path stateDir) throws IOException;
    }

    private record Member(String label, ChildJvm jvm, Path stateDir) {}

    private final List<Member> members;
    private List<GroupAssignment.Instance> atStart = List.of();

    private ServiceGroup(List<Member> members) {
        this.members = members;
    }

    /**
     * Starts the instances (all before waiting for any), waits until each is ready and the group is stable; stops
     * them all again when one fails or the group does not settle in time.
     *
     * @param instances how many, at least 1
     * @param launcher starts one
     * @param timeout the longest wait for the instances to get ready, and again for the group to settle
     * @return the running group
     * @throws Exception when an instance cannot be started or does not get ready, or the group does not settle
     */
    static ServiceGroup start(int instances, Launcher launcher, Duration timeout) throws Exception {
        if (instances < 1) {
            throw new IllegalArgumentException("instances must be at least 1: " + instances);
        }
        ServiceGroup group = new ServiceGroup(new ArrayList<>());
        try {
            for (int i = 1; i <= instances; i++) {
                String label = "instance-" + i;
                // the service's RocksDB state (~1 GB after a few minutes at 10k events/s) goes with the service
                Path stateDir = Files.createTempDirectory("loadgen-app-state-");
                try {
                    group.members.add(new Member(label, launcher.start(i, label, stateDir), stateDir));
                } catch (IOException | RuntimeException e) {
                    Directories.deleteQuietly(stateDir);
                    throw e;
                }
            }
            for (Member m : group.members) {
                m.jvm().awaitReady(timeout);
            }
            group.atStart = group.awaitStable(timeout);
            return group;
        } catch (Exception | Error e) {
            group.close();
            throw e;
        }
    }

    /** @return the instances' JVMs for the cost meter, in order */
    List<CostMeter.Sut> suts() {
        return members.stream()
                .map(m -> new CostMeter.Sut(m.label(), m.jvm().pid()))
                .toList();
    }

    /** @return the group as it was once stable, before the run */
    List<GroupAssignment.Instance> atStart() {
        return atStart;
    }

    /** @return the group now, as each instance answers on {@code /health} and {@code /metrics} */
    List<GroupAssignment.Instance> read() {
        List<GroupAssignment.Instance> out = new ArrayList<>();
        for (Member m : members) {
            int port = m.jvm().readiness().port();
            out.add(GroupAssignment.read(
                    m.label(), m.jvm().pid(), LocalHttp.get(port, "/health"), LocalHttp.get(port, "/metrics")));
        }
        return out;
    }

    /**
     * The report's {@code instances} section ({@link GroupAssignment#section}), reading the group now.
     *
     * @param meter the run's meter, whose JVMs are this group's
     * @param events input events in the measured window
     * @return the section
     */
    GroupAssignment.Section report(CostMeter meter, long events) {
        return GroupAssignment.section(atStart, read(), meter.instanceCpu(), events);
    }

    private List<GroupAssignment.Instance> awaitStable(Duration timeout) throws InterruptedException {
        long t0 = System.nanoTime();
        long deadline = t0 + timeout.toNanos();
        List<GroupAssignment.Instance> previous = null;
        while (true) {
            List<GroupAssignment.Instance> now = read();
            String problem = GroupAssignment.problem(now);
            if (problem == null && previous != null && GroupAssignment.sameTasks(previous, now)) {
                LOG.info(
                        "group of {} stable after {} ms:{}",
                        members.size(),
                        (System.nanoTime() - t0) / 1_000_000,
                        GroupAssignment.describe(now));
                return now;
            }
            for (Member m : members) {
                if (!m.jvm().isAlive()) {
                    throw new IllegalStateException(m.label() + " exited while the group settled; log "
                            + m.jvm().logFile() + ":\n" + m.jvm().tail(40));
                }
            }
            if (System.nanoTime() >= deadline) {
                throw new IllegalStateException("the group of " + members.size() + " instances did not settle within "
                        + timeout + " (" + (problem != null ? problem : "the assignment still changes")
                        + "):" + GroupAssignment.describe(now));
            }
            previous = problem == null ? now : null;
            Thread.sleep(POLL.toMillis());
        }
    }

    /** Stops every instance (all at once) and deletes their state directories; a failure to stop is logged. */
    @Override
    public void close() {
        List<Thread> stops = new ArrayList<>();
        for (Member m : members) {
            Thread t = new Thread(
                    () -> {
                        try {
                            m.jvm().close();
                        } catch (RuntimeException e) {
                            LOG.warn("stopping {} failed", m.label(), e);
                        } finally {
                            Directories.deleteQuietly(m.stateDir());
                        }
                    },
                    "stop-" + m.label());
            t.start();
            stops.add(t);
        }
        for (Thread t : stops) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
