package dev.rtmstreams.processor.spi.internals;

import java.util.Collection;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.StateRestoreCallback;
import org.apache.kafka.streams.processor.internals.RecordBatchingStateRestoreCallback;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The restore callback a wrapped store registers, around a {@link RestoreHook}: each batch is rewritten by the
 * observer, written by the store's own callback (batched when it restores in batches, as RocksDB does; record by
 * record otherwise, as Kafka Streams' adapter would), then shown to the observer.
 */
final class RestoringCallback implements RecordBatchingStateRestoreCallback {

    private final StateRestoreCallback inner;
    private final KeyValueStore<Bytes, byte[]> store;
    private final RestoreHook observer;

    RestoringCallback(StateRestoreCallback inner, KeyValueStore<Bytes, byte[]> store, RestoreHook observer) {
        this.inner = inner;
        this.store = store;
        this.observer = observer;
    }

    @Override
    public void restoreBatch(Collection<ConsumerRecord<byte[], byte[]>> changelogRecords) {
        Collection<ConsumerRecord<byte[], byte[]>> records = observer.rewrite(changelogRecords);
        if (inner instanceof RecordBatchingStateRestoreCallback batching) {
            batching.restoreBatch(records);
        } else {
            for (ConsumerRecord<byte[], byte[]> r : records) {
                inner.restore(r.key(), r.value());
            }
        }
        observer.restored(store, records);
    }
}
