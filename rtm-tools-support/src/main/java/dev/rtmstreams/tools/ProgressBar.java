package dev.rtmstreams.tools;

import java.io.PrintStream;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * A single console line on stderr, rewritten in place a few times per second while a run goes:
 * a bar of sent/total, elapsed time, send rate, outputs observed/expected and the p99 of the last
 * second. Runs on its own daemon thread until {@link #close()}.
 */
public final class ProgressBar implements AutoCloseable {

    /** A snapshot of what to show. */
    public record State(
            String phase,
            long sent,
            long total,
            double elapsedSeconds,
            long observed,
            long expected,
            double lastP99Millis) {}

    private final PrintStream out;
    private final Supplier<State> state;
    private final Thread thread;
    private volatile boolean running = true;
    private int lastLength;

    /**
     * Starts the bar.
     *
     * @param out where to draw (stderr)
     * @param state polled for the numbers
     * @param enabled when false nothing is drawn
     */
    public ProgressBar(PrintStream out, Supplier<State> state, boolean enabled) {
        this.out = out;
        this.state = state;
        this.thread = new Thread(this::loop, "rtm-progress");
        this.thread.setDaemon(true);
        if (enabled) {
            thread.start();
        }
    }

    private void loop() {
        while (running) {
            draw();
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private synchronized void draw() {
        String line = render(state.get());
        StringBuilder sb = new StringBuilder("\r").append(line);
        for (int i = line.length(); i < lastLength; i++) {
            sb.append(' ');
        }
        lastLength = line.length();
        out.print(sb);
        out.flush();
    }

    /**
     * Renders one line.
     *
     * @param s the state
     * @return the line without carriage return
     */
    public static String render(State s) {
        int width = 30;
        double fraction = s.total() == 0 ? 1 : Math.min(1.0, (double) s.sent() / s.total());
        int filled = (int) Math.round(fraction * width);
        StringBuilder bar = new StringBuilder("[");
        for (int i = 0; i < width; i++) {
            bar.append(i < filled ? '#' : '.');
        }
        bar.append(']');
        double rate = s.elapsedSeconds() > 0 ? s.sent() / s.elapsedSeconds() : 0;
        return String.format(
                Locale.ROOT,
                "%-8s %s %3.0f%% %6.1fs sent %d/%d (%.0f/s) out %d/%d p99(1s) %s",
                s.phase(),
                bar,
                fraction * 100,
                s.elapsedSeconds(),
                s.sent(),
                s.total(),
                rate,
                s.observed(),
                s.expected(),
                Double.isNaN(s.lastP99Millis()) ? "-" : String.format(Locale.ROOT, "%.1fms", s.lastP99Millis()));
    }

    /** Draws a last time, ends the line and stops the thread. */
    @Override
    public void close() {
        if (!running) {
            return;
        }
        running = false;
        if (thread.isAlive()) {
            thread.interrupt();
            try {
                thread.join(1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            draw();
            out.println();
        }
    }
}
