package dev.rtmstreams.processor.internals;

import dev.rtmstreams.processor.spi.TimeSection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Bounded incremental TTL cleanup (after Spark's TTL secondary index): walks the expiry-ordered index
 * {@code [TTL][expiry][primary key]} up to now, at most {@code batch} entries per pass, and has each state variable
 * physically remove what expired. Index entries made stale by later writes are just dropped. Expired values are
 * invisible to reads before this runs; cleanup only bounds storage. The scan is the operator shell's
 * {@link TimeSection} (the one the timers and the interval join's store-backed time index use).
 */
final class TtlCleaner {

    private final KeyContext keys;
    private final KeyValueStore<Bytes, byte[]> store;
    private final int batch;

    /**
     * @param keys the operator's key context: its store holds the index, and {@link KeyContext#ttl} bounds the scan
     *     from below (entries are removed in expiry order, and RocksDB would otherwise step over the tombstones of
     *     every entry removed so far on each pass)
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
        TimeSection.Pass pass = keys.ttl.scan(now, false, batch, k -> index.add(k.get()));
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
        // written meanwhile (KeyContext#indexTtl) keep the bound at or below their expiry
        keys.ttl.passed(pass);
        return removed;
    }
}
