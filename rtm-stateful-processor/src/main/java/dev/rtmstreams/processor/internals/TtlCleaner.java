package dev.rtmstreams.processor.internals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Bounded incremental TTL cleanup (after Spark's TTL secondary index): walks the expiry-ordered index
 * {@code [TTL][expiry][primary key]} up to now, at most {@code batch} entries per pass, and has each state variable
 * physically remove what expired. Index entries made stale by later writes are just dropped. Expired values are
 * invisible to reads before this runs; cleanup only bounds storage.
 */
final class TtlCleaner {

    private final KeyContext keys;
    private final KeyValueStore<Bytes, byte[]> store;
    private final int batch;

    /**
     * @param keys the operator's key context: its store holds the index, and {@link KeyContext#ttlScanFrom} bounds the
     *     scan from below (entries are removed in expiry order, and RocksDB would otherwise step over the tombstones
     *     of every entry removed so far on each pass)
     * @param batch the most index entries one pass handles
     */
    TtlCleaner(KeyContext keys, int batch) {
        this.keys = keys;
        this.store = keys.store;
        this.batch = batch;
    }

    /**
     * @param now processing time
     * @param variables the declared state variables by name
     * @return how many values, list elements or map entries were removed
     */
    int cleanup(long now, Map<String, StateVariable> variables) {
        List<byte[]> index = new ArrayList<>();
        boolean complete;
        try (KeyValueIterator<Bytes, byte[]> it = store.range(
                Bytes.wrap(Layout.timeSectionStart(Layout.TTL, keys.ttlScanFrom)),
                Bytes.wrap(Layout.timeSectionEnd(Layout.TTL, now)))) {
            while (it.hasNext() && index.size() < batch) {
                byte[] k = it.next().key.get();
                if (Layout.timeOf(k) <= now) {
                    index.add(k);
                }
            }
            complete = !it.hasNext();
        }
        int removed = 0;
        for (byte[] k : index) {
            byte[] primary = Layout.suffixOfTimeKey(k);
            StateVariable var = variables.get(Layout.stateNameOf(primary, 0));
            if (var != null) {
                removed += var.removeExpired(primary, now);
            }
            store.delete(Bytes.wrap(k));
        }
        // what stays indexed expires after now (a complete pass) or at the last handled expiry or later; entries
        // written meanwhile lower the bound in KeyContext#indexTtl
        long from = complete
                ? (now == Long.MAX_VALUE ? now : now + 1)
                : index.isEmpty() ? keys.ttlScanFrom : Layout.timeOf(index.get(index.size() - 1));
        keys.ttlScanFrom = Math.max(keys.ttlScanFrom, from);
        return removed;
    }
}
