package dev.rtmstreams.spark;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.classic.StreamingQueryManager;
import org.apache.spark.sql.execution.streaming.runtime.MemoryStream;
import org.apache.spark.sql.execution.streaming.sources.MemorySink;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.apache.spark.util.ManualClock;
import scala.Option;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Runs one transformWithState query on real Spark, batch by batch on a manual clock: a {@link MemoryStream} of
 * {@link Event}s in, a {@link MemorySink} out, {@code Trigger.ProcessingTime(interval)} driven by a {@link ManualClock}
 * (what Spark's own {@code TransformWithStateSuite} does with {@code StreamManualClock}, through the same internal
 * {@code StreamingQueryManager#startQuery}). Each {@link #step} adds the rows, moves the clock one interval and waits
 * until the stream waits for the next trigger, so the batch timestamp (processing time) of step {@code i} is exactly
 * {@code start + i * interval}, as on our side.
 */
final class SparkRunner implements AutoCloseable {

    private static SparkSession session;

    /**
     * @return the local Spark session of the test JVM (two cores, RocksDB state store, one shuffle partition); a new
     *     one after a test class stopped it
     */
    static synchronized SparkSession session() {
        if (session == null || session.sparkContext().isStopped()) {
            session = SparkSession.builder()
                    .master("local[2]")
                    .appName("rtm-spark-differential")
                    .config("spark.ui.enabled", "false")
                    .config("spark.driver.host", "127.0.0.1")
                    .config("spark.driver.bindAddress", "127.0.0.1")
                    .config("spark.sql.shuffle.partitions", "1")
                    .config("spark.sql.session.timeZone", "UTC")
                    .config(
                            "spark.sql.streaming.stateStore.providerClass",
                            "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider")
                    .getOrCreate();
        }
        return session;
    }

    /** A manual clock that tells when the stream waits at a given time (Spark's test {@code StreamManualClock}). */
    static final class WaitingClock extends ManualClock {
        private Long waitStart;

        WaitingClock(long startMs) {
            super(startMs);
        }

        @Override
        public synchronized long waitTillTime(long targetTime) {
            try {
                waitStart = getTimeMillis();
                return super.waitTillTime(targetTime);
            } finally {
                waitStart = null;
            }
        }

        synchronized boolean isStreamWaitingAt(long time) {
            return waitStart != null && waitStart == time;
        }
    }

    private final String name;
    private final long intervalMs;
    private final Path checkpoint;
    private Function<Dataset<Event>, Dataset<String>> query;
    private final WaitingClock clock;
    private final MemoryStream<Event> input;
    private StreamingQuery running;
    private MemorySink sink;
    private int seen;

    /**
     * @param name query name
     * @param startMs clock at start
     * @param intervalMs trigger interval (one step)
     * @param checkpoint checkpoint directory (kept across {@link #restart()})
     * @param query the transformWithState query over the input
     */
    SparkRunner(
            String name,
            long startMs,
            long intervalMs,
            Path checkpoint,
            Function<Dataset<Event>, Dataset<String>> query) {
        if (!checkpoint.getFileName().toString().equals(name)) {
            throw new IllegalArgumentException("checkpoint must end in the query name " + name + ": " + checkpoint);
        }
        this.name = name;
        this.intervalMs = intervalMs;
        this.checkpoint = checkpoint;
        this.query = query;
        this.clock = new WaitingClock(startMs);
        this.input = MemoryStream.apply(Encoders.bean(Event.class), session());
    }

    /** Starts the query (again, on the same checkpoint) and waits for its first trigger. */
    void start() {
        sink = new MemorySink();
        seen = 0;
        Dataset<String> df = query.apply(input.toDS());
        StreamingQueryManager manager = (StreamingQueryManager) session().streams();
        // the checkpoint is <spark.sql.streaming.checkpointLocation>/<query name>
        session()
                .conf()
                .set(
                        "spark.sql.streaming.checkpointLocation",
                        checkpoint.getParent().toString());
        try {
            running = manager.startQuery(
                    Option.apply(name),
                    Option.empty(),
                    Option.empty(),
                    (org.apache.spark.sql.classic.Dataset<?>) df,
                    scala.collection.immutable.Map$.MODULE$.empty(),
                    sink,
                    OutputMode.Update(),
                    false,
                    true,
                    Trigger.ProcessingTime(intervalMs),
                    clock,
                    Option.empty(),
                    Option.empty());
        } catch (TimeoutException e) {
            throw new IllegalStateException("Spark query " + name + " did not start", e);
        }
        awaitWaitingAt(clock.getTimeMillis());
    }

    /**
     * Adds the rows, advances the clock one interval and waits for the batch.
     *
     * @return the rows the sink received in this step
     */
    List<String> step(List<Event> rows) {
        if (!rows.isEmpty()) {
            input.addData(CollectionConverters.asScala(rows).toSeq());
        }
        clock.advance(intervalMs);
        awaitWaitingAt(clock.getTimeMillis());
        List<Row> all = CollectionConverters.asJava(sink.allData());
        List<String> out = new ArrayList<>();
        for (Row r : all.subList(seen, all.size())) {
            out.add(r.getString(0));
        }
        seen = all.size();
        return out;
    }

    /** @return current processing time of the clock */
    long now() {
        return clock.getTimeMillis();
    }

    private void awaitWaitingAt(long time) {
        long deadline = System.nanoTime() + 120_000_000_000L;
        while (!clock.isStreamWaitingAt(time)) {
            if (running.exception().isDefined()) {
                throw new IllegalStateException(
                        "Spark query " + name + " failed", running.exception().get());
            }
            if (!running.isActive()) {
                throw new IllegalStateException("Spark query " + name + " stopped");
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("Spark query " + name + " did not reach " + time + " in 120 s");
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    /**
     * Stops the query and starts it again on the same checkpoint (same clock, same input stream).
     *
     * @param next the query to run from now on (a new version of the processor), or null for the same
     */
    void restart(Function<Dataset<Event>, Dataset<String>> next) {
        stop();
        if (next != null) {
            query = next;
        }
        start();
    }

    void stop() {
        if (running != null) {
            try {
                running.stop();
            } catch (TimeoutException e) {
                throw new IllegalStateException(e);
            }
            running = null;
        }
    }

    /** @return the rows of Spark's state data source ({@code format("statestore")}) for one state variable */
    List<Row> readState(String stateVarName, Map<String, String> options) {
        var reader = session()
                .read()
                .format("statestore")
                .option("path", checkpoint.toString())
                .option("stateVarName", stateVarName);
        for (var e : options.entrySet()) {
            reader = reader.option(e.getKey(), e.getValue());
        }
        Dataset<Row> ds = reader.load();
        return ds.collectAsList();
    }

    /** @return the rows of Spark's state data source with {@code readRegisteredTimers} (the pending timers) */
    List<Row> readTimers() {
        return session()
                .read()
                .format("statestore")
                .option("path", checkpoint.toString())
                .option("readRegisteredTimers", "true")
                .load()
                .collectAsList();
    }

    /** @return the schema of {@link #readState} as a tree string */
    String stateSchema(String stateVarName, Map<String, String> options) {
        var reader = session()
                .read()
                .format("statestore")
                .option("path", checkpoint.toString())
                .option("stateVarName", stateVarName);
        for (var e : options.entrySet()) {
            reader = reader.option(e.getKey(), e.getValue());
        }
        return reader.load().schema().treeString();
    }

    @Override
    public void close() {
        stop();
    }
}
