package dev.rtmstreams.processor.spi.internals;

import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.query.Query;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * The custom interactive queries (IQv2) an operator store answers from its local entries, beside the queries of the
 * RocksDB or in-memory store it wraps: e.g. {@code transformWithState}'s {@code OperatorStateQuery}, which only an
 * operator that knows its store's layout can answer. Kafka Streams' metered and change-logging layers pass query
 * types they do not know down to the innermost layer, {@link QueryableOperatorStore}, which asks this first.
 */
@FunctionalInterface
public interface StoreQueries {

    /**
     * @param query the query, of any type
     * @param store the operator store's local entries
     * @return the result of {@code query}, or null when {@code query} is not one of these (the wrapped store then
     *     answers it)
     */
    Object answer(Query<?> query, ReadOnlyKeyValueStore<Bytes, byte[]> store);
}
