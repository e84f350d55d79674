package dev.rtmstreams.processor.spi.internals;

import java.util.Collection;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * What the operator store layer calls while Kafka Streams restores it: the SPI's {@code RestoreObserver} seen from
 * below (adapted by {@code OperatorStores}), so that this package does not depend on the SPI it implements. Called on
 * the restoring thread: {@link #rewrite} before a batch is written, {@link #restored} after.
 */
public interface RestoreHook {

    /**
     * @param batch changelog records about to be written into the store, in changelog order; not null
     * @return the records to write instead, in the order to write them; not null
     */
    Collection<ConsumerRecord<byte[], byte[]>> rewrite(Collection<ConsumerRecord<byte[], byte[]>> batch);

    /**
     * @param store the store being restored, below its change-logging layer; not null
     * @param batch the records just written into it ({@link #rewrite}'s result), in order; not null
     */
    void restored(KeyValueStore<Bytes, byte[]> store, Collection<ConsumerRecord<byte[], byte[]>> batch);
}
