package dev.rtmstreams.loadgen.internals;

import dev.rtmstreams.adattribution.workload.Expected;
import dev.rtmstreams.adattribution.workload.Matcher;
import dev.rtmstreams.adattribution.workload.Observed;
import dev.rtmstreams.adattribution.workload.OutputKind;
import dev.rtmstreams.adattribution.workload.OutputMatcher;
import dev.rtmstreams.adattribution.workload.RunSpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.zip.CRC32;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The rows and the oracle of the three workloads of databricks-solutions/latency-benchmarks, as the rtm-examples
 * programs run them (see BENCHMARKS.md for what matches the published queries and what differs).
 *
 * <p>Every row goes to one input topic with key {@code <idPrefix><seq>} and record timestamp {@code base + its
 * scheduled send offset} (whole milliseconds; the published runs' {@code timestamp} column, Kafka's create time). The
 * value depends on the workload:
 * <ul>
 *   <li>{@link BenchWorkload#STATELESS}: {@code rowBytes} characters of log-like text starting with {@code "<seq> "};
 *       expected output: the row unchanged (same key, value and timestamp).</li>
 *   <li>{@link BenchWorkload#AGGREGATION}: the same text; every {@value #DUPLICATE_EVERY}-th row repeats the previous
 *       row's value and timestamp, so its {@code (timestamp, value)} group counts to 2. Expected output: per group,
 *       counts rising to the number of its rows ({@link CountMatcher}), with key = the value.</li>
 *   <li>{@link BenchWorkload#STREAM_STATIC_JOIN}: a join key drawn uniformly from {@code [0, }{@value
 *       #LOOKUP_CARDINALITY}{@code )}; the static table maps {@code k -> 2k} for {@code k} in {@code 1..9999} (like the
 *       published {@code utils/static.scala}, so key 0 finds no partner and gives no output). Expected output: key
 *       {@code k}, value {@code "k,2k"}, the row's timestamp.</li>
 * </ul>
 * Under mode {@code echo} every workload's expected output is the row unchanged. An output whose timestamp is before
 * {@code base} belongs to an earlier run (the warm-up) and counts as foreign.
 *
 * <p>Immutable; {@link #rows()} is computed once.
 */
public final class LatencyWorkload {

    /** Input topic of the published workloads (a suffix is added on a shared cluster). */
    public static final String INPUT_TOPIC = "latency-bench-input";

    /** Output topic of the published workloads (a suffix is added on a shared cluster). */
    public static final String OUTPUT_TOPIC = "latency-bench-output";

    /** Rows of the published static table, and the range of the join keys. */
    public static final int LOOKUP_CARDINALITY = 10_000;

    /** Every this many rows of the aggregation workload, one repeats the previous row's group. */
    public static final int DUPLICATE_EVERY = 10;

    /** Characters of the value of a stateless or aggregation row when none is given (the published record size). */
    public static final int DEFAULT_ROW_BYTES = 1200;

    /** Largest value size accepted. */
    public static final int MAX_ROW_BYTES = 1_000_000;

    private static final String LOG_TEXT = "2026-01-15 10:30:01 INFO RtmStreams: starting application rtm-bench with"
            + " trigger real-time; 2026-01-15 10:30:01 INFO StreamThread: state transition from CREATED to STARTING;"
            + " 2026-01-15 10:30:02 INFO KafkaConsumer: subscribed to topic(s) latency-bench-input;"
            + " 2026-01-15 10:30:02 INFO SlotSizer: 2 source tasks and 2 shuffle tasks on 2 stream threads;"
            + " 2026-01-15 10:30:03 WARN NetworkClient: connection to node 1 could not be established, retrying;"
            + " 2026-01-15 10:30:03 INFO RocksDBStore: opened state store count in 12 ms; ";

    /**
     * The topics of a run.
     *
     * @param input where rows are sent
     * @param output where the system under test writes
     */
    public record Topics(String input, String output) {
        /** The default names. */
        public static final Topics DEFAULTS = new Topics(INPUT_TOPIC, OUTPUT_TOPIC);

        /** Validates non-null names. */
        public Topics {
            Objects.requireNonNull(input, "input");
            Objects.requireNonNull(output, "output");
        }

        /**
         * @param suffix appended to both names
         * @return the new names
         */
        public Topics withSuffix(String suffix) {
            return new Topics(input + suffix, output + suffix);
        }
    }

    /**
     * One input row.
     *
     * @param seq its index in send order
     * @param offsetMicros when to send it, from the start of the run
     * @param timestamp its record timestamp (epoch ms)
     * @param valueId the id its value text starts with (stateless, aggregation: the row's own seq, or the repeated
     *     row's)
     * @param joinKey its join key (stream-static join), else -1
     */
    public record Row(int seq, long offsetMicros, long timestamp, long valueId, int joinKey) {}

    private final BenchWorkload workload;
    private final String idPrefix;
    private final int rowBytes;
    private final long baseTimestamp;
    private final double rate;
    private final List<Row> rows;

    /**
     * Generates the rows of one run.
     *
     * @param workload a published workload (not attribution)
     * @param seed random seed (join keys)
     * @param rate rows per second, positive
     * @param duration length of the run, positive
     * @param idPrefix prefix of every row key; not null
     * @param rowBytes characters of a stateless or aggregation value, 1..{@value #MAX_ROW_BYTES} (a value is never
     *     shorter than its {@code "<seq> "} id)
     * @param baseTimestamp record timestamp of the first row (epoch ms)
     * @throws IllegalArgumentException naming a bad value
     */
    public LatencyWorkload(
            BenchWorkload workload,
            long seed,
            double rate,
            Duration duration,
            String idPrefix,
            int rowBytes,
            long baseTimestamp) {
        Objects.requireNonNull(workload, "workload");
        Objects.requireNonNull(duration, "duration");
        Objects.requireNonNull(idPrefix, "idPrefix");
        if (!workload.isPublished()) {
            throw new IllegalArgumentException("not a published latency workload: " + workload.cliName());
        }
        if (!(rate > 0) || Double.isInfinite(rate)) {
            throw new IllegalArgumentException("rate must be positive: " + rate);
        }
        if (duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException("duration must be positive: " + duration);
        }
        if (rowBytes < 1 || rowBytes > MAX_ROW_BYTES) {
            throw new IllegalArgumentException("row bytes must be in 1.." + MAX_ROW_BYTES + ": " + rowBytes);
        }
        this.workload = workload;
        this.idPrefix = idPrefix;
        this.rowBytes = rowBytes;
        this.baseTimestamp = baseTimestamp;
        this.rate = rate;
        long n = Math.round(rate * duration.toNanos() / 1e9);
        if (n > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("too many rows for one run: " + n);
        }
        Random random = new Random(seed);
        List<Row> out = new ArrayList<>((int) n);
        for (int i = 0; i < n; i++) {
            long offset = Math.round(i * 1e6 / rate);
            long ts = baseTimestamp + offset / 1000;
            long valueId = i;
            if (workload == BenchWorkload.AGGREGATION && i % DUPLICATE_EVERY == DUPLICATE_EVERY - 1) {
                Row previous = out.get(i - 1);
                valueId = previous.valueId();
                ts = previous.timestamp();
            }
            int joinKey = workload == BenchWorkload.STREAM_STATIC_JOIN ? random.nextInt(LOOKUP_CARDINALITY) : -1;
            out.add(new Row(i, offset, ts, valueId, joinKey));
        }
        this.rows = Collections.unmodifiableList(out);
    }

    /** @return the workload */
    public BenchWorkload workload() {
        return workload;
    }

    /** @return the rows in send order */
    public List<Row> rows() {
        return rows;
    }

    /** @return the record timestamp of the first row; outputs with an earlier timestamp are foreign */
    public long baseTimestamp() {
        return baseTimestamp;
    }

    /**
     * @param row a row
     * @return its record key
     */
    public String key(Row row) {
        return idPrefix + row.seq();
    }

    /**
     * @param row a row
     * @return its record value
     */
    public String value(Row row) {
        return workload == BenchWorkload.STREAM_STATIC_JOIN ? Integer.toString(row.joinKey()) : text(row.valueId());
    }

    /**
     * The value text of a stateless or aggregation row: {@code "<id> "} followed by log-like text, {@code rowBytes}
     * ASCII characters in all (longer only when the id alone is longer).
     *
     * @param id the value id
     * @return the text
     */
    String text(long id) {
        String head = id + " ";
        int need = rowBytes - head.length();
        StringBuilder b = new StringBuilder(head.length() + Math.max(need, 0)).append(head);
        int off = (int) Math.floorMod(id * 131, (long) LOG_TEXT.length());
        while (need > 0) {
            int n = Math.min(need, LOG_TEXT.length() - off);
            b.append(LOG_TEXT, off, off + n);
            need -= n;
            off = 0;
        }
        return b.toString();
    }

    /**
     * The static table of the stream-static join: {@code k -> 2k} for {@code k} in {@code 1..}{@value
     * #LOOKUP_CARDINALITY}{@code -1}.
     *
     * @return lookupKey to lookupValue, in key order
     */
    public static Map<Integer, Long> staticTable() {
        Map<Integer, Long> t = new LinkedHashMap<>();
        for (int k = 1; k < LOOKUP_CARDINALITY; k++) {
            t.put(k, 2L * k);
        }
        return t;
    }

    /**
     * Writes {@link #staticTable()} as the CSV file rtm-examples' {@code stream-static-join --table-file} reads
     * ({@code lookupKey,lookupValue} header, one row per line).
     *
     * @param file the file to write
     * @return the file
     * @throws IOException when it cannot be written
     */
    public static Path writeStaticTable(Path file) throws IOException {
        StringBuilder b = new StringBuilder("lookupKey,lookupValue\n");
        staticTable().forEach((k, v) -> b.append(k).append(',').append(v).append('\n'));
        Files.createDirectories(file.toAbsolutePath().getParent());
        return Files.writeString(file, b, StandardCharsets.US_ASCII);
    }

    /**
     * The expected outputs when every row is copied unchanged (mode echo, and the stateless workload).
     *
     * @return one expected copy per row
     */
    public List<Expected> expectedCopies() {
        List<Expected> out = new ArrayList<>(rows.size());
        for (Row r : rows) {
            String key = key(r);
            out.add(new Expected(OutputKind.ROW, key, key, fingerprint(bytes(value(r))), r.seq()));
        }
        return out;
    }

    /**
     * The expected outputs of the stream-static join: one per row whose join key is in the table.
     *
     * @return the expected join results
     */
    public List<Expected> expectedJoinResults() {
        Map<Integer, Long> table = staticTable();
        List<Expected> out = new ArrayList<>();
        for (Row r : rows) {
            Long label = table.get(r.joinKey());
            if (label != null) {
                String k = Integer.toString(r.joinKey());
                out.add(new Expected(OutputKind.ROW, k, r.timestamp() + "/" + k, k + "," + label, r.seq()));
            }
        }
        return out;
    }

    /**
     * The groups of the aggregation: {@code (timestamp, value)} with the rows of each, in send order.
     *
     * @return one group per distinct {@code (timestamp, value)}
     */
    public List<CountMatcher.Group> expectedGroups() {
        Map<String, List<Row>> byGroup = new LinkedHashMap<>();
        for (Row r : rows) {
            byGroup.computeIfAbsent(groupIdentity(r.timestamp(), r.valueId()), g -> new ArrayList<>())
                    .add(r);
        }
        List<CountMatcher.Group> out = new ArrayList<>(byGroup.size());
        byGroup.forEach((identity, members) -> {
            long[] seqs = members.stream().mapToLong(Row::seq).toArray();
            out.add(new CountMatcher.Group(identity, fingerprint(bytes(value(members.get(0)))), seqs));
        });
        return out;
    }

    private static String groupIdentity(long timestamp, long valueId) {
        return timestamp + "/" + valueId;
    }

    /**
     * Decodes one output record of this workload.
     *
     * @param r the record
     * @param echo whether the system under test is the echo (outputs are copies of the rows)
     * @param receivedNanos when it was received
     * @return the observed output, or null when its timestamp is before {@link #baseTimestamp()} (an earlier run's)
     * @throws RuntimeException when it cannot be decoded
     */
    public Observed decode(ConsumerRecord<byte[], byte[]> r, boolean echo, long receivedNanos) {
        if (r.timestamp() < baseTimestamp) {
            return null;
        }
        String key = r.key() == null ? "" : new String(r.key(), StandardCharsets.UTF_8);
        if (echo || workload == BenchWorkload.STATELESS) {
            return new Observed(OutputKind.ROW, key, key, fingerprint(r.value()), receivedNanos);
        }
        String value = new String(r.value(), StandardCharsets.UTF_8);
        if (workload == BenchWorkload.STREAM_STATIC_JOIN) {
            return new Observed(OutputKind.ROW, key, r.timestamp() + "/" + key, value, receivedNanos);
        }
        int space = key.indexOf(' ');
        if (space <= 0) {
            throw new IllegalArgumentException("aggregation output key does not start with '<id> ': " + key);
        }
        return new Observed(
                OutputKind.COUNT,
                fingerprint(r.key()),
                groupIdentity(r.timestamp(), Long.parseLong(key.substring(0, space))),
                value,
                receivedNanos);
    }

    /**
     * The run of this workload against a system under test.
     *
     * @param topics where rows go and outputs come from
     * @param echo whether the system under test is the echo (expects copies of every row)
     * @return the spec
     */
    public RunSpec spec(Topics topics, boolean echo) {
        return new RunSpec() {
            @Override
            public int size() {
                return rows.size();
            }

            @Override
            public long offsetMicros(int i) {
                return rows.get(i).offsetMicros();
            }

            @Override
            public ProducerRecord<byte[], byte[]> record(int i) {
                Row r = rows.get(i);
                return new ProducerRecord<>(topics.input(), null, r.timestamp(), bytes(key(r)), bytes(value(r)));
            }

            @Override
            public List<String> outputTopics() {
                return List.of(topics.output());
            }

            @Override
            public Observed decode(ConsumerRecord<byte[], byte[]> r, long receivedNanos) {
                return LatencyWorkload.this.decode(r, echo, receivedNanos);
            }

            @Override
            public Matcher matcher() {
                if (echo || workload == BenchWorkload.STATELESS) {
                    return new OutputMatcher(expectedCopies());
                }
                return workload == BenchWorkload.STREAM_STATIC_JOIN
                        ? new OutputMatcher(expectedJoinResults())
                        : new CountMatcher(expectedGroups());
            }

            @Override
            public Map<String, Long> oracleCounters() {
                return Map.of();
            }
        };
    }

    /**
     * Describes the workload for the report.
     *
     * @param seed the seed it was generated with
     * @return its description
     */
    public RunDescriptions.RowWorkload describe(long seed) {
        return switch (workload) {
            case STREAM_STATIC_JOIN ->
                new RunDescriptions.RowWorkload(
                        workload.cliName(), seed, rate, rows.size(), idPrefix, LOOKUP_CARDINALITY, null, null);
            case AGGREGATION ->
                new RunDescriptions.RowWorkload(
                        workload.cliName(), seed, rate, rows.size(), idPrefix, null, rowBytes, DUPLICATE_EVERY);
            default ->
                new RunDescriptions.RowWorkload(
                        workload.cliName(), seed, rate, rows.size(), idPrefix, null, rowBytes, null);
        };
    }

    /**
     * A short fingerprint of a value: its length and CRC-32 (values may be a megabyte; the oracle keeps fingerprints).
     *
     * @param bytes the value; null gives {@code "null"}
     * @return {@code <length>:<crc32 hex>}
     */
    static String fingerprint(byte[] bytes) {
        if (bytes == null) {
            return "null";
        }
        CRC32 crc = new CRC32();
        crc.update(bytes);
        return String.format(Locale.ROOT, "%d:%08x", bytes.length, crc.getValue());
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
