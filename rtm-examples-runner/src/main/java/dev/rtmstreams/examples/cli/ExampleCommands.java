package dev.rtmstreams.examples.cli;

import dev.rtmstreams.examples.AggregationExample;
import dev.rtmstreams.examples.DedupExample;
import dev.rtmstreams.examples.ForeachSinkExample;
import dev.rtmstreams.examples.KeyCount;
import dev.rtmstreams.examples.PostgresUpsertSink;
import dev.rtmstreams.examples.RepartitionExample;
import dev.rtmstreams.examples.StatelessExample;
import dev.rtmstreams.examples.StreamStaticJoinExample;
import dev.rtmstreams.examples.TwsCounterExample;
import dev.rtmstreams.examples.UnionAggregationExample;
import dev.rtmstreams.examples.UnionExample;
import dev.rtmstreams.examples.internals.ExampleRunner;
import dev.rtmstreams.examples.internals.ExampleSpec;
import dev.rtmstreams.examples.internals.PostgresTarget;
import dev.rtmstreams.examples.internals.RunSettings;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** One command per example of the page. */
final class ExampleCommands {

    private ExampleCommands() {}

    /** Every example command class, in the order of the page. */
    static final List<Class<?>> ALL = List.of(
            Stateless.class,
            Repartition.class,
            StreamStaticJoin.class,
            Union.class,
            Dedup.class,
            Aggregation.class,
            UnionAggregation.class,
            TwsCounter.class,
            Rate.class,
            ForeachSinkCommand.class);

    @Command(name = "stateless", description = "Kafka source to Kafka sink: every record copied to the output topic.")
    static final class Stateless extends ExampleCommand {
        @Override
        ExampleSpec example() {
            return spec(
                    "Kafka source to Kafka sink",
                    1,
                    false,
                    t -> StatelessExample.topology(t.inputs().get(0), t.output()));
        }
    }

    @Command(
            name = "repartition",
            description = "Repartition into --shuffle-partitions partitions, then to the output topic; prints the"
                    + " slot sizing with the shuffle tasks.")
    static final class Repartition extends ExampleCommand {
        @Option(
                names = "--shuffle-partitions",
                paramLabel = "N",
                defaultValue = "20",
                description = "Partitions of the shuffle. Default: ${DEFAULT-VALUE}.")
        int shufflePartitions;

        @Override
        ExampleSpec example() {
            positive(commandSpec.commandLine(), "--shuffle-partitions", shufflePartitions);
            return spec(
                    "repartition(" + shufflePartitions + ") between a Kafka source and a Kafka sink",
                    1,
                    false,
                    t -> RepartitionExample.topology(t.inputs().get(0), t.output(), shufflePartitions));
        }
    }

    @Command(
            name = "stream-static-join",
            description = "Join each record (value = join key) with a static table that fits in memory: from a CSV"
                    + " file (--table csv) or a GlobalKTable over a compacted topic (--table topic).")
    static final class StreamStaticJoin extends ExampleCommand {
        @Option(
                names = "--table",
                paramLabel = "csv|topic",
                defaultValue = "csv",
                description = "Where the static table lives. Default: ${DEFAULT-VALUE}.")
        String table;

        @Option(
                names = "--table-file",
                paramLabel = "CSV",
                description = "CSV with a 'lookupKey,label' header. Default: a bundled table of the even keys 0..998.")
        Path tableFile;

        private Map<String, String> rows;

        @Override
        long defaultDistinctValues() {
            return 1000;
        }

        private Map<String, String> rows() {
            if (rows == null) {
                try {
                    if (tableFile != null) {
                        rows = StreamStaticJoinExample.readCsv(tableFile);
                    } else {
                        Path tmp = Files.createTempFile("static-table", ".csv");
                        try (InputStream in = ExampleCommands.class.getResourceAsStream("/static-table.csv")) {
                            Files.writeString(
                                    tmp, new String(in.readAllBytes(), StandardCharsets.UTF_8), StandardCharsets.UTF_8);
                            rows = StreamStaticJoinExample.readCsv(tmp);
                        } finally {
                            Files.deleteIfExists(tmp);
                        }
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot read the static table " + tableFile, e);
                } catch (IllegalArgumentException e) {
                    throw new CommandLine.ParameterException(
                            commandSpec.commandLine(), "Invalid value for option '--table-file': " + e.getMessage());
                }
            }
            return rows;
        }

        @Override
        Map<String, String> tableRows() {
            return "topic".equals(table) ? rows() : null;
        }

        @Override
        ExampleSpec example() {
            Map<String, String> lookup = rows();
            return switch (table) {
                case "csv" ->
                    spec(
                            "stream-static join with a table of " + lookup.size() + " rows from a CSV file",
                            1,
                            false,
                            t -> StreamStaticJoinExample.topology(t.inputs().get(0), t.output(), lookup));
                case "topic" ->
                    spec(
                            "stream-static join with a GlobalKTable of " + lookup.size() + " rows (compacted topic)",
                            1,
                            false,
                            t -> StreamStaticJoinExample.topologyWithGlobalTable(
                                    t.inputs().get(0), t.output(), t.table()));
                default ->
                    throw new CommandLine.ParameterException(
                            commandSpec.commandLine(),
                            "Invalid value for option '--table': expected csv or topic: '" + table + "'");
            };
        }
    }

    @Command(name = "union", description = "Union of two input topics into one output topic.")
    static final class Union extends ExampleCommand {
        @Override
        ExampleSpec example() {
            return spec(
                    "union of two Kafka topics",
                    2,
                    false,
                    t -> UnionExample.topology(t.inputs().get(0), t.inputs().get(1), t.output()));
        }
    }

