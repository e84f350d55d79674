package dev.rtmstreams.reliability.internals;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * How the service instances of a run form their group: how many the scale scenarios run, the rebalance protocol, the
 * standby replicas, static membership and the session timeout. Unset values leave the real-time trigger's defaults
 * (one standby, 6 s session, 1.5 s heartbeat) to the service under the classic protocol; under the streams protocol
 * (KIP-1071) those are the group's broker-side configs, which the runner sets to the same values so the two protocols
 * are compared at the same settings.
 *
 * @param instances instances of scale-out (the target), scale-in (the start), rolling-restart and instance-kill; at
 *     least 2
 * @param protocol {@code classic} or {@code streams}
 * @param standbyReplicas standby replicas per task, empty for the trigger's default (1)
 * @param staticMembership whether each instance gets a {@code group.instance.id} of its own
 * @param sessionTimeout the members' session timeout, empty for the trigger's default (6 s)
 */
public record GroupSettings(
        int instances,
        String protocol,
        OptionalInt standbyReplicas,
        boolean staticMembership,
        Optional<Duration> sessionTimeout) {

    /** The classic protocol (the consumer group's, with Kafka Streams' assignor on the client). */
    public static final String CLASSIC = "classic";
    /** The streams rebalance protocol (KIP-1071): the broker assigns the tasks. */
    public static final String STREAMS = "streams";
    /** The real-time trigger's standby replicas. */
    static final int TRIGGER_STANDBY_REPLICAS = 1;
    /** The real-time trigger's session timeout. */
    static final Duration TRIGGER_SESSION_TIMEOUT = Duration.ofSeconds(6);
    /** The real-time trigger's heartbeat interval: a quarter of the session timeout. */
    static final Duration TRIGGER_HEARTBEAT_INTERVAL = Duration.ofMillis(1500);

    /**
     * Properties of the runner's own broker: the streams group's session timeout and heartbeat interval may go down to
     * the real-time trigger's (the broker's defaults allow no less than 45 s and 5 s).
     */
    public static final Map<String, String> BROKER_PROPERTIES = Map.of(
            "group.streams.min.session.timeout.ms", "1000",
            "group.streams.min.heartbeat.interval.ms", "250");

    /** Three instances, the classic protocol, the trigger's defaults, no static membership. */
    public static final GroupSettings DEFAULTS =
            new GroupSettings(3, CLASSIC, OptionalInt.empty(), false, Optional.empty());

    /** Validates, naming the bad option. */
    public GroupSettings {
        if (instances < 2) {
            throw new IllegalArgumentException("--instances must be at least 2: " + instances);
        }
        if (!CLASSIC.equals(protocol) && !STREAMS.equals(protocol)) {
            throw new IllegalArgumentException("--group-protocol must be classic or streams: '" + protocol + "'");
        }
        if (standbyReplicas.isPresent() && standbyReplicas.getAsInt() < 0) {
            throw new IllegalArgumentException(
                    "--standby-replicas must not be negative: " + standbyReplicas.getAsInt());
        }
        if (sessionTimeout.isPresent()
                && (sessionTimeout.get().isNegative() || sessionTimeout.get().isZero())) {
            throw new IllegalArgumentException("--session-timeout must be positive: " + sessionTimeout.get());
        }
    }

    /** @return whether the streams rebalance protocol is used */
    public boolean streamsProtocol() {
        return STREAMS.equals(protocol);
    }

    /** @return the standby replicas the members run with */
    public int effectiveStandbyReplicas() {
        return standbyReplicas.orElse(TRIGGER_STANDBY_REPLICAS);
    }

    /** @return the session timeout the members run with */
    public Duration effectiveSessionTimeout() {
        return sessionTimeout.orElse(TRIGGER_SESSION_TIMEOUT);
    }

    /**
     * The service's {@code kafka.*} config-file keys for these settings (empty with the classic protocol and every
     * value left to the trigger, so runs without group options set nothing).
     *
     * @return the keys and values, in a stable order
     */
    Map<String, String> serviceConfig() {
        Map<String, String> out = new LinkedHashMap<>();
        if (streamsProtocol()) {
            out.put("kafka.group.protocol", STREAMS);
        } else {
            standbyReplicas.ifPresent(n -> out.put("kafka.num.standby.replicas", Integer.toString(n)));
            sessionTimeout.ifPresent(t -> out.put("kafka.session.timeout.ms", Long.toString(t.toMillis())));
        }
        return out;
    }

    /**
     * The {@code group.instance.id} of one instance under static membership.
     *
     * @param applicationId the application id
     * @param instance the instance's name
     * @return the instance's environment ({@code RTM_KAFKA_GROUP_INSTANCE_ID}), empty without static membership
     */
    Map<String, String> instanceEnvironment(String applicationId, String instance) {
        return staticMembership ? Map.of("RTM_KAFKA_GROUP_INSTANCE_ID", applicationId + "-" + instance) : Map.of();
    }

    /**
     * The streams group's broker-side configs (IncrementalAlterConfigs on the GROUP resource) under the streams
     * protocol: standby replicas, session timeout and heartbeat interval as the real-time trigger sets them on the
     * client under the classic protocol.
     *
     * @return the configs, empty under the classic protocol
     */
    Map<String, String> streamsGroupConfig() {
        Map<String, String> out = new LinkedHashMap<>();
        if (streamsProtocol()) {
            out.put("streams.num.standby.replicas", Integer.toString(effectiveStandbyReplicas()));
            Duration session = effectiveSessionTimeout();
            out.put("streams.session.timeout.ms", Long.toString(session.toMillis()));
            long heartbeat = Math.min(TRIGGER_HEARTBEAT_INTERVAL.toMillis(), session.toMillis() / 4);
            out.put("streams.heartbeat.interval.ms", Long.toString(heartbeat));
        }
        return out;
    }
}
