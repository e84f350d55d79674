package dev.rtmstreams.topology.internals.compat;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.streams.KafkaStreams;

/**
 * Closes Kafka Streams with a timeout and a choice of leaving the consumer group, on every supported version:
 * Kafka Streams 4.2 and later take {@code org.apache.kafka.streams.CloseOptions} (KIP-1153, with a group membership
 * operation); 4.1 has only {@code KafkaStreams.CloseOptions} (a leave-group flag, deprecated since 4.2), which makes
 * only static members leave: Kafka Streams 4.1 closes its main consumers with {@code close()} under
 * {@link #LEAVE_GROUP_ON_CLOSE_CONFIG}{@code =false}. On 4.1 the main consumers are therefore created with that config
 * true ({@link #mainConsumerConfig}) and closed by the instrumented consumer with an explicit operation: leave when
 * {@code RtmStreams} closes with {@code leaveGroup}, else remain (Kafka Streams' behaviour). The shim is chosen once by
 * class presence ({@link #current()}); both call Kafka Streams' own public close.
 */
public abstract class CloseShim {

    /** The close options class of Kafka Streams 4.2 and later. */
    static final String CLOSE_OPTIONS = "org.apache.kafka.streams.CloseOptions";

    private static final CloseShim CURRENT = select();

    CloseShim() {}

    /** @return the shim for the Kafka Streams on the classpath */
    public static CloseShim current() {
        return CURRENT;
    }

    static CloseShim select() {
        try {
            return new MembershipOperationClose();
        } catch (ReflectiveOperationException | LinkageError e) {
            return new LeaveGroupFlagClose();
        }
    }

    /**
     * @param streams the instance to close
     * @param timeout how long to wait
     * @param leaveGroup whether the member leaves its consumer group (else it stays until its session times out)
     * @return true when Kafka Streams shut down within the timeout
     */
    public abstract boolean close(KafkaStreams streams, Duration timeout, boolean leaveGroup);

    /** @return which Kafka Streams API this shim calls, for the compatibility check and logs */
    public abstract String api();

    /**
     * The consumer's internal config that lets a member leave its group on close; Kafka Streams 4.1 sets it to
     * false for its main consumers and closes them with {@code close()}.
     */
    public static final String LEAVE_GROUP_ON_CLOSE_CONFIG = "internal.leave.group.on.close";

    /**
     * @param mainConsumerConfig the config Kafka Streams gives the client supplier for a main consumer
     * @return the config to create it with: on Kafka Streams 4.1, {@link #LEAVE_GROUP_ON_CLOSE_CONFIG} true, so that
     *     the consumer can leave when closed with {@code LEAVE_GROUP} (it is closed with an explicit operation, never
     *     the default: see {@code InstrumentedConsumer#close}); unchanged on 4.2 and later
     */
    public Map<String, Object> mainConsumerConfig(Map<String, Object> mainConsumerConfig) {
        return mainConsumerConfig;
    }

    /** @return whether the main consumers are closed by rtm-streams with an explicit group membership operation */
    public boolean closesMainConsumersExplicitly() {
        return false;
    }

    /** Kafka Streams 4.2 and later: {@code close(CloseOptions.timeout(t).withGroupMembershipOperation(op))}. */
    static final class MembershipOperationClose extends CloseShim {
        private final MethodHandle timeout;
        private final MethodHandle withOperation;
        private final MethodHandle close;
        private final Object leave;
        private final Object remain;

        MembershipOperationClose() throws ReflectiveOperationException {
            ClassLoader loader = CloseShim.class.getClassLoader();
            Class<?> options = Class.forName(CLOSE_OPTIONS, false, loader);
            @SuppressWarnings({"unchecked", "rawtypes"})
            Class<Enum> operation =
                    (Class<Enum>) Class.forName(CLOSE_OPTIONS + "$GroupMembershipOperation", false, loader);
            MethodHandles.Lookup lookup = MethodHandles.publicLookup();
            this.timeout = lookup.findStatic(options, "timeout", MethodType.methodType(options, Duration.class));
            this.withOperation = lookup.findVirtual(
                    options, "withGroupMembershipOperation", MethodType.methodType(options, operation));
            this.close = lookup.findVirtual(KafkaStreams.class, "close", MethodType.methodType(boolean.class, options));
            this.leave = enumConstant(operation, "LEAVE_GROUP");
            this.remain = enumConstant(operation, "REMAIN_IN_GROUP");
        }

        @SuppressWarnings({"unchecked", "rawtypes"})
        private static Object enumConstant(Class<Enum> type, String name) {
            return Enum.valueOf(type, name);
        }

        @Override
        public boolean close(KafkaStreams streams, Duration timeout, boolean leaveGroup) {
            try {
                Object options = withOperation.invoke(this.timeout.invoke(timeout), leaveGroup ? leave : remain);
                return (boolean) close.invoke(streams, options);
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Throwable e) {
                throw new IllegalStateException("KafkaStreams.close(CloseOptions) failed", e);
            }
        }

        @Override
        public String api() {
            return "KafkaStreams.close(org.apache.kafka.streams.CloseOptions)";
        }
    }

    /** Kafka Streams 4.1: {@code close(new KafkaStreams.CloseOptions().timeout(t).leaveGroup(flag))}. */
    static final class LeaveGroupFlagClose extends CloseShim {
        @Override
        @SuppressWarnings("deprecation") // the only close options Kafka Streams 4.1 has
        public boolean close(KafkaStreams streams, Duration timeout, boolean leaveGroup) {
            return streams.close(
                    new KafkaStreams.CloseOptions().timeout(timeout).leaveGroup(leaveGroup));
        }

        @Override
        public String api() {
            return "KafkaStreams.close(KafkaStreams.CloseOptions)";
        }

        @Override
        public Map<String, Object> mainConsumerConfig(Map<String, Object> mainConsumerConfig) {
            Map<String, Object> c = new HashMap<>(mainConsumerConfig);
            c.put(LEAVE_GROUP_ON_CLOSE_CONFIG, true);
            return c;
        }

        @Override
        public boolean closesMainConsumersExplicitly() {
            return true;
        }
    }
}
