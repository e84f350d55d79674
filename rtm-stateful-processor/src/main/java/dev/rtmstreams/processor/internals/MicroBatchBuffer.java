package dev.rtmstreams.processor.internals;

import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The persisted input buffer of the micro-batch contract: rows in arrival order under {@code [BUFFER][seq]}, read
 * as a whole by a batch and deleted only after the batch ran (at-least-once across a crash).
 */
final class MicroBatchBuffer {

    private final KeyValueStore<Bytes, byte[]> store;
    private long nextSeq;
    /**
     * Whether a row may be waiting: set when one is appended, and at start (the buffer may hold restored rows);
     * cleared by {@link #read}.
     */
    private boolean mayHoldRows = true;

    MicroBatchBuffer(KeyValueStore<Bytes, byte[]> store) {
        this.store = store;
    }

    /** Continues the sequence after the restored rows. */
    void load() {
        try (KeyValueIterator<Bytes, byte[]> it = store.reverseRange(
                Bytes.wrap(Layout.bufferKey(Long.MIN_VALUE)), Bytes.wrap(Layout.bufferKey(Long.MAX_VALUE)))) {
            nextSeq = it.hasNext() ? Layout.timeOf(it.next().key.get()) + 1 : 0L;
        }
    }

    /** Appends a row (serialized key and value, null value allowed) with its record timestamp and headers. */
    void append(byte[] key, long timestamp, byte[] value, Headers headers) {
        store.put(Bytes.wrap(Layout.bufferKey(nextSeq++)), Layout.encodeBufferEntry(key, timestamp, value, headers));
        mayHoldRows = true;
    }

    /** @return false when no row can be waiting, so a batch may skip the scan */
    boolean mayHoldRows() {
        return mayHoldRows;
    }

    /** @return every buffered row with its buffer key, in arrival order */
    List<KeyValue<Bytes, Layout.BufferEntry>> read() {
        mayHoldRows = false;
        List<KeyValue<Bytes, Layout.BufferEntry>> rows = new ArrayList<>();
        try (KeyValueIterator<Bytes, byte[]> it = store.range(
                Bytes.wrap(Layout.bufferKey(Long.MIN_VALUE)), Bytes.wrap(Layout.bufferKey(Long.MAX_VALUE)))) {
            while (it.hasNext()) {
                KeyValue<Bytes, byte[]> kv = it.next();
                rows.add(KeyValue.pair(kv.key, Layout.decodeBufferEntry(kv.value)));
            }
        }
        return rows;
    }

    /** Deletes the rows a batch consumed. */
    void delete(List<KeyValue<Bytes, Layout.BufferEntry>> rows) {
        for (KeyValue<Bytes, Layout.BufferEntry> r : rows) {
            store.delete(r.key);
        }
    }
}
