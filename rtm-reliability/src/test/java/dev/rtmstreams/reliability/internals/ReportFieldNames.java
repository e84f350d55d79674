package dev.rtmstreams.reliability.internals;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The field names of {@code chaos-<scenario>.json} as the runner wrote them before its report was typed (docs/,
 * RELIABILITY.md, the ITs and other tools read them): per scenario, every field as a dotted path, in the order written.
 * Objects whose keys are data (latencies, samples, instance names, poison kinds) are not descended into. A run with its
 * own broker also has {@code broker} after {@code machine}.
 */
final class ReportFieldNames {

    /** Objects whose keys are data, not field names. */
    static final Set<String> OPAQUE = Set.of(
            "oracle.latency_ms",
            "oracle.samples",
            "fault.assignment_before",
            "poison.poison_missing_by_kind",
            "fault.assignment_after",
            "group_change.rebalances",
            "group_change.slot_violations_at_end");

    static final List<String> HEADER = List.of(
            "scenario",
            "run_id",
            "exactly_once",
            "target_rate",
            "duration_s",
            "partitions",
            "checkpoint_interval",
            "correlation_window",
            "topic_prefix",
            "started_at",
            "machine",
            "machine.cores",
            "machine.load_average_at_start",
            "broker",
            "first_start_to_running_ms",
            "fault");

    static final List<String> FOOTER = List.of(
            "longest_output_gap_whole_run_ms",
            "oracle",
            "oracle.events_sent",
            "oracle.achieved_rate",
            "oracle.kept_up",
            "oracle.send_errors",
            "oracle.expected",
            "oracle.observed",
            "oracle.matched",
            "oracle.missing",
            "oracle.duplicates",
            "oracle.unexpected",
            "oracle.mismatched",
            "oracle.drain_ms",
            "oracle.latency_ms",
            "oracle.samples",
            "oracle.report_file",
            "zero_duplicates_required",
            "service_alive_at_end",
            "service_health_at_end",
            "load_average_at_end",
            "verdict",
            "failures");

    static final List<String> RECOVERY = List.of("fault.recovery_ms", "fault.longest_output_gap_ms");

    static final List<String> KILL = List.of(
            "fault.kind",
            "fault.at_s",
            "fault.downtime_ms",
            "fault.fault_to_restart_ms",
            "fault.restart_to_running_ms",
            "fault.fault_to_running_ms");

    static final List<String> TIMERS_DUE =
            List.of("fault.pending_timers_due_after_restart", "fault.pending_timers_due_s_after_fault");

    static final List<String> STRADDLE = List.of(
            "straddling_matches",
            "straddling_matches.sent_before_kill",
            "straddling_matches.sent_while_down",
            "straddling_matches.expected_outputs",
            "straddling_matches.observed_outputs");

    static final List<String> SOAK_SERIES = List.of(
            "state_dir_bytes",
            "rocksdb_estimated_keys",
            "rocksdb_memtable_bytes",
            "rocksdb_block_cache_bytes",
            "rocksdb_table_readers_bytes",
            "heap_used_bytes",
            "rss_bytes",
            "heap_after_gc_bytes",
            "heap_committed_bytes");

    static final List<String> SOAK_STATS =
            List.of("first", "last", "max", "mean_middle_third", "mean_last_third", "bounded");

    /** Per scenario (command-line name), the fields between {@code fault} and {@link #FOOTER}. */
    static final Map<String, List<String>> MIDDLE = Map.of(
            "service-crash",
            concat(KILL, RECOVERY),
            "long-outage",
            concat(KILL, RECOVERY, STRADDLE),
            "pending-timers",
            concat(
                    KILL,
                    TIMERS_DUE,
                    RECOVERY,
                    STRADDLE,
                    List.of(
                            "pending_timers",
                            "pending_timers.transactions",
                            "pending_timers.late_acks_matched_after_expiry",
                            "pending_timers.control_second_ack_matched")),
            "state-wipe",
            concat(
                    List.of("fault.kind", "fault.at_s", "fault.state_dir_wiped"),
                    KILL.subList(2, KILL.size()),
                    TIMERS_DUE,
                    RECOVERY,
                    List.of(
                            "wipe_probes",
                            "wipe_probes.waited_for_expiry_and_checkpoint_ms",
                            "wipe_probes.expiry_cleared_before_wipe_ms",
                            "wipe_probes.second_ack_event_time_after_request_ms",
                            "wipe_probes.second_wipe_restart_to_running_ms",
                            "wipe_probes.second_wipe_restart_to_first_join_ms",
                            "wipe_probes.late_pair_event_time_behind_now_s",
                            "wipe_probes.late_pair_joined_after_wipe",
                            "wipe_probes.expired_transactions",
                            "wipe_probes.expired_state_matched_after_wipe",
                            "wipe_probes.fresh_pair_joined_after_wipe")),
            "broker-restart",
            concat(
                    List.of(
                            "fault.kind",
                            "fault.at_s",
                            "fault.broker_stop_ms",
                            "fault.broker_start_ms",
                            "fault.fault_to_broker_up_ms"),
                    RECOVERY),
            "instance-failover",
            concat(
                    List.of(
                            "fault.assignment_before",
                            "fault.kind",
                            "fault.at_s",
                            "fault.survivor_tasks_after",
                            "fault.tasks_total",
                            "fault.fault_to_takeover_ms",
                            "fault.survivor_slot_report"),
                    RECOVERY),
            "poison",
            List.of(
                    "poison",
                    "poison.poison_sent",
                    "poison.poison_send_errors",
                    "poison.poison_acked_by_broker",
                    "poison.poison_dead_lettered",
                    "poison.poison_missing_from_dlq",
                    "poison.poison_missing_by_kind",
                    "poison.poison_dlq_duplicates",
                    "poison.dlq_records_without_error_headers",
                    "poison.dlq_other_records",
                    "poison.dlq_header_samples"),
            "soak",
            concat(List.of("soak_samples"), soakSummary(), List.of("soak_series_files", "soak_bounded_judged")));