    @Command(name = "dedup", description = "dropDuplicates on (timestamp, value), bounded by a processing-time TTL.")
    static final class Dedup extends ExampleCommand {
        @Option(
                names = "--ttl",
                paramLabel = "DURATION",
                defaultValue = "PT10M",
                description = "How long a (timestamp, value) pair is remembered. Default: ${DEFAULT-VALUE}.")
        Duration ttl;

        @Override
        int defaultDuplicateEvery() {
            return 10;
        }

        @Override
        ExampleSpec example() {
            Duration d = ttl;
            if (d.isZero()) {
                throw new CommandLine.ParameterException(
                        commandSpec.commandLine(), "Invalid value for option '--ttl': must be positive: '" + ttl + "'");
            }
            return spec(
                    "dropDuplicates(timestamp, value) within " + d,
                    1,
                    true,
                    t -> DedupExample.topology(t.inputs().get(0), t.output(), d));
        }
    }

    @Command(
            name = "aggregation",
            description = "groupBy(timestamp, value).count() in update mode, written as value -> count.")
    static final class Aggregation extends ExampleCommand {
        @Override
        int defaultDuplicateEvery() {
            return 10;
        }

        @Override
        ExampleSpec example() {
            return spec(
                    "count by (timestamp, value), update mode",
                    1,
                    true,
                    t -> AggregationExample.topology(t.inputs().get(0), t.output()));
        }
    }

    @Command(
            name = "union-aggregation",
            description = "Union of two input topics, then groupBy(timestamp, value).count() in update mode.")
    static final class UnionAggregation extends ExampleCommand {
        @Override
        int defaultDuplicateEvery() {
            return 10;
        }

        @Override
        ExampleSpec example() {
            return spec(
                    "union of two topics, then count by (timestamp, value)",
                    2,
                    true,
                    t -> UnionAggregationExample.topology(
                            t.inputs().get(0), t.inputs().get(1), t.output()));
        }
    }

    @Command(
            name = "tws-counter",
            description = "transformWithState: the page's RTMStatefulProcessor (value, list and map state with a 30 s"
                    + " TTL) counting records per key, source timestamp passed through.")
    static final class TwsCounter extends ExampleCommand {
        @Override
        ExampleSpec example() {
            return new ExampleSpec(
                    "tws-counter",
                    "transformWithState count per key with value/list/map state, 30 s TTL",
                    1,
                    true,
                    false,
                    t -> TwsCounterExample.topology(t.inputs().get(0), t.output()),
                    r -> KeyCount.parse(r.value()).sourceTimestamp());
        }
    }

    @Command(
            name = "rate",
            description = "The rate source displayed: rows (timestamp, value) per second, printed as they come out.")
    static final class Rate extends ExampleCommand {
        @Option(
                names = "--display-rows",
                paramLabel = "N",
                defaultValue = "20",
                description = "Rows printed. Default: ${DEFAULT-VALUE}.")
        int displayRows;

        @Override
        double defaultRate() {
            return 10;
        }

        @Override
        int displayRows() {
            return displayRows;
        }

        @Override
        ExampleSpec example() {
            return spec(
                    "rate source, displayed",
                    1,
                    false,
                    t -> StatelessExample.topology(t.inputs().get(0), t.output()));
        }
    }

    @Command(
            name = "foreach-sink",
            description = "A custom sink (ForeachSink, Spark's ForeachWriter) upserting every record by key into"
                    + " PostgreSQL, idempotently: a replay leaves one row per key. Without --postgres-url it starts a"
                    + " real PostgreSQL from the jar (nothing to install).")
    static final class ForeachSinkCommand extends ExampleCommand {
        @Option(
                names = "--postgres-url",
                paramLabel = "JDBC_URL",
                description = "jdbc:postgresql://host:port/db; user and password from the environment variables"
                        + " PGUSER and PGPASSWORD. Default: an embedded PostgreSQL for the run.")
        String postgresUrl;

        @Option(
                names = "--table",
                paramLabel = "NAME",
                defaultValue = "rtm_examples_sink",
                description = "Table (created if missing). Default: ${DEFAULT-VALUE}.")
        String table;

        @Option(
                names = "--max-buffered-rows",
                paramLabel = "N",
                defaultValue = "3",
                description = "Rows per JDBC batch and transaction (the page uses 3). Default: ${DEFAULT-VALUE}.")
        int maxBufferedRows;

        @Override
        public Integer call() throws Exception {
            CommandLine cl = commandSpec.commandLine();
            RunSettings settings = settings(cl);
            PostgresTarget opened;
            try {
                opened = PostgresTarget.open(postgresUrl, table, maxBufferedRows, System::getenv);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(cl, "Invalid PostgreSQL setting: " + e.getMessage());
            }
            try (PostgresTarget target = opened) {
                config = target.config();
                PostgresUpsertSink.createTable(config);
                cl.getOut().println("PostgreSQL: " + config);
                new ExampleRunner(example(), settings, cl.getOut()).run();
                cl.getOut().println(target.summary());
                cl.getOut().flush();
            }
            return 0;
        }

        private PostgresUpsertSink.Config config;

        @Override
        ExampleSpec example() {
            PostgresUpsertSink.Config c = config;
            return new ExampleSpec(
                    "foreach-sink",
                    "ForeachSink upserting into PostgreSQL table " + table + ", one row per key",
                    1,
                    false,
                    true,
                    t -> ForeachSinkExample.topology(
                            t.inputs().get(0), () -> new PostgresUpsertSink(c, t.sinkCommitted())),
                    ExampleSpec.RECORD_TIMESTAMP);
        }
    }
}
