package dev.rtmstreams.join.internals;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.processor.spi.ByteLayout;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;

/**
 * The sweeper against a model: a restored buffer store receives rows (always above the newest marker, as the join
 * guarantees) and markers in random batches; at every step no row above the newest marker is gone, and once the sweep
 * has gone round, exactly the rows above it are left.
 */
class BufferRestorerTest {

    private static KeyValueStore<Bytes, byte[]> store() {
        KeyValueStore<Bytes, byte[]> store =
                Stores.inMemoryKeyValueStore("buffer").get();
        store.init(new MockProcessorContext<>().getStateStoreContext(), store);
        return store;
    }

    private static TreeMap<Bytes, Long> rows(KeyValueStore<Bytes, byte[]> store) {
        TreeMap<Bytes, Long> rows = new TreeMap<>();
        try (KeyValueIterator<Bytes, byte[]> it = store.range(Codec.rowsStart(), Codec.rowsEnd())) {
            while (it.hasNext()) {
                Bytes k = it.next().key;
                if (Codec.isRowKey(k.get())) { // the range also holds the eviction marker
                    rows.put(k, Codec.bufferKeyTime(k.get()));
                }
            }
        }
        return rows;
    }

    @Test
    void shouldDeleteExactlyTheRowsAtOrBelowTheNewestMarkerWhenRestoredInRandomBatches() {
        for (int seed = 0; seed < 50; seed++) {
            Random random = new Random(seed);
            KeyValueStore<Bytes, byte[]> store = store();
            BufferRestorer sweeper = new BufferRestorer();
            TreeMap<Bytes, Long> model = new TreeMap<>();
            long marker = Codec.NONE;
            long seq = 0;
            for (int step = 0; step < 40; step++) {
                List<ConsumerRecord<byte[], byte[]>> batch = new ArrayList<>();
                int n = random.nextInt(30);
                for (int i = 0; i < n; i++) {
                    long floor = marker == Codec.NONE ? 0 : marker + 1;
                    long t = floor + random.nextInt(200);
                    byte[] key = ("k" + random.nextInt(20)).getBytes(StandardCharsets.UTF_8);
                    Bytes rowKey = Codec.bufferKey(key, t, seq++);
                    byte[] value = Codec.bufferValue((byte) 0, t, new byte[] {1});
                    store.put(rowKey, value);
                    model.put(rowKey, t);
                    batch.add(new ConsumerRecord<>("changelog", 0, seq, rowKey.get(), value));
                }
                if (random.nextInt(3) == 0) {
                    long next = (marker == Codec.NONE ? 0 : marker) + random.nextInt(100);
                    if (next > marker) {
                        marker = next;
                        byte[] value = ByteLayout.longValue(marker);
                        store.put(Codec.evictionMarkerKey(), value);
                        batch.add(new ConsumerRecord<>(
                                "changelog", 0, seq++, Codec.evictionMarkerKey().get(), value));
                    }
                }
                sweeper.restored(store, batch);
                long m = marker;
                TreeMap<Bytes, Long> live = new TreeMap<>(model);
                live.values().removeIf(t -> t <= m);
                assertThat(rows(store)).as("seed %d step %d", seed, step).containsAllEntriesOf(live);
            }
            for (int i = 0; i < 1 + model.size() / 64; i++) {
                sweeper.restored(store, List.of()); // one full round of the sweep
            }
            long m = marker;
            model.values().removeIf(t -> t <= m);
            assertThat(rows(store)).as("seed %d", seed).isEqualTo(model);
        }
    }

    @Test
    void shouldTakeTheMarkerFromTheStoreWhenARestoreResumesWithoutOne() {
        KeyValueStore<Bytes, byte[]> store = store();
        byte[] key = "k".getBytes(StandardCharsets.UTF_8);
        store.put(Codec.bufferKey(key, 5, 0), Codec.bufferValue((byte) 0, 5, new byte[0]));
        store.put(Codec.bufferKey(key, 15, 1), Codec.bufferValue((byte) 0, 15, new byte[0]));
        store.put(Codec.evictionMarkerKey(), ByteLayout.longValue(10));

        new BufferRestorer().restored(store, List.of());

        assertThat(rows(store).values()).containsExactly(15L);
    }

    @Test
    void shouldExpandARowBatchIntoItsRowsWhenRestored() {
        KeyValueStore<Bytes, byte[]> store = store();
        byte[] key = "k".getBytes(StandardCharsets.UTF_8);
        RowBatch batch = new RowBatch();
        batch.add(Codec.bufferKey(key, 5, 7), 7, Codec.bufferValue((byte) 0, 5, new byte[] {1}));
        batch.add(Codec.bufferKey(key, 6, 8), 8, Codec.bufferValue((byte) 0, 6, new byte[] {2}));
        batch.localWritten(); // the join writes the rows locally before their changelog record
        org.apache.kafka.streams.KeyValue<Bytes, byte[]> record = batch.take();
        byte[] matched = Codec.bufferValue(Codec.MATCHED, 5, new byte[] {1});
        List<ConsumerRecord<byte[], byte[]>> changelog = List.of(
                new ConsumerRecord<>("changelog", 0, 0L, record.key.get(), record.value),
                new ConsumerRecord<>(
                        "changelog", 0, 1L, Codec.bufferKey(key, 5, 7).get(), matched));

        BufferRestorer restorer = new BufferRestorer();
        List<ConsumerRecord<byte[], byte[]>> rewritten = List.copyOf(restorer.rewrite(changelog));
        for (ConsumerRecord<byte[], byte[]> r : rewritten) {
            store.put(Bytes.wrap(r.key()), r.value()); // as the restore callback writes them
        }
        restorer.restored(store, rewritten);

        // the rows in changelog order: the batch's two, then the later change of the first (its matched flag)
        assertThat(rewritten).extracting(ConsumerRecord::offset).containsExactly(0L, 0L, 1L);
        assertThat(rows(store).values()).containsExactly(5L, 6L);
        assertThat(store.get(Codec.bufferKey(key, 5, 7))).isEqualTo(matched);
        assertThat(store.get(Codec.bufferKey(key, 6, 8))).isEqualTo(Codec.bufferValue((byte) 0, 6, new byte[] {2}));
        assertThat(store.get(record.key)).isNull();
        assertThat(batch.isEmpty()).isTrue();
    }
}
