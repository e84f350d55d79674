package dev.rtmstreams.topology.internals;

import dev.rtmstreams.topology.GroupSlots;
import dev.rtmstreams.topology.SizingReport;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.StreamsGroupMemberDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.streams.StreamsConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Describes the application's group after a rebalance to count the slots of every instance: under the classic
 * protocol each stream thread's main consumer is a member (client id {@code <client>-StreamThread-<n>-consumer}),
 * under the streams protocol ({@code group.protocol=streams}) each stream thread is a member of the streams group
 * (with its process id). Runs on the progress thread, never on a stream thread; a failure yields nothing (logged).
 */
public final class GroupSlotsProbe {

    private static final Logger LOG = LoggerFactory.getLogger(GroupSlotsProbe.class);
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final Map<String, Object> adminConfig;
    private final String groupId;
    private final boolean streamsProtocol;
    private final Supplier<SizingReport> sizing;
    private final int slotsExpected;
    private int slotsRequired = Integer.MIN_VALUE; // not sized yet

    /**
     * @param streamsConfig the application's Kafka Streams properties
     * @param groupId the application id
     * @param sizing sizes the topology (may ask the cluster; asked once, on the first probe)
     * @param slotsExpected threads x expected instances
     */
    public GroupSlotsProbe(Properties streamsConfig, String groupId, Supplier<SizingReport> sizing, int slotsExpected) {
        this.adminConfig = new StreamsConfig(streamsConfig).getAdminConfigs(groupId + "-rtm-slots");
        this.groupId = groupId;
        this.streamsProtocol = StreamsProtocolConsumer.streamsProtocol(streamsConfig);
        this.sizing = sizing;
        this.slotsExpected = slotsExpected;
    }

    /** @return the group's slots now, or null when the group could not be described */
    GroupSlots probe() {
        if (slotsRequired == Integer.MIN_VALUE) {
            try {
                slotsRequired = sizing.get().requiredSlots();
            } catch (RuntimeException e) {
                LOG.debug("group slot check: cannot size the topology", e);
                slotsRequired = -1;
            }
        }
        try (Admin admin = Admin.create(adminConfig)) {
            List<String> processes = streamsProtocol ? streamsMembers(admin) : classicMembers(admin);
            Set<String> instances = processes.stream().collect(Collectors.toSet());
            return new GroupSlots(processes.size(), instances.size(), slotsRequired, slotsExpected);
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            LOG.warn("group slot check of {} skipped: cannot describe the group: {}", groupId, e.toString());
            return null;
        }
    }

    /** @return per member (stream thread), its instance: the client id before {@code -StreamThread-} */
    private List<String> classicMembers(Admin admin) throws Exception {
        return described(admin.describeConsumerGroups(List.of(groupId)).describedGroups()).members().stream()
                .map(MemberDescription::clientId)
                .map(GroupSlotsProbe::instanceOf)
                .toList();
    }

    /** @return per member of the streams group, its process id */
    private List<String> streamsMembers(Admin admin) throws Exception {
        return described(admin.describeStreamsGroups(List.of(groupId)).describedGroups()).members().stream()
                .map(StreamsGroupMemberDescription::processId)
                .toList();
    }

    /** @return this group's description, waiting at most {@link #TIMEOUT} */
    private <D> D described(Map<String, KafkaFuture<D>> groups) throws Exception {
        return groups.get(groupId).get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** @return the instance part of a stream thread's consumer client id */
    static String instanceOf(String clientId) {
        int at = clientId.indexOf("-StreamThread-");
        return at < 0 ? clientId : clientId.substring(0, at);
    }
}
