package dev.rtmstreams.join.internals;

import dev.rtmstreams.processor.spi.ByteLayout;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;

/**
 * Rows of one join side not yet in its changelog: they go there together, as one changelog record, before the task's
 * next commit (or once the batch is full). The newest of them may not be in the local store yet either
 * ({@link #notLocal}): they are written there together, with one {@code putAll}, before the side is next read. A restore expands the record into the
 * rows ({@link BufferRestorer}). Layout (see {@link Codec}): key {@code [0x03][firstSeq:8]}, value
 * {@code [count:4]} then per row {@code [keyLen:4][row key][valueLen:4][row value]}.
 *
 * <p>Why: a row's changelog record is what the input would be replayed for anyway. Whatever the task committed is in
 * the changelog (the batch is written before each commit, in the same transaction under exactly-once); whatever it
 * did not commit is replayed from the input after a crash. One changelog send per batch instead of one per row.
 */
final class RowBatch {

    /** A batch is written once it holds this many rows. */
    static final int MAX_ROWS = 128;
    /** ... or this many bytes (well below the producer's default {@code max.request.size} of 1 MiB). */
    static final int MAX_BYTES = 64 * 1024;

    private final List<KeyValue<Bytes, byte[]>> rows = new ArrayList<>(MAX_ROWS);
    private int bytes;
    private long firstSeq;
    /** How many of {@link #rows} (the first ones) the local store holds already. */
    private int local;

    /** Adds a row. @return whether the batch is full (and should be written now) */
    boolean add(Bytes rowKey, long seq, byte[] rowValue) {
        if (rows.isEmpty()) {
            firstSeq = seq;
        }
        rows.add(KeyValue.pair(rowKey, rowValue));
        bytes += 8 + rowKey.get().length + rowValue.length;
        return rows.size() >= MAX_ROWS || bytes >= MAX_BYTES;
    }

    boolean isEmpty() {
        return rows.isEmpty();
    }

    /**
     * @return the rows added but not yet in the local store (a view, in insertion order; empty when all are), to be
     *     written there with one {@code putAll} and then {@linkplain #localWritten() marked}
     */
    List<KeyValue<Bytes, byte[]>> notLocal() {
        return rows.subList(local, rows.size());
    }

    /** The rows {@link #notLocal} returned are in the local store now. */
    void localWritten() {
        local = rows.size();
    }

    /**
     * @return the changelog record of the rows added since the last call (the batch is empty afterwards); not empty
     * @throws IllegalStateException when some of the rows are not in the local store yet
     */
    KeyValue<Bytes, byte[]> take() {
        if (local != rows.size()) {
            throw new IllegalStateException(
                    (rows.size() - local) + " rows of the batch are not in the local store yet");
        }
        ByteBuffer b = ByteBuffer.allocate(4 + bytes);
        b.putInt(rows.size());
        for (KeyValue<Bytes, byte[]> row : rows) {
            byte[] k = row.key.get();
            b.putInt(k.length).put(k).putInt(row.value.length).put(row.value);
        }
        KeyValue<Bytes, byte[]> record = KeyValue.pair(key(firstSeq), b.array());
        rows.clear();
        bytes = 0;
        local = 0;
        return record;
    }

    /** @return the key of a batch record: {@code [0x03][firstSeq:8]} */
    static Bytes key(long firstSeq) {
        byte[] k = new byte[9];
        k[0] = Codec.ROW_BATCH;
        ByteLayout.putLong(k, 1, firstSeq);
        return Bytes.wrap(k);
    }

    static boolean isBatchKey(byte[] storeKey) {
        return storeKey.length == 9 && storeKey[0] == Codec.ROW_BATCH;
    }

    /** @return the rows of a batch record's value */
    static List<KeyValue<Bytes, byte[]>> rows(byte[] value) {
        ByteBuffer b = ByteBuffer.wrap(value);
        int n = b.getInt();
        List<KeyValue<Bytes, byte[]>> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            byte[] k = new byte[b.getInt()];
            b.get(k);
            byte[] v = new byte[b.getInt()];
            b.get(v);
            out.add(KeyValue.pair(Bytes.wrap(k), v));
        }
        return out;
    }
}
