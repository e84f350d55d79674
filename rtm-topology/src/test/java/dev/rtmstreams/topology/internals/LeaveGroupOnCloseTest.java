package dev.rtmstreams.topology.internals;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.processor.ExecutionMode;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.utils.Time;
import org.junit.jupiter.api.Test;

/**
 * Kafka Streams 4.1 closes its main consumers with {@code close()} (configured not to leave the group): when
 * {@code RtmStreams} closes with {@code leaveGroup}, the main consumer leaves all the same.
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

        assertThat(closes)
                .containsExactly("close()", "close(Duration)", "LEAVE_GROUP", "LEAVE_GROUP", "REMAIN_IN_GROUP");
        assertThat(runtime.mainConsumers()).isEqualTo(1);
    }
}
