package dev.rtmstreams.topology.internals;

import dev.rtmstreams.topology.internals.compat.CloseShim;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.streams.KafkaClientSupplier;

/**
 * The client supplier Kafka Streams gets from {@code RtmStreams}: it asks the application's own supplier (Kafka
 * Streams' default one unless the application gave another) for every client, and wraps the main consumers and the
 * producers by delegation so that they report to the {@link EpochRuntime}. Restore and global consumers and the admin
 * client are the application supplier's, unwrapped.
 */
public final class RtmClientSupplier implements KafkaClientSupplier {

    private final EpochRuntime runtime;
    private final KafkaClientSupplier clients;

    /**
     * @param runtime the runtime that receives polls, sends and commits
     * @param clients the application's client supplier, which creates every client
     */
    public RtmClientSupplier(EpochRuntime runtime, KafkaClientSupplier clients) {
        this.runtime = Objects.requireNonNull(runtime, "runtime");
        this.clients = Objects.requireNonNull(clients, "clients");
    }

    @Override
    public Admin getAdmin(Map<String, Object> config) {
        return clients.getAdmin(config);
    }

    @Override
    public Producer<byte[], byte[]> getProducer(Map<String, Object> config) {
        return new InstrumentedProducer(clients.getProducer(config), runtime);
    }

    @Override
    public Consumer<byte[], byte[]> getConsumer(Map<String, Object> config) {
        return new InstrumentedConsumer(clients.getConsumer(CloseShim.current().mainConsumerConfig(config)), runtime);
    }

    @Override
    public Consumer<byte[], byte[]> getRestoreConsumer(Map<String, Object> config) {
        return clients.getRestoreConsumer(config);
    }

    @Override
    public Consumer<byte[], byte[]> getGlobalConsumer(Map<String, Object> config) {
        return clients.getGlobalConsumer(config);
    }
}
