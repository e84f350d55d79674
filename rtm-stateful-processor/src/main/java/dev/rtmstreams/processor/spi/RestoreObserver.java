package dev.rtmstreams.processor.spi;

import java.util.Collection;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.annotation.InterfaceStability;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Sees every batch of changelog records written into an operator store while Kafka Streams restores it: the restore
 * of an active task before it processes, and the continuous updates of a standby task. An operator whose changelog
 * does not carry every deletion (rows dropped locally once a persisted marker proves them obsolete, the way Kafka
 * Streams' segmented window stores drop whole segments) uses it to apply those deletions to a restoring or standby
 * copy, so that the copy stays as small as the live store.
 *
 * <p>Called on the thread that restores the store: {@link #rewrite} before a batch is written (an operator that
 * writes several entries as one changelog record expands it there, so that the entries are applied in changelog
 * order), {@link #restored} after. Writes through {@code store} go to the local store only (never to the
 * changelog).
 *
 * @see OperatorStores#keyValue(String, dev.rtmstreams.processor.StoreBackend, java.util.Map, java.util.function.Supplier)
 */
@FunctionalInterface
@InterfaceStability.Unstable
public interface RestoreObserver {

    /**
     * @param batch changelog records about to be written into the store, in changelog order; not null
     * @return the records to write instead, in the order to write them (by default {@code batch} itself)
     */
    default Collection<ConsumerRecord<byte[], byte[]>> rewrite(Collection<ConsumerRecord<byte[], byte[]>> batch) {
        return batch;
    }

    /**
     * @param store the store being restored, below its change-logging layer; not null
     * @param batch the records just written into it ({@link #rewrite}'s result), in order; not null
     */
    void restored(KeyValueStore<Bytes, byte[]> store, Collection<ConsumerRecord<byte[], byte[]>> batch);
}
