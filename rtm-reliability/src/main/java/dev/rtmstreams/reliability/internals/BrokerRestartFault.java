package dev.rtmstreams.reliability.internals;

import dev.rtmstreams.testkit.KafkaBrokerProcess;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * A graceful stop of the runner's own broker JVM at the scheduled time, a downtime, and a start again on the same port
 * and log directory (broker-restart).
 */
final class BrokerRestartFault implements Fault {

    private final Duration downtime;

    /** @param downtime how long the broker stays down */
    BrokerRestartFault(Duration downtime) {
        this.downtime = Objects.requireNonNull(downtime, "downtime");
    }

    @Override
    public Optional<Strike> strike() {
        return Optional.of(this::restart);
    }

    private InjectedFault.BrokerRestart restart(RunContext run, Runnable whileDown) throws Exception {
        KafkaBrokerProcess broker = run.broker();
        long faultNanos = System.nanoTime();
        Duration stopTook = broker.stop();
        double atS = run.secondsIntoLoad(faultNanos);
        Thread.sleep(downtime.toMillis());
        broker.start();
        return new InjectedFault.BrokerRestart(
                faultNanos,
                "graceful stop of the broker JVM, start again on the same port and log dir",
                atS,
                stopTook.toMillis(),
                broker.lastStartupTime().toMillis(),
                RunContext.millis(System.nanoTime() - faultNanos));
    }
}
