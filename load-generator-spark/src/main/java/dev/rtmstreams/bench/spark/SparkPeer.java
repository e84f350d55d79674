package dev.rtmstreams.bench.spark;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.streaming.DataStreamWriter;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Apache Spark, local mode, running one of the published latency workloads (databricks-solutions/latency-benchmarks
 * queries A, B and C) from a Kafka input topic to a Kafka output topic, as a peer of the load generator's bench
 * (modes {@code spark-real-time} and {@code spark-micro-batch}). The bench starts it in a child JVM of its own and
 * measures its CPU; it prints {@value #READY} once the query runs and stops it with SIGTERM.
 *
 * <p>The queries, as the published benchmark writes them, with the same output records as the rtm-examples
 * programs the bench also runs (key, value, and the input row's timestamp, see {@link InputTimestampInterceptor}):
 * <ul>
 *   <li>{@code stateless}: every row copied ({@code key, value}).</li>
 *   <li>{@code aggregation}: {@code groupBy(timestamp, value).count()} in update mode, written as
 *       {@code (key = value, value = count)}. Micro-batch only: Spark 4.2's real-time mode runs stateless queries.</li>
 *   <li>{@code stream-static-join}: each row's value (a join key) joined with the static table of
 *       {@code --table-file} ({@code lookupKey,lookupValue} CSV, broadcast), written as
 *       {@code (key = k, value = "k,v")}.</li>
 * </ul>
 * Triggers as the published runs: {@code real-time} is {@code Trigger.RealTime("5 minutes")} (checkpoint every five
 * minutes), {@code micro-batch} is {@code Trigger.ProcessingTime("0 seconds")} (each batch as soon as the last ends).
 * {@code local[2]} as the other peers' two stream threads; one input partition per core, as real-time mode needs a
 * task slot per source partition.
 */
public final class SparkPeer {

    /** Printed once the query runs. */
    public static final String READY = "PEER READY";

    private static final Logger LOG = LoggerFactory.getLogger(SparkPeer.class);

    private static final String USAGE = String.join(
            "\n",
            "Usage: SparkPeer --workload stateless|aggregation|stream-static-join --trigger real-time|micro-batch",
            "                 --bootstrap-servers HOST:PORT --input-topic T --output-topic T --checkpoint-dir DIR",
            "                 [--table-file CSV] [--cores N] [--real-time-interval 5 minutes]",
            "Runs a published latency workload on Apache Spark (local mode) from Kafka to Kafka until SIGTERM;",
            "prints PEER READY once the query runs.",
            "  --workload            the query: stateless, aggregation (micro-batch only), stream-static-join",
            "  --trigger             real-time (Trigger.RealTime) or micro-batch (Trigger.ProcessingTime 0 s)",
            "  --bootstrap-servers   the Kafka cluster",
            "  --input-topic         where the rows are read from (from the earliest offset)",
            "  --output-topic        where the results go",
            "  --checkpoint-dir      the query's checkpoint location (a new directory per run)",
            "  --table-file          stream-static-join: the static table, CSV with header lookupKey,lookupValue",
            "  --cores               local[N]; default 2",
            "  --real-time-interval  real-time mode's checkpoint interval; default '5 minutes' (the published runs')",
            "  --help                this text");

    private SparkPeer() {}

    /**
     * Runs the peer.
     *
     * @param args see {@code --help}
     * @throws Exception when the query cannot start
     */
    public static void main(String[] args) throws Exception {
        Map<String, String> o;
        try {
            o = parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("error: " + e.getMessage());
            System.err.println(USAGE);
            System.exit(2);
            return;
        }
        if (o.containsKey("help")) {
            System.out.println(USAGE);
            return;
        }
        System.exit(run(o));
    }

    /**
     * Parses {@code --name value} pairs (and {@code --help}).
     *
     * @throws IllegalArgumentException naming an unknown option, a missing value, a missing required option or a
     *     bad value
     */
    static Map<String, String> parse(String[] args) {
        List<String> known = List.of(
                "workload",
                "trigger",
                "bootstrap-servers",
                "input-topic",
                "output-topic",
                "checkpoint-dir",
                "table-file",
                "cores",
                "real-time-interval");
        Map<String, String> o = new LinkedHashMap<>();
        o.put("cores", "2");
        o.put("real-time-interval", "5 minutes");
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--help") || a.equals("-h")) {
                o.put("help", "");
                return o;
            }
            if (!a.startsWith("--") || !known.contains(a.substring(2))) {
                throw new IllegalArgumentException("unknown option '" + a + "'; known: --" + String.join(", --", known));
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(a + " needs a value");
            }
            o.put(a.substring(2), args[++i]);
        }
        List<String> missing = new ArrayList<>();
        for (String required :
                List.of("workload", "trigger", "bootstrap-servers", "input-topic", "output-topic", "checkpoint-dir")) {
            if (!o.containsKey(required)) {
                missing.add("--" + required);
            }
        }
        if (!missing.isEmpty()) {
            throw new IllegalArgumentException("missing " + String.join(", ", missing));
        }
        String workload = o.get("workload");
        if (!List.of("stateless", "aggregation", "stream-static-join").contains(workload)) {
            throw new IllegalArgumentException(
                    "--workload must be stateless, aggregation or stream-static-join: '" + workload + "'");
        }
        String trigger = o.get("trigger");
        if (!List.of("real-time", "micro-batch").contains(trigger)) {
            throw new IllegalArgumentException("--trigger must be real-time or micro-batch: '" + trigger + "'");
        }
        if (workload.equals("aggregation") && trigger.equals("real-time")) {
            throw new IllegalArgumentException("--workload aggregation runs only with --trigger micro-batch: Spark"
                    + " 4.2's real-time mode runs stateless queries (and stream-static joins)");
        }
        if (workload.equals("stream-static-join")
                && (!o.containsKey("table-file") || !Files.isRegularFile(Path.of(o.get("table-file"))))) {
            throw new IllegalArgumentException(
                    "--workload stream-static-join needs --table-file, an existing CSV file: " + o.get("table-file"));
        }
        try {
            if (Integer.parseInt(o.get("cores")) < 1) {
                throw new NumberFormatException();
            }
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--cores must be a positive integer: '" + o.get("cores") + "'");
        }
        return o;
    }

    private static int run(Map<String, String> o) throws Exception {
        SparkSession spark = SparkSession.builder()
                .appName("rtm-bench-spark-" + o.get("workload") + "-" + o.get("trigger"))
                .master("local[" + o.get("cores") + "]")
                .config("spark.ui.enabled", "false")
                .config("spark.sql.shuffle.partitions", o.get("cores"))
                .config("spark.sql.streaming.stopTimeout", "10s")
                .getOrCreate();
        Dataset<Row> in = spark.readStream()
                .format("kafka")
                .option("kafka.bootstrap.servers", o.get("bootstrap-servers"))
                .option("subscribe", o.get("input-topic"))
                .option("startingOffsets", "earliest")
                .load();
        Dataset<Row> out = query(spark, in, o);
        DataStreamWriter<Row> writer = out.writeStream()
                .format("kafka")
                .option("kafka.bootstrap.servers", o.get("bootstrap-servers"))
                .option("kafka.interceptor.classes", InputTimestampInterceptor.class.getName())
                .option("topic", o.get("output-topic"))
                .option("checkpointLocation", o.get("checkpoint-dir"))
                .outputMode("update")
                .trigger(
                        o.get("trigger").equals("real-time")
                                ? Trigger.RealTime(o.get("real-time-interval"))
                                : Trigger.ProcessingTime("0 seconds"));
        StreamingQuery query = writer.start();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            try {
                                query.stop();
                            } catch (Exception e) {
                                LOG.warn("stopping the query failed", e);
                            }
                            spark.stop();
                            stopped.countDown();
                        },
                        "spark-peer-shutdown"));
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (query.isActive() && query.status().message().toLowerCase(Locale.ROOT).startsWith("initializing")) {
            if (System.nanoTime() > deadline) {
                System.out.println("PEER FAILED to start: " + query.status().message());
                return 1;
            }
            Thread.sleep(50);
        }
        if (!query.isActive()) {
            System.out.println("PEER FAILED: " + query.exception());
            return 1;
        }
        LOG.info("query {} running: {}", query.id(), query.status().message());
        System.out.println(READY);
        System.out.flush();
        while (!stopped.await(1, TimeUnit.SECONDS)) {
            if (!query.isActive()) {
                LOG.error("query stopped: {}", query.exception().map(Throwable::toString).getOrElse(() -> "no error"));
                return 1;
            }
        }
        return 0;
    }

    /** The published query of the workload, with the output columns the Kafka sink writes. */
    static Dataset<Row> query(SparkSession spark, Dataset<Row> in, Map<String, String> o) {
        String timestampHeader = "array(named_struct('key', '" + InputTimestampInterceptor.HEADER + "', 'value',"
                + " cast(cast(unix_millis(timestamp) as string) as binary))) as headers";
        switch (o.get("workload")) {
            case "stateless":
                return in.selectExpr("key", "value", timestampHeader);
            case "aggregation":
                return in.selectExpr("timestamp", "cast(value as string) as value")
                        .groupBy("timestamp", "value")
                        .count()
                        .selectExpr(
                                "cast(value as binary) as key",
                                "cast(cast(count as string) as binary) as value",
                                timestampHeader);
            case "stream-static-join":
                Dataset<Row> table = spark.read()
                        .option("header", "true")
                        .schema("lookupKey INT, lookupValue LONG")
                        .csv(o.get("table-file"))
                        .cache();
                Dataset<Row> rows = in.selectExpr("cast(cast(value as string) as int) as joinKey", "timestamp");
                return rows.join(functions.broadcast(table), rows.col("joinKey").equalTo(table.col("lookupKey")))
                        .selectExpr(
                                "cast(cast(joinKey as string) as binary) as key",
                                "cast(concat(cast(joinKey as string), ',', cast(lookupValue as string)) as binary)"
                                        + " as value",
                                timestampHeader);
            default:
                throw new IllegalArgumentException("unknown workload " + o.get("workload"));
        }
    }
}
