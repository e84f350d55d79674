package dev.rtmstreams.processor;

import java.util.List;
import org.apache.kafka.common.annotation.InterfaceStability;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.query.Query;

/**
 * A custom interactive query (IQv2) on a {@link TransformWithState} operator's store: returns the raw store entries
 * of one grouping key (every state variable, pending timers) or of all keys, together with the operator's metadata.
 * Decode the result with {@link StateReader#ofEntries}; or let {@link StateReader#query} do both.
 *
 * <pre>{@code
 * StateQueryResult<List<KeyValue<Bytes, byte[]>>> r = streams.query(
 *         StateQueryRequest.inStore(tws.storeName()).withQuery(OperatorStateQuery.forKey(keyBytes)));
 * }</pre>
 */
@InterfaceStability.Evolving
public final class OperatorStateQuery implements Query<List<KeyValue<Bytes, byte[]>>> {

    private final byte[] groupingKey;

    private OperatorStateQuery(byte[] groupingKey) {
        this.groupingKey = groupingKey;
    }

    /** @param groupingKey the grouping key, serialized with the operator's key serde */
    public static OperatorStateQuery forKey(byte[] groupingKey) {
        return new OperatorStateQuery(
                java.util.Objects.requireNonNull(groupingKey, "groupingKey").clone());
    }

    /** @return a query for every key's state (the whole operator store, without buffers and indexes) */
    public static OperatorStateQuery allKeys() {
        return new OperatorStateQuery(null);
    }

    /** @return the serialized grouping key, or null for all keys */
    public byte[] groupingKey() {
        return groupingKey == null ? null : groupingKey.clone();
    }
}
