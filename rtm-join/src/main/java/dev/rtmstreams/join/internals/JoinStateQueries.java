package dev.rtmstreams.join.internals;

import dev.rtmstreams.join.EvictionIndex;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.query.FailureReason;
import org.apache.kafka.streams.query.KeyQuery;
import org.apache.kafka.streams.query.Query;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.query.RangeQuery;
import org.apache.kafka.streams.query.StateQueryRequest;
import org.apache.kafka.streams.query.StateQueryResult;
import org.apache.kafka.streams.state.KeyValueIterator;

/**
 * Reads one key's join state from a running application through interactive queries (IQv2), on the active task that
 * owns the key: Kafka Streams' own {@link RangeQuery} and {@link KeyQuery} on the join's stores, which the operator
 * stores' innermost layer passes to the RocksDB or in-memory store. Per side: the key's rows (one range) and the
 * eviction marker; the meta record; each side's newest row (the first entry of a descending range over the side's
 * local time index). The queries are not one atomic snapshot: a record processed between them may show in some.
 */
public final class JoinStateQueries {

    private JoinStateQueries() {}

    /**
     * What the queries returned.
     *
     * @param partition the partition (task) that owns the key; null when not known (see {@link #query})
     * @param local whether an active task of this instance owns it (else everything below is empty)
     * @param left the left buffer's entries for the key, and its marker
     * @param right the right buffer's entries for the key, and its marker
     * @param meta the meta record; null when there is none
     * @param leftNewest the newest left row's event time, or {@link JoinStateScan#NONE}
     * @param rightNewest the newest right row's event time, or {@link JoinStateScan#NONE}
     */
    public record Snapshot(
            Integer partition,
            boolean local,
            NavigableMap<Bytes, byte[]> left,
            NavigableMap<Bytes, byte[]> right,
            byte[] meta,
            long leftNewest,
            long rightNewest) {}

    /**
     * @param streams a running application
     * @param spec the join
     * @param key the serialized join key
     * @return the key's state on this instance. The owner of the key is found from Kafka Streams' metadata when the
     *     application sets {@code application.server}; otherwise it is the active task of this instance whose
     *     buffers hold rows of the key, and a key without rows here is reported as not local, without partition
     * @throws IllegalStateException when a query fails for another reason than the task not being here
     */
    public static Snapshot query(KafkaStreams streams, JoinSpec<?, ?, ?> spec, byte[] key) {
        Integer partition = owner(streams, spec, key);
        if (partition == null) {
            return new Snapshot(
                    null, false, new TreeMap<>(), new TreeMap<>(), null, JoinStateScan.NONE, JoinStateScan.NONE);
        }
        NavigableMap<Bytes, byte[]> left = new TreeMap<>();
        NavigableMap<Bytes, byte[]> right = new TreeMap<>();
        QueryResult<KeyValueIterator<Bytes, byte[]>> leftRows =
                query(streams, spec.leftBufferStore(), partition, rowsOf(spec, key));
        if (leftRows == null) { // another instance's now
            return new Snapshot(partition, false, left, right, null, JoinStateScan.NONE, JoinStateScan.NONE);
        }
        drainRows(leftRows, key, left);
        drainRows(require(query(streams, spec.rightBufferStore(), partition, rowsOf(spec, key))), key, right);
        putMarker(streams, spec.leftBufferStore(), partition, left);
        putMarker(streams, spec.rightBufferStore(), partition, right);
        byte[] meta = require(query(
                        streams, spec.metaStore(), partition, KeyQuery.<Bytes, byte[]>withKey(JoinStateScan.metaKey())))
                .getResult();
        return new Snapshot(
                partition,
                true,
                left,
                right,
                meta,
                newest(streams, spec, true, partition, left.get(JoinStateScan.markerKey())),
                newest(streams, spec, false, partition, right.get(JoinStateScan.markerKey())));
    }

