package dev.rtmstreams.reliability.internals;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Two service instances sharing the tasks; at the scheduled time {@code kill -9} of the first, and a wait (up to
 * 120 s) until the second reports every task active (instance-failover).
 */
final class InstanceKillFault implements Fault {

    private static final Duration SHARE_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration TAKEOVER_TIMEOUT = Duration.ofSeconds(120);

    @Override
    public int instances() {
        return 2;
    }

    /** Waits until both instances have tasks and together all of them. */
    @Override
    public void beforeLoad(RunContext run) throws InterruptedException {
        ServiceInstance a = run.instances().get(0);
        ServiceInstance b = run.instances().get(1);
        long total = tasksTotal(run);
        long deadline = System.nanoTime() + SHARE_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (a.activeTasks() > 0 && b.activeTasks() > 0 && a.activeTasks() + b.activeTasks() >= total) {
                return;
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException(
                "the two instances did not share the tasks within 90 s: " + a.activeTasks() + " + " + b.activeTasks());
    }

    @Override
    public Optional<Strike> strike() {
        return Optional.of(this::kill);
    }

    /** Two sub-topologies (attribution, correlation), one task per partition each. */
    private static long tasksTotal(RunContext run) {
        return 2L * run.settings().partitions();
    }

    private InjectedFault.InstanceKill kill(RunContext run, Runnable whileDown) throws InterruptedException {
        ServiceInstance victim = run.instances().get(0);
        ServiceInstance survivor = run.survivor();
        Map<String, Long> before = new LinkedHashMap<>();
        before.put(victim.name(), victim.activeTasks());
        before.put(survivor.name(), survivor.activeTasks());
        long faultNanos = System.nanoTime();
        String kind = "kill -9 of " + victim.name() + " (pid " + victim.pid() + "); " + survivor.name() + " survives";
        double atS = run.secondsIntoLoad(faultNanos);
        victim.kill9();
        long total = tasksTotal(run);
        long deadline = System.nanoTime() + TAKEOVER_TIMEOUT.toNanos();
        long took = -1;
        while (System.nanoTime() < deadline) {
            if (survivor.activeTasks() >= total) {
                took = RunContext.millis(System.nanoTime() - faultNanos);
                break;
            }
            Thread.sleep(100);
        }
        return new InjectedFault.InstanceKill(
                faultNanos, before, kind, atS, survivor.activeTasks(), total, took, survivor.slotLines());
    }
}
