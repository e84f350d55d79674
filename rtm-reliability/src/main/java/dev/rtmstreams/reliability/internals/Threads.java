package dev.rtmstreams.reliability.internals;

/** Thread helpers shared by the chaos harness's background workers. */
final class Threads {

    private Threads() {}

    /**
     * Waits up to {@code timeoutMs} for {@code thread} to end; does nothing for a null thread. When interrupted it
     * stops waiting and restores the caller's interrupt flag.
     */
    static void joinQuietly(Thread thread, long timeoutMs) {
        try {
            if (thread != null) {
                thread.join(timeoutMs);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
