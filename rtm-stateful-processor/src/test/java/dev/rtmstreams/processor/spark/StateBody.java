package dev.rtmstreams.processor.spark;

import dev.rtmstreams.processor.StatefulProcessorHandle;
import dev.rtmstreams.processor.TimeMode;
import dev.rtmstreams.processor.TransformWithState;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Runs the body of one of Spark's state-variable unit tests ({@code ValueStateSuite}, {@code ListStateSuite}) inside
 * an operator: {@code declare} runs in {@code init} (where Spark's test calls {@code handle.getXState}), each
 * {@code body} runs in {@code handleInputRows} of grouping key {@code test_key} (where Spark's test sets the implicit
 * key). The bodies assert with AssertJ; a failed assertion fails the row and so the test.
 */
final class StateBody implements AutoCloseable {

    final SparkTwsPort port;

    StateBody(TimeMode mode, Consumer<StatefulProcessorHandle> declare) {
        this(mode, declare, false);
    }

    StateBody(TimeMode mode, Consumer<StatefulProcessorHandle> declare, boolean microBatch) {
        Supplier<HandleProbe> s = () -> {
            HandleProbe p = new HandleProbe();
            p.onInit = declare;
            p.onRow = (handle, row, out) -> BODIES.get().run();
            return p;
        };
        TransformWithState.Builder<String, String, String> b =
                TransformWithState.builder(s, mode).name("state");
        port = new SparkTwsPort((microBatch ? SparkTwsPort.microBatch(b) : b).build());
    }

    private static final ThreadLocal<Runnable> BODIES = new ThreadLocal<>();

    /** Runs {@code body} under grouping key {@code test_key} (real-time mode: at once). */
    void run(Runnable body) {
        BODIES.set(body);
        try {
            port.add("test_key", "run");
        } finally {
            BODIES.remove();
        }
    }

    /** Micro-batch mode: queues {@code body} for the next batch, which {@code advance} runs. */
    void runInBatch(Runnable body, long advanceMs) {
        BODIES.set(body);
        try {
            port.add("test_key", "run");
            port.advance(advanceMs);
        } finally {
            BODIES.remove();
        }
    }

    @Override
    public void close() {
        port.close();
    }
}
