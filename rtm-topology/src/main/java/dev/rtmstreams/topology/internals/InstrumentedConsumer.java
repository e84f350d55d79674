package dev.rtmstreams.topology.internals;

import dev.rtmstreams.topology.internals.compat.CloseShim;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;

/**
 * A stream thread's main consumer under the classic rebalance protocol, wrapped around the one the application's
 * client supplier made: stamps polled records with their poll time, and closes a checkpoint epoch after every
 * successful {@code commitSync} (the at-least-once commit of Kafka Streams). Its {@link #metrics()} include the rtm
 * metrics, so they show in {@code KafkaStreams#metrics()}. Every other call goes to the wrapped consumer unchanged. The
 * streams protocol's counterpart is {@link StreamsProtocolConsumer}.
 */
final class InstrumentedConsumer extends DelegatingConsumer {

    private final EpochRuntime runtime;

    InstrumentedConsumer(Consumer<byte[], byte[]> delegate, EpochRuntime runtime) {
        super(delegate);
        this.runtime = runtime;
        runtime.mainConsumerCreated();
    }

    /**
     * On Kafka Streams 4.1 ({@link CloseShim#closesMainConsumersExplicitly()}), which closes its main consumer with
     * {@code close()}, closes it with an explicit group membership operation: leave when {@code RtmStreams} closes with
     * {@code leaveGroup} ({@link EpochRuntime#leaveGroupOnClose}), else remain, as Kafka Streams 4.1 does. Elsewhere
     * the wrapped consumer's {@code close()}.
     */
    @Override
    public void close() {
        if (CloseShim.current().closesMainConsumersExplicitly()) {
            delegate.close(CloseOptions.groupMembershipOperation(operation()));
        } else {
            delegate.close();
        }
    }

    /** As {@link #close()}, with a timeout. */
    @Override
    public void close(Duration timeout) {
        if (CloseShim.current().closesMainConsumersExplicitly()) {
            delegate.close(CloseOptions.groupMembershipOperation(operation()).withTimeout(timeout));
        } else {
            delegate.close(timeout);
        }
    }

    private CloseOptions.GroupMembershipOperation operation() {
        return runtime.leavesGroupOnClose()
                ? CloseOptions.GroupMembershipOperation.LEAVE_GROUP
                : CloseOptions.GroupMembershipOperation.REMAIN_IN_GROUP;
    }

    @Override
    public ConsumerRecords<byte[], byte[]> poll(Duration timeout) {
        return MainConsumerHooks.polled(runtime, delegate.poll(timeout));
    }

    @Override
    public void commitSync(Map<TopicPartition, OffsetAndMetadata> offsets) {
        MainConsumerHooks.commitSync(runtime, offsets, () -> delegate.commitSync(offsets));
    }

    @Override
    public void commitSync(Map<TopicPartition, OffsetAndMetadata> offsets, Duration timeout) {
        MainConsumerHooks.commitSync(runtime, offsets, () -> delegate.commitSync(offsets, timeout));
    }

    @Override
    public Map<MetricName, ? extends Metric> metrics() {
        return MainConsumerHooks.metrics(runtime, delegate.metrics());
    }
}
