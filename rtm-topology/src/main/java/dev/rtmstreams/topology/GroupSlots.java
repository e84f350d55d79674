package dev.rtmstreams.topology;

import org.apache.kafka.common.annotation.InterfaceStability;

/**
 * The whole application group's task slots after a rebalance, next to what the topology needs: real-time mode runs
 * one task per slot (stream thread), so a group with fewer slots than tasks (at {@code tasksPerSlot}) leaves tasks
 * waiting behind others on every instance. Found by describing the group (a member per stream thread, under the classic
 * and the streams rebalance protocols).
 *
 * @param slotsPresent stream threads of all instances in the group
 * @param instancesPresent Kafka Streams clients (instances) among them
 * @param slotsRequired slots the topology needs: its tasks divided by {@code tasksPerSlot}, rounded up; -1 when the
 *     topology could not be sized
 * @param slotsExpected {@code num.stream.threads} x the expected instances this instance was configured with
 */
@InterfaceStability.Evolving
public record GroupSlots(int slotsPresent, int instancesPresent, int slotsRequired, int slotsExpected) {

    /** @return whether the group has fewer slots than the topology needs */
    public boolean undersized() {
        return slotsRequired > 0 && slotsPresent < slotsRequired;
    }

    /** @return whether fewer slots are present than the configured expected instances would bring */
    public boolean belowExpected() {
        return slotsPresent < slotsExpected;
    }
}