    /** The fields between {@code fault} and {@link #FOOTER} of the group changes (scale-out, scale-in, ...). */
    static final List<String> GROUP_CHANGE = concat(
            List.of(
                    "fault.kind",
                    "fault.at_s",
                    "fault.at_s_from_first_input",
                    "fault.group_protocol",
                    "fault.standby_replicas",
                    "fault.static_membership",
                    "fault.session_timeout_ms",
                    "fault.steps",
                    "fault.assignment_before",
                    "fault.assignment_after",
                    "fault.tasks_total",
                    "fault.fault_to_settled_ms",
                    "fault.tasks_moved",
                    "fault.moved_tasks",
                    "fault.moved_tasks_processing_again_ms",
                    "fault.longest_task_pause_ms",
                    "fault.longest_paused_task"),
            RECOVERY,
            List.of(
                    "group_change",
                    "group_change.rebalances",
                    "group_change.rebalances_max",
                    "group_change.rebalances_source",
                    "group_change.p99_before_ms",
                    "group_change.p99_during_ms",
                    "group_change.max_before_ms",
                    "group_change.max_during_ms",
                    "group_change.latency_windows_s",
                    "group_change.slot_violations_at_end"));

    /** The scenarios whose fields are {@link #brokerFault(boolean, boolean)}'s. */
    static final Set<String> BROKER_FAULTS = Set.of(
            "broker-leader-kill",
            "controller-kill",
            "broker-pause",
            "broker-rolling-restart",
            "txn-coordinator-kill",
            "broker-network-partition");

    /**
     * The fields between {@code fault} and {@link #FOOTER} of the broker faults.
     *
     * @param failover whether the fault measures its failover (all but the rolling restart)
     * @param transactions whether the open transactions are checked afterwards (txn-coordinator-kill)
     * @return the dotted paths
     */
    static List<String> brokerFault(boolean failover, boolean transactions) {
        List<String> fault = new ArrayList<>(List.of(
                "fault.kind",
                "fault.at_s",
                "fault.broker_nodes",
                "fault.role",
                "fault.fault_to_failover_ms",
                "fault.broker_down_ms",
                "fault.broker_start_ms",
                "fault.fault_to_isr_full_ms",
                "fault.steps"));
        if (!failover) {
            fault.remove("fault.fault_to_failover_ms");
        }
        List<String> section = new ArrayList<>(List.of(
                "broker_fault",
                "broker_fault.p99_before_ms",
                "broker_fault.p99_during_ms",
                "broker_fault.max_before_ms",
                "broker_fault.max_during_ms",
                "broker_fault.latency_windows_s",
                "broker_fault.changelog_records_restored"));
        if (transactions) {
            section.add("broker_fault.hanging_transactions");
        }
        return concat(fault, RECOVERY, section);
    }

    private ReportFieldNames() {}

    /**
     * The fields of a report of a scenario, in order.
     *
     * @param scenario command-line name
     * @param ownBroker whether the runner started its own broker (then {@code broker} is written)
     * @return the dotted paths
     */
    static List<String> of(String scenario, boolean ownBroker) {
        List<String> header = new ArrayList<>(HEADER);
        if (!ownBroker) {
            header.remove("broker");
        }
        if (BROKER_FAULTS.contains(scenario)) {
            return concat(
                    header,
                    brokerFault(!scenario.equals("broker-rolling-restart"), scenario.equals("txn-coordinator-kill")),
                    FOOTER);
        }
        return concat(header, MIDDLE.getOrDefault(scenario, GROUP_CHANGE), FOOTER);
    }

    /**
     * Lists the dotted paths of a JSON report, in document order.
     *
     * @param report the report
     * @return the paths
     */
    static List<String> paths(JsonNode report) {
        List<String> out = new ArrayList<>();
        walk(report, "", out);
        return out;
    }

    private static void walk(JsonNode node, String prefix, List<String> out) {
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String path = prefix + e.getKey();
            out.add(path);
            if (e.getValue().isObject() && !OPAQUE.contains(path)) {
                walk(e.getValue(), path + ".", out);
            }
        }
    }

    private static List<String> soakSummary() {
        List<String> out = new ArrayList<>(List.of("soak_summary"));
        for (String series : SOAK_SERIES) {
            out.add("soak_summary." + series);
            for (String stat : SOAK_STATS) {
                out.add("soak_summary." + series + "." + stat);
            }
        }
        return out;
    }

    @SafeVarargs
    private static List<String> concat(List<String>... parts) {
        List<String> out = new ArrayList<>();
        for (List<String> p : parts) {
            out.addAll(p);
        }
        return List.copyOf(out);
    }
}
