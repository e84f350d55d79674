package dev.rtmstreams.processor.avro;

import static dev.rtmstreams.processor.avro.AvroSchemaEvolutionTest.INT;
import static dev.rtmstreams.processor.avro.AvroSchemaEvolutionTest.LONG;
import static dev.rtmstreams.processor.avro.AvroSchemaEvolutionTest.PROFILE_ADDED;
import static dev.rtmstreams.processor.avro.AvroSchemaEvolutionTest.PROFILE_NAME_INT;
import static dev.rtmstreams.processor.avro.AvroSchemaEvolutionTest.PROFILE_V1;
import static dev.rtmstreams.processor.avro.AvroSchemaEvolutionTest.v;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.rtmstreams.processor.StateReader;
import dev.rtmstreams.processor.TransformWithState;
import dev.rtmstreams.processor.errors.InvalidValueSchemaEvolutionException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A restart on the RocksDB files a stopped operator left in its state directory (no changelog replay; the directory
 * outlives each run, unlike TopologyTestDriver's): the evolved declaration reads the rows of the old schema, a refused
 * change fails the init before any record, and the state reader reads the stopped operator's directory.
 */
class AvroLocalStateRestartTest {

    private static final long T0 = AvroHarness.START.toEpochMilli();

    /** Runs {@code tws} over the RocksDB store in {@code stateDir}, one record per pair of {@code rows}, then stops. */
    private static List<String> run(Path stateDir, TransformWithState<String, String, String> tws, String... rows) {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "avro-local");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "dummy:9092");
        MockProcessorContext<String, String> ctx = new MockProcessorContext<>(p, new TaskId(0, 0), stateDir.toFile());
        ctx.setCurrentSystemTimeMs(T0);
        KeyValueStore<Bytes, byte[]> store = Stores.keyValueStoreBuilder(
                        Stores.persistentKeyValueStore(tws.storeName()), Serdes.Bytes(), Serdes.ByteArray())
                .withLoggingDisabled()
                .build();
        store.init(ctx.getStateStoreContext(), store);
        ctx.addStateStore(store);
        try {
            Processor<String, String, String, String> op = tws.get();
            op.init(ctx);
            for (int i = 0; i < rows.length; i += 2) {
                op.process(new Record<>(rows[i], rows[i + 1], T0));
            }
            op.close();
        } finally {
            store.close(); // flushes the memtable (Kafka Streams writes RocksDB without a WAL)
        }
        List<String> out = new ArrayList<>();
        ctx.forwarded().forEach(f -> out.add(f.record().value()));
        return out;
    }

    @Test
    void shouldReadRowsOfTheOldSchemaWhenRestartedOnTheSameStateDirectory(@TempDir Path stateDir) {
        assertThat(run(stateDir, v(PROFILE_V1, INT).operator(), "a", "x", "b", "x"))
                .containsExactly("a profile=null counts={}", "b profile=null counts={}");

        assertThat(run(stateDir, v(PROFILE_ADDED, LONG).operator(), "a", "y"))
                .containsExactly("a profile={\"name\": \"a\", \"visits\": 1, \"tier\": \"basic\"} counts={x=1L}");

        StateReader offline = StateReader.fromRocksDbDirectory(
                        stateDir.resolve("rocksdb").resolve("profiles-state"))
                .withSerde("profile", AvroStateSerde.generic(PROFILE_ADDED));
        assertThat(offline.read("b".getBytes(java.nio.charset.StandardCharsets.UTF_8))
                        .orElseThrow()
                        .variables()
                        .get("profile")
                        .get(0)
                        .value()
                        .toString())
                .isEqualTo("{\"name\": \"b\", \"visits\": 1, \"tier\": \"basic\"}");
    }

    @Test
    void shouldRefuseTheInitWhenTheLocalStateHoldsASchemaTheNewOneCannotRead(@TempDir Path stateDir) {
        run(stateDir, v(PROFILE_V1, INT).operator(), "a", "x");
        Throwable t =
                catchThrowable(() -> run(stateDir, v(PROFILE_NAME_INT, INT).operator(), "a", "y"));
        assertThat(Profiles.rtmCause(t).errorCode()).isEqualTo(InvalidValueSchemaEvolutionException.CODE);
        assertThat(run(stateDir, v(PROFILE_V1, INT).operator(), "a", "z"))
                .as("the refused run changed nothing")
                .containsExactly("a profile={\"name\": \"a\", \"visits\": 1} counts={x=1i}");
    }
}
