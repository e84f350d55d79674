package dev.rtmstreams.join.internals;

import dev.rtmstreams.processor.spi.ByteLayout;
import dev.rtmstreams.processor.spi.RestoreObserver;
import dev.rtmstreams.processor.spi.StoreWriteBatch;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Turns what a join side's buffer changelog holds into the buffer it stands for, in a restoring or standby copy of
 * the store: expands each {@link RowBatch} record into its rows before they are written (so that a later change of a
 * row, e.g. its matched flag, is applied after it), and deletes evicted rows.
 *
 * <p>Evictions: the join evicts rows without a
 * changelog tombstone and persists instead, once per eviction pass, an eviction marker (every row at or below its time
 * is gone, {@link Codec}); so a copy that follows the changelog keeps evicted rows until something deletes them. This
 * observer does, incrementally: after each restored batch of {@code n} records it sweeps at most {@code 64 + 4n} row
 * keys onward from where the last sweep stopped (wrapping around at the end), deleting the rows at or below the
 * newest marker seen. The sweep's cost is thus proportional to the changelog traffic (like applying tombstones would
 * be), and a standby holds a row at most one full sweep after its marker.
 *
 * <p>One instance per store instance (task); called on the restoring thread only.
 */
final class BufferRestorer implements RestoreObserver {

    private static final int BATCH = 1_000;
    private static final byte[] MARKER_KEY = Codec.evictionMarkerKey().get();

    private long marker = Codec.NONE;
    private boolean markerRead;
    /** The first key of the next sweep; null: the start of the rows. */
    private Bytes cursor;

    /** Expands each row batch record into one record per row, where the batch stood in the changelog. */
    @Override
    public Collection<ConsumerRecord<byte[], byte[]>> rewrite(Collection<ConsumerRecord<byte[], byte[]>> batch) {
        List<ConsumerRecord<byte[], byte[]>> out = null;
        int i = 0;
        for (ConsumerRecord<byte[], byte[]> r : batch) {
            if (r.value() != null && RowBatch.isBatchKey(r.key())) {
                if (out == null) {
                    out = new ArrayList<>(batch.size() + RowBatch.MAX_ROWS);
                    out.addAll(batch.stream().limit(i).toList());
                }
                for (KeyValue<Bytes, byte[]> row : RowBatch.rows(r.value())) {
                    out.add(new ConsumerRecord<>(
                            r.topic(),
                            r.partition(),
                            r.offset(),
                            r.timestamp(),
                            r.timestampType(),
                            row.key.get().length,
                            row.value.length,
                            row.key.get(),
                            row.value,
                            r.headers(),
                            r.leaderEpoch()));
                }
            } else if (out != null) {
                out.add(r);
            }
            i++;
        }
        return out == null ? batch : out;
    }

    @Override
    public void restored(KeyValueStore<Bytes, byte[]> store, Collection<ConsumerRecord<byte[], byte[]>> batch) {
        if (!markerRead) {
            marker = marker(store); // a persistent store may hold a marker from before this restore
            markerRead = true;
        }
        for (ConsumerRecord<byte[], byte[]> r : batch) {
            if (r.value() == null) {
                continue;
            }
            if (Arrays.equals(r.key(), MARKER_KEY)) {
                marker = Math.max(marker, ByteLayout.getLong(r.value(), 0));
            }
        }
        if (marker == Codec.NONE) {
            return;
        }
        sweep(store, 64 + 4 * batch.size());
    }

    /** Visits at most {@code budget} row keys from the cursor on, deleting those at or below the marker. */
    void sweep(KeyValueStore<Bytes, byte[]> store, int budget) {
        StoreWriteBatch deletes = new StoreWriteBatch(store, BATCH);
        Bytes next = null;
        try (KeyValueIterator<Bytes, byte[]> it =
                store.range(cursor == null ? Codec.rowsStart() : cursor, Codec.rowsEnd())) {
            int visited = 0;
            while (it.hasNext()) {
                if (visited++ == budget) {
                    next = it.peekNextKey();
                    break;
                }
                Bytes key = it.next().key;
                if (Codec.isRowKey(key.get()) && Codec.bufferKeyTime(key.get()) <= marker) {
                    deletes.put(key, null);
                }
            }
        }
        deletes.flush();
        cursor = next;
    }

    /**
     * @param buffer a side's buffer store
     * @return its eviction marker: every row at or below it has been evicted; {@link Codec#NONE} when there is none
     */
    static long marker(KeyValueStore<Bytes, byte[]> buffer) {
        byte[] v = buffer.get(Codec.evictionMarkerKey());
        return v == null ? Codec.NONE : ByteLayout.getLong(v, 0);
    }
}
