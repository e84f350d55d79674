package dev.rtmstreams.topology.internals;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.processor.ExecutionMode;
import dev.rtmstreams.topology.internals.compat.CloseShim;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.utils.Time;
import org.junit.jupiter.api.Test;

/**
 * Kafka Streams 4.1 closes its main consumers with {@code close()} (configured not to leave the group): there the
 * main consumer is closed with an explicit operation, leaving only when {@code RtmStreams} closes with
 * {@code leaveGroup}; on 4.2 and later Kafka Streams' own close reaches the consumer unchanged.
 */
class LeaveGroupOnCloseTest {

    /** @return a consumer recording how it was closed: "close()", "close(Duration)" or the membership operation */
    @SuppressWarnings("unchecked")
    private static Consumer<byte[], byte[]> recording(List<String> closes) {
        return (Consumer<byte[], byte[]>) Proxy.newProxyInstance(
                Consumer.class.getClassLoader(), new Class<?>[] {Consumer.class}, (proxy, method, args) -> {
                    if (method.getName().equals("close")) {
                        if (args == null) {
                            closes.add("close()");
                        } else if (args[0] instanceof Duration) {
                            closes.add("close(Duration)");
                        } else {
                            closes.add(String.valueOf(((CloseOptions) args[0]).groupMembershipOperation()));
                        }
                    }
                    return null;
                });
    }

    @Test
    void shouldLeaveTheGroupWhenClosedWithoutOptionsOnlyWhenAskedTo() {
        EpochRuntime runtime =
                new EpochRuntime("app", ExecutionMode.REAL_TIME, Time.SYSTEM, 0.5, 1, List.of(), 0, false);
        List<String> closes = new ArrayList<>();
        InstrumentedConsumer consumer = new InstrumentedConsumer(recording(closes), runtime);

        consumer.close();
        consumer.close(Duration.ofSeconds(1));
        runtime.leaveGroupOnClose(true);
        consumer.close();
        consumer.close(Duration.ofSeconds(1));
        consumer.close(CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.REMAIN_IN_GROUP));

        if (CloseShim.current().closesMainConsumersExplicitly()) { // Kafka Streams 4.1
            assertThat(closes)
                    .containsExactly(
                            "REMAIN_IN_GROUP", "REMAIN_IN_GROUP", "LEAVE_GROUP", "LEAVE_GROUP", "REMAIN_IN_GROUP");
            assertThat(CloseShim.current().mainConsumerConfig(Map.of("a", 1)))
                    .containsEntry(CloseShim.LEAVE_GROUP_ON_CLOSE_CONFIG, true)
                    .containsEntry("a", 1);
        } else {
            assertThat(closes)
                    .containsExactly("close()", "close(Duration)", "close()", "close(Duration)", "REMAIN_IN_GROUP");
            assertThat(CloseShim.current().mainConsumerConfig(Map.of("a", 1))).isEqualTo(Map.of("a", 1));
        }
        assertThat(runtime.mainConsumers()).isEqualTo(1);
    }
}
