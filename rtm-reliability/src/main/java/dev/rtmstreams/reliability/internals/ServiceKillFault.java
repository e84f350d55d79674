package dev.rtmstreams.reliability.internals;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code kill -9} of the service JVM at the scheduled time, optionally a wipe of its state directory, a downtime, and a
 * restart with the same state directory: service-crash and pending-timers ({@link #restartAfter}), long-outage
 * ({@link #restartAfter} twice the correlation window), state-wipe ({@link #wipeAndRestartAfter}).
 */
final class ServiceKillFault implements Fault {

    private final Duration downtime;
    private final boolean wipeState;

    private ServiceKillFault(Duration downtime, boolean wipeState) {
        this.downtime = Objects.requireNonNull(downtime, "downtime");
        this.wipeState = wipeState;
    }

    /**
     * @param downtime how long the service stays down
     * @return kill -9, then a restart with the state directory as it was
     */
    static ServiceKillFault restartAfter(Duration downtime) {
        return new ServiceKillFault(downtime, false);
    }

    /**
     * @param downtime how long the service stays down
     * @return kill -9, the state directory deleted, then a restart that restores state from the changelogs
     */
    static ServiceKillFault wipeAndRestartAfter(Duration downtime) {
        return new ServiceKillFault(downtime, true);
    }

    @Override
    public Optional<Strike> strike() {
        return Optional.of(this::kill);
    }

    private InjectedFault.ServiceKill kill(RunContext run, Runnable whileDown) throws Exception {
        ServiceInstance service = run.primary();
        long faultNanos = System.nanoTime();
        String kind = "kill -9 of the service JVM (pid " + service.pid() + ")";
        double atS = run.secondsIntoLoad(faultNanos);
        service.kill9();
        String wiped = null;
        if (wipeState) {
            service.deleteStateDir();
            wiped = service.stateDir().toString();
        }
        whileDown.run();
        Thread.sleep(downtime.toMillis());
        long restart = System.nanoTime();
        service.start();
        Duration toRunning = service.awaitRunning(run.settings().readyTimeout());
        long running = System.nanoTime();
        return new InjectedFault.ServiceKill(
                faultNanos,
                running,
                kind,
                atS,
                wiped,
                downtime.toMillis(),
                RunContext.millis(restart - faultNanos),
                toRunning.toMillis(),
                RunContext.millis(running - faultNanos));
    }
}
