package dev.rtmstreams.join.internals;

import java.util.NoSuchElementException;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The rows of one key with event times in {@code [from, to]} in a buffer of segmented row keys
 * ({@link Codec#segmentRowKey}): one range per time segment that may hold the key, oldest segment first (so in time
 * order), each opened only when the previous one is exhausted. A segment the key filter rules out is not opened.
 */
final class SegmentedRows implements KeyValueIterator<Bytes, byte[]> {

    private final KeyValueStore<Bytes, byte[]> store;
    private final byte[] key;
    private final long from;
    private final long to;
    private final long segmentMs;
    private final long lastSegment;
    private final BufferKeyFilter keys;
    private final long keyHash;
    /** The next segment to open; past {@link #lastSegment} when none is left. */
    private long nextSegment;

    private boolean segmentsLeft;
    private KeyValueIterator<Bytes, byte[]> current;

    /**
     * @param firstSegment the start of the first segment to read
     * @param lastSegment the start of the last segment to read
     * @param keys the side's key filter, or null to open every segment
     */
    SegmentedRows(
            KeyValueStore<Bytes, byte[]> store,
            byte[] key,
            long from,
            long to,
            long segmentMs,
            long firstSegment,
            long lastSegment,
            BufferKeyFilter keys) {
        this.store = store;
        this.key = key;
        this.from = from;
        this.to = to;
        this.segmentMs = segmentMs;
        this.lastSegment = lastSegment;
        this.keys = keys;
        this.keyHash = keys == null ? 0 : BufferKeyFilter.hash(key);
        this.nextSegment = firstSegment;
        this.segmentsLeft = firstSegment <= lastSegment;
    }

    @Override
    public boolean hasNext() {
        while (current == null || !current.hasNext()) {
            if (current != null) {
                current.close();
                current = null;
            }
            if (!segmentsLeft) {
                return false;
            }
            long segment = nextSegment;
            long segmentEnd = Codec.saturatedAdd(segment, segmentMs - 1);
            if (segment >= lastSegment) {
                segmentsLeft = false;
            } else {
                nextSegment = segment + segmentMs;
            }
            long lo = Math.max(from, segment);
            long hi = Math.min(to, segmentEnd);
            if (lo <= hi && (keys == null || keys.mightContain(keyHash, lo, hi))) {
                current = store.range(
                        Codec.segmentRowKey(segment, key, lo, 0L), Codec.segmentRowKey(segment, key, hi, -1L));
            }
        }
        return true;
    }

    @Override
    public KeyValue<Bytes, byte[]> next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        return current.next();
    }

    @Override
    public Bytes peekNextKey() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        return current.peekNextKey();
    }

    @Override
    public void close() {
        if (current != null) {
            current.close();
            current = null;
        }
        segmentsLeft = false;
    }
}
