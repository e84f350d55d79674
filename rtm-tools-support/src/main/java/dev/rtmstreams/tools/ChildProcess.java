package dev.rtmstreams.tools;

import java.time.Duration;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The supervision of a started {@link ChildJvm}'s process: waiting for readiness or exit, graceful stop with SIGTERM,
 * kill with SIGKILL.
 *
 * <p>Thread-safety: all methods may be called from any thread.
 */
final class ChildProcess {

    // the child's messages keep the logger of the public class
    private static final Logger LOG = LoggerFactory.getLogger(ChildJvm.class);
    private static final Duration POLL = Duration.ofMillis(100);
    private static final Duration KILL_WAIT = Duration.ofSeconds(30);

    private final String name;
    private final Process process;
    private final Duration stopTimeout;

    /**
     * @param name the child's label in log and error messages
     * @param process the started process
     * @param stopTimeout how long {@link #stop()} waits after SIGTERM before SIGKILL
     */
    ChildProcess(String name, Process process, Duration stopTimeout) {
        this.name = name;
        this.process = process;
        this.stopTimeout = stopTimeout;
    }

    /**
     * See {@link ChildJvm#awaitReady(Duration)}.
     *
     * @param readiness the check, named in the failure messages
     * @param probe the check's probe of this run
     * @param timeout the longest wait; positive ({@link #requirePositive})
     * @param details the command and the log's tail, appended to a failure message
     * @return how long the wait took
     * @throws InterruptedException when interrupted
     */
    Duration awaitReady(Readiness readiness, Readiness.Probe probe, Duration timeout, Supplier<String> details)
            throws InterruptedException {
        long t0 = System.nanoTime();
        long deadline = t0 + timeout.toNanos();
        while (true) {
            if (probe.isReady()) {
                return Duration.ofNanos(System.nanoTime() - t0);
            }
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " exited with " + process.exitValue() + " before it was ready ("
                        + readiness + ")" + details.get());
            }
            if (System.nanoTime() >= deadline) {
                throw new IllegalStateException(
                        name + " not ready (" + readiness + ") within " + timeout + details.get());
            }
            Thread.sleep(POLL.toMillis());
        }
    }

    /** See {@link ChildJvm#stop()}. */
    int stop() throws InterruptedException {
        if (!process.isAlive()) {
            return process.exitValue();
        }
        process.destroy();
        try {
            if (process.waitFor(stopTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
                return process.exitValue();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            throw e;
        }
        LOG.warn("{} (pid {}) did not stop within {} of SIGTERM; killing it", name, process.pid(), stopTimeout);
        return kill();
    }

    /** See {@link ChildJvm#awaitExit(Duration)}. */
    OptionalInt awaitExit(Duration timeout) throws InterruptedException {
        return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)
                ? OptionalInt.of(process.exitValue())
                : OptionalInt.empty();
    }

    /** See {@link ChildJvm#kill()}. */
    int kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(KILL_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException(
                    name + " pid " + process.pid() + " did not die within " + KILL_WAIT + " of SIGKILL");
        }
        LOG.info("killed {} (pid {}) with SIGKILL", name, process.pid());
        return process.exitValue();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    long pid() {
        return process.pid();
    }

    /** @throws IllegalArgumentException when the timeout is not positive */
    static void requirePositive(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive: " + timeout);
        }
    }
}
