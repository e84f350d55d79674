package dev.rtmstreams.examples;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.GlobalKTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * "Stream-snapshot join (broadcast only)": each record's value is the join key ({@code joinKey = CAST(value AS
 * STRING)}); it is joined with a static table that fits in memory on {@code joinKey = lookupKey} (inner join), and
 * written as {@code key = value, value = "<value>,<label>"} (the page writes only the value; the label shows the
 * join happened). Two ways to hold the static table, both broadcast (every instance has all of it, no shuffle):
 * <ul>
 *   <li>{@link #topology(String, String, Map)}: loaded once from a CSV file ({@link #readCsv(Path)}) into a map held
 *       by the topology, like {@code broadcast(spark.read...)};</li>
 *   <li>{@link #topologyWithGlobalTable(String, String, String)}: a {@link GlobalKTable} over a compacted topic of
 *       {@code lookupKey -> label} records, which every instance reads in full (and keeps up to date).</li>
 * </ul>
 */
public final class StreamStaticJoinExample {

    /** Name of the global table's store. */
    public static final String TABLE_STORE = "static-table";

    private StreamStaticJoinExample() {}

    /**
     * @param input input topic
     * @param output output topic
     * @param table lookupKey to label; copied
     * @return the topology
     */
    public static Topology topology(String input, String output, Map<String, String> table) {
        Map<String, String> lookup = Map.copyOf(table);
        StreamsBuilder b = new StreamsBuilder();
        b.stream(input, Consumed.with(Serdes.String(), Serdes.String()))
                .filter((k, v) -> v != null && lookup.containsKey(v), Named.as("join-static-table"))
                .map((k, v) -> KeyValue.pair(v, v + "," + lookup.get(v)), Named.as("select"))
                .to(output, Produced.with(Serdes.String(), Serdes.String()));
        return b.build();
    }

    /**
     * @param input input topic
     * @param output output topic
     * @param tableTopic compacted topic of {@code lookupKey -> label}
     * @return the topology
     */
    public static Topology topologyWithGlobalTable(String input, String output, String tableTopic) {
        StreamsBuilder b = new StreamsBuilder();
        GlobalKTable<String, String> table = b.globalTable(
                tableTopic,
                Consumed.with(Serdes.String(), Serdes.String()),
                Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as(TABLE_STORE)
                        .withKeySerde(Serdes.String())
                        .withValueSerde(Serdes.String()));
        b.stream(input, Consumed.with(Serdes.String(), Serdes.String()))
                .filter((k, v) -> v != null, Named.as("has-join-key"))
                .selectKey((k, v) -> v, Named.as("select")) // a GlobalKTable join never repartitions
                .join(table, (joinKey, v) -> joinKey, (v, label) -> v + "," + label, Named.as("join-global-table"))
                .to(output, Produced.with(Serdes.String(), Serdes.String()));
        return b.build();
    }

    /**
     * Reads a static table from a CSV file: a header line whose first column is {@code lookupKey}, then one
     * {@code lookupKey,label} line per row (the label is the rest of the line, commas included). Blank lines are
     * skipped; a later duplicate key wins.
     *
     * @param file the CSV file
     * @return lookupKey to label, in file order
     * @throws IOException when the file cannot be read
     * @throws IllegalArgumentException when the header or a line is malformed, naming the file and line number
     */
    public static Map<String, String> readCsv(Path file) throws IOException {
        Objects.requireNonNull(file, "file");
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        if (lines.isEmpty() || !lines.get(0).strip().startsWith("lookupKey")) {
            throw new IllegalArgumentException(file + ":1: the header must start with 'lookupKey': "
                    + (lines.isEmpty() ? "<empty file>" : lines.get(0)));
        }
        Map<String, String> table = new LinkedHashMap<>();
        for (int i = 1; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty()) {
                continue;
            }
            int comma = line.indexOf(',');
            if (comma <= 0) {
                throw new IllegalArgumentException(
                        file + ":" + (i + 1) + ": expected 'lookupKey,label' with a non-empty key: " + line);
            }
            table.put(line.substring(0, comma), line.substring(comma + 1));
        }
        return table;
    }
}