    /**
     * @return the partition that owns {@code key}: from Kafka Streams' metadata when the application sets
     *     {@code application.server}; else the one active task of this instance whose buffers hold rows of the key;
     *     null when the key has no rows on this instance
     */
    private static Integer owner(KafkaStreams streams, JoinSpec<?, ?, ?> spec, byte[] key) {
        KeyQueryMetadata owner = streams.queryMetadataForKey(
                spec.leftBufferStore(), key, Serdes.ByteArray().serializer());
        if (owner != null && !owner.equals(KeyQueryMetadata.NOT_AVAILABLE)) {
            return owner.partition();
        }
        for (String store : List.of(spec.leftBufferStore(), spec.rightBufferStore())) {
            StateQueryResult<KeyValueIterator<Bytes, byte[]>> all = streams.query(StateQueryRequest.inStore(store)
                    .withQuery(rowsOf(spec, key))
                    .requireActive());
            Integer found = null;
            for (Map.Entry<Integer, QueryResult<KeyValueIterator<Bytes, byte[]>>> e :
                    all.getPartitionResults().entrySet()) {
                QueryResult<KeyValueIterator<Bytes, byte[]>> r = e.getValue();
                if (r.isSuccess()) {
                    NavigableMap<Bytes, byte[]> rows = new TreeMap<>();
                    drainRows(r, key, rows);
                    if (found == null && !rows.isEmpty()) {
                        found = e.getKey();
                    }
                }
            }
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    /**
     * @return the range holding the rows of {@code key}: one range of the key with plain row keys; with
     *     {@link EvictionIndex#SEGMENTS} the key's rows are spread over the time segments, so every row (filtered by
     *     {@link #drainRows})
     */
    private static RangeQuery<Bytes, byte[]> rowsOf(JoinSpec<?, ?, ?> spec, byte[] key) {
        return spec.evictionIndex() == EvictionIndex.SEGMENTS
                ? RangeQuery.withRange(JoinStateScan.allRowsFrom(), JoinStateScan.allRowsTo())
                : RangeQuery.withRange(JoinStateScan.rowsFrom(key), JoinStateScan.rowsTo(key));
    }

    /** Drains {@code result} into {@code into}, keeping only the rows of {@code key}. */
    private static void drainRows(
            QueryResult<KeyValueIterator<Bytes, byte[]>> result, byte[] key, NavigableMap<Bytes, byte[]> into) {
        try (KeyValueIterator<Bytes, byte[]> it = result.getResult()) {
            while (it.hasNext()) {
                KeyValue<Bytes, byte[]> kv = it.next();
                if (JoinStateScan.isRowOf(kv.key.get(), key)) {
                    into.put(kv.key, kv.value);
                }
            }
        }
    }

    private static void putMarker(KafkaStreams streams, String store, int partition, NavigableMap<Bytes, byte[]> into) {
        byte[] marker = require(
                        query(streams, store, partition, KeyQuery.<Bytes, byte[]>withKey(JoinStateScan.markerKey())))
                .getResult();
        if (marker != null) {
            into.put(JoinStateScan.markerKey(), marker);
        }
    }

    /**
     * @return the newest buffered event time of a side: the first entry in descending order of its time index store
     *     ({@link dev.rtmstreams.join.EvictionIndex#STATE_STORE}); else one scan of its rows (the heap index cannot
     *     be queried), as {@link JoinStateScan#newest} reads a copy
     * @param marker the side's eviction marker value, as already read for the snapshot; null for none
     */
    private static long newest(
            KafkaStreams streams, JoinSpec<?, ?, ?> spec, boolean left, int partition, byte[] marker) {
        if (spec.evictionIndex() != EvictionIndex.STATE_STORE) {
            String buffer = left ? spec.leftBufferStore() : spec.rightBufferStore();
            return JoinStateScan.newest(
                    require(query(
                                    streams,
                                    buffer,
                                    partition,
                                    RangeQuery.<Bytes, byte[]>withRange(
                                            JoinStateScan.allRowsFrom(), JoinStateScan.allRowsTo())))
                            .getResult(),
                    JoinStateScan.markerTime(marker));
        }
        String indexStore = left ? spec.leftIndexStore() : spec.rightIndexStore();
        NavigableMap<Bytes, byte[]> first = new TreeMap<>();
        drain(
                require(query(
                        streams,
                        indexStore,
                        partition,
                        RangeQuery.<Bytes, byte[]>withRange(JoinStateScan.indexFrom(), JoinStateScan.indexTo())
                                .withDescendingKeys())),
                first,
                true);
        return first.isEmpty()
                ? JoinStateScan.NONE
                : JoinStateScan.indexTime(first.firstKey().get());
    }

    private static void drain(
            QueryResult<KeyValueIterator<Bytes, byte[]>> result, NavigableMap<Bytes, byte[]> into, boolean firstOnly) {
        try (KeyValueIterator<Bytes, byte[]> it = result.getResult()) {
            while (it.hasNext()) {
                KeyValue<Bytes, byte[]> kv = it.next();
                into.put(kv.key, kv.value);
                if (firstOnly) {
                    return;
                }
            }
        }
    }

    /** @return the partition's result; null when no active task of this instance holds the partition */
    private static <R> QueryResult<R> query(KafkaStreams streams, String store, int partition, Query<R> query) {
        QueryResult<R> r = streams.query(StateQueryRequest.inStore(store)
                        .withQuery(query)
                        .withPartitions(Set.of(partition))
                        .requireActive())
                .getPartitionResults()
                .get(partition);
        if (r == null
                || (r.isFailure()
                        && (r.getFailureReason() == FailureReason.NOT_PRESENT
                                || r.getFailureReason() == FailureReason.NOT_ACTIVE))) {
            return null;
        }
        if (r.isFailure()) {
            throw new IllegalStateException("state query on " + store + " (partition " + partition + ") failed: "
                    + r.getFailureReason() + ": " + r.getFailureMessage());
        }
        return r;
    }

    private static <R> QueryResult<R> require(QueryResult<R> r) {
        if (r == null) {
            throw new IllegalStateException("the task holding the key moved away while it was read");
        }
        return r;
    }
}
