package dev.rtmstreams.reliability.internals;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.JsonNode;
import dev.rtmstreams.tools.ReportJson;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The report of one chaos run, written as {@code <report-dir>/chaos-<scenario>.json} and printed as a summary. The
 * records below are the whole JSON layout; their field names are read by docs/reliability.md, RELIABILITY.md, the ITs and other
 * tools, so they never change (a test pins them to the names the runner wrote before the report was typed). Fields in
 * the order written:
 *
 * <pre>
 * scenario, run_id, exactly_once, target_rate, duration_s, partitions, checkpoint_interval, correlation_window,
 * topic_prefix, started_at, machine {cores, load_average_at_start}, broker (own broker only),
 * first_start_to_running_ms, fault {the {@link InjectedFault}'s fields, {@link TimersDue}, recovery_ms,
 * longest_output_gap_ms; empty without a fault}, the {@link Sections} a checker wrote (poison, soak_*,
 * straddling_matches, pending_timers, wipe_probes, group_change), longest_output_gap_whole_run_ms, oracle {the load
 * run's figures}, zero_duplicates_required, service_alive_at_end, service_health_at_end, load_average_at_end, verdict,
 * failures
 * </pre>
 *
 * @param scenario the scenario's command-line name
 * @param runId the run's id (topic prefix, application id and id prefix derive from it)
 * @param exactlyOnce whether the service ran with exactly_once_v2
 * @param targetRate the load's events per second
 * @param durationS the load's length in seconds
 * @param partitions partitions per topic
 * @param checkpointInterval the service's checkpoint interval (ISO-8601)
 * @param correlationWindow the service's correlation window (ISO-8601)
 * @param topicPrefix prefix of every topic of the run
 * @param startedAt when the run started (ISO-8601 instant)
 * @param machine the machine
 * @param broker the runner's own broker, or null on an existing cluster (then not written)
 * @param firstStartToRunningMs time from the first start of the service to RUNNING
 * @param fault the fault and the recovery from it
 * @param sections what the scenario's checker recorded (each absent section is not written)
 * @param longestOutputGapWholeRunMs longest gap between outputs over the whole load
 * @param oracle the load generator's oracle figures
 * @param zeroDuplicatesRequired whether the scenario promises zero duplicates
 * @param serviceAliveAtEnd whether the surviving instance was alive at the end
 * @param serviceHealthAtEnd its {@code /health} answer, or {@code no answer}
 * @param loadAverageAtEnd {@code /proc/loadavg} at the end
 * @param verdict {@code PASS} or {@code FAIL}
 * @param failures why it failed, empty when it passed
 */
public record ChaosReport(
        @JsonProperty("scenario") String scenario,
        @JsonProperty("run_id") String runId,
        @JsonProperty("exactly_once") boolean exactlyOnce,
        @JsonProperty("target_rate") double targetRate,
        @JsonProperty("duration_s") double durationS,
        @JsonProperty("partitions") int partitions,
        @JsonProperty("checkpoint_interval") String checkpointInterval,
        @JsonProperty("correlation_window") String correlationWindow,
        @JsonProperty("topic_prefix") String topicPrefix,
        @JsonProperty("started_at") String startedAt,
        @JsonProperty("machine") Machine machine,

        @JsonProperty("broker") @JsonInclude(JsonInclude.Include.NON_NULL)
        String broker,

        @JsonProperty("first_start_to_running_ms") long firstStartToRunningMs,
        @JsonProperty("fault") FaultSection fault,
        @JsonUnwrapped Sections sections,
        @JsonProperty("longest_output_gap_whole_run_ms") long longestOutputGapWholeRunMs,
        @JsonProperty("oracle") Oracle oracle,
        @JsonProperty("zero_duplicates_required") boolean zeroDuplicatesRequired,
        @JsonProperty("service_alive_at_end") boolean serviceAliveAtEnd,
        @JsonProperty("service_health_at_end") String serviceHealthAtEnd,
        @JsonProperty("load_average_at_end") String loadAverageAtEnd,
        @JsonProperty("verdict") String verdict,
        @JsonProperty("failures") List<String> failures) {

    /** The verdict of a run without failures. */
    public static final String PASS = "PASS";
    /** The verdict of a run with failures. */
    public static final String FAIL = "FAIL";

    /** Copies the failures. */
    public ChaosReport {
        failures = List.copyOf(failures);
    }

    /** @return whether the scenario passed */
    public boolean passed() {
        return PASS.equals(verdict);
    }

    /**
     * Writes the report as indented JSON.
     *
     * @param file the file
     * @throws IOException when writing fails
     */
    public void write(Path file) throws IOException {
        ReportJson.write(file, this);
    }

    /**
     * Prints the summary ({@link ChaosSummary}).
     *
     * @param out where to print
     * @param json the written report
     */
    public void print(PrintStream out, Path json) {
        ChaosSummary.print(this, out, json);
    }

    /**
     * The machine the run ran on.
     *
     * @param cores available processors
     * @param loadAverageAtStart {@code /proc/loadavg} at the start, or {@code unknown}
     */
    public record Machine(
            @JsonProperty("cores") int cores,
            @JsonProperty("load_average_at_start") String loadAverageAtStart) {}

    /**
     * The {@code fault} object: what the fault did, when the probes' timers were due (scenarios with timer probes) and
     * the recovery. Empty ({@code {}}) for scenarios without a fault that strikes (poison, soak).
     *
     * @param injected what the fault did, or null without one
     * @param timersDue when the timer probes' timers were due, or null without timer probes
     * @param recoveryMs ms from the fault until outputs flowed again on every partition (-1 if never), or null
     *     without a fault
     * @param longestOutputGapMs longest gap between outputs from 1 s before the fault to the end of the load, or
     *     null without a fault
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record FaultSection(
            @JsonUnwrapped InjectedFault injected,
            @JsonUnwrapped TimersDue timersDue,
            @JsonProperty("recovery_ms") Long recoveryMs,
            @JsonProperty("longest_output_gap_ms") Long longestOutputGapMs) {

        /** The empty section of a scenario without a fault. */
        public static final FaultSection NONE = new FaultSection(null, null, null, null);
    }

    /**
     * What a fault that strikes at the scheduled time did: its kind, when, and its own figures (its JSON fields go
     * into {@code fault}).
     */
    public sealed interface InjectedFault permits ServiceKill, BrokerRestart, InstanceKill, GroupChange {
        /** @return when it struck ({@link System#nanoTime()}) */
        long faultNanos();

        /** @return what was done, e.g. {@code kill -9 of the service JVM (pid 4242)} */
        String kind();

        /** @return seconds from the start of the load to the fault, to the ms */
        double atS();
    }

    /**
     * The service JVM killed (-9), its state directory optionally wiped, and started again after a downtime.
     *
     * @param faultNanos when it was killed (not written)
     * @param runningNanos when it was RUNNING again (not written)
     * @param kind {@code kill -9 of the service JVM (pid N)}
     * @param atS seconds from the start of the load
     * @param stateDirWiped the state directory deleted, or null when kept (then not written)
     * @param downtimeMs how long it stayed down
     * @param faultToRestartMs from the kill to the new JVM's launch
     * @param restartToRunningMs from the launch to RUNNING
     * @param faultToRunningMs from the kill to RUNNING
     */
    public record ServiceKill(
            @JsonIgnore long faultNanos,
            @JsonIgnore long runningNanos,
            @JsonProperty("kind") String kind,
            @JsonProperty("at_s") double atS,

            @JsonProperty("state_dir_wiped") @JsonInclude(JsonInclude.Include.NON_NULL)
            String stateDirWiped,

            @JsonProperty("downtime_ms") long downtimeMs,
            @JsonProperty("fault_to_restart_ms") long faultToRestartMs,
            @JsonProperty("restart_to_running_ms") long restartToRunningMs,
            @JsonProperty("fault_to_running_ms") long faultToRunningMs)
            implements InjectedFault {}

    /**
     * The broker process stopped and started again on the same port and log directory.
     *
     * @param faultNanos when it was stopped (not written)
     * @param kind what was done
     * @param atS seconds from the start of the load
     * @param brokerStopMs how long the graceful stop took
     * @param brokerStartMs how long the start took
     * @param faultToBrokerUpMs from the stop to the broker serving again
     */
    public record BrokerRestart(
            @JsonIgnore long faultNanos,
            @JsonProperty("kind") String kind,
            @JsonProperty("at_s") double atS,
            @JsonProperty("broker_stop_ms") long brokerStopMs,
            @JsonProperty("broker_start_ms") long brokerStartMs,
            @JsonProperty("fault_to_broker_up_ms") long faultToBrokerUpMs)
            implements InjectedFault {}

    /**
     * One of two instances killed (-9); the other takes over its tasks.
     *
     * @param faultNanos when it was killed (not written)
     * @param assignmentBefore active tasks per instance name just before the kill
     * @param kind what was done
     * @param atS seconds from the start of the load
     * @param survivorTasksAfter active tasks of the survivor at the end of the wait
     * @param tasksTotal tasks of the topology
     * @param faultToTakeoverMs from the kill until the survivor reported every task, -1 if not within 120 s
     * @param survivorSlotReport the survivor's {@code adattribution_slot_*} metric lines
     */
    public record InstanceKill(
            @JsonIgnore long faultNanos,
            @JsonProperty("assignment_before") Map<String, Long> assignmentBefore,
            @JsonProperty("kind") String kind,
            @JsonProperty("at_s") double atS,
            @JsonProperty("survivor_tasks_after") long survivorTasksAfter,
            @JsonProperty("tasks_total") long tasksTotal,
            @JsonProperty("fault_to_takeover_ms") long faultToTakeoverMs,
            @JsonProperty("survivor_slot_report") List<String> survivorSlotReport)
            implements InjectedFault {

        /** Copies the collections. */
        public InstanceKill {
            assignmentBefore = Collections.unmodifiableMap(new LinkedHashMap<>(assignmentBefore));
            survivorSlotReport = List.copyOf(survivorSlotReport);
        }
    }

    /**
     * Instances started, stopped, restarted or killed under load while they share one application id (scale-out,
     * scale-in, rolling-restart, instance-kill), and how the group's active tasks moved. The task ids per instance come
     * from each instance's task-level {@code process-total} on {@code /metrics}, sampled every 250 ms from the fault
     * until the assignment settled.
     *
     * @param faultNanos when the first action began (not written)
     * @param kind what was done, e.g. {@code scale-out 1 -> 3}
     * @param atS seconds from the start of the load
     * @param atSFromFirstInput seconds from the load's first input record (as the runner saw it arrive) to the fault:
     *     the time axis of the load run's per-second series; -1 when not seen
     * @param groupProtocol {@code classic} or {@code streams}
     * @param standbyReplicas standby replicas per task (client-side under classic, the group's config under streams)
     * @param staticMembership whether each instance had a {@code group.instance.id}
     * @param sessionTimeoutMs the session timeout the members ran with
     * @param steps each action with its timing, in order
     * @param assignmentBefore active tasks per running instance just before the fault
     * @param assignmentAfter active tasks per running instance once settled
     * @param tasksTotal tasks of the topology
     * @param faultToSettledMs from the fault until the running instances held every task, each once, each instance at
     *     least one, unchanged for 3 s; -1 if not within 120 s of the last action
     * @param tasksMoved tasks whose owner differs between before and after
     * @param movedTasks those tasks
     * @param movedTasksProcessingAgainMs from the fault until every moved task processed records on its new owner, -1
     *     if one never did (0 when none moved)
     * @param longestTaskPauseMs the longest time any task went without processing a record, from the fault until 3 s
     *     after the assignment settled
     * @param longestPausedTask the task of that pause
     */
    public record GroupChange(
            @JsonIgnore long faultNanos,
            @JsonProperty("kind") String kind,
            @JsonProperty("at_s") double atS,
            @JsonProperty("at_s_from_first_input") double atSFromFirstInput,
            @JsonProperty("group_protocol") String groupProtocol,
            @JsonProperty("standby_replicas") int standbyReplicas,
            @JsonProperty("static_membership") boolean staticMembership,
            @JsonProperty("session_timeout_ms") long sessionTimeoutMs,
            @JsonProperty("steps") List<String> steps,
            @JsonProperty("assignment_before") Map<String, List<String>> assignmentBefore,
            @JsonProperty("assignment_after") Map<String, List<String>> assignmentAfter,
            @JsonProperty("tasks_total") long tasksTotal,
            @JsonProperty("fault_to_settled_ms") long faultToSettledMs,
            @JsonProperty("tasks_moved") int tasksMoved,
            @JsonProperty("moved_tasks") List<String> movedTasks,
            @JsonProperty("moved_tasks_processing_again_ms") long movedTasksProcessingAgainMs,
            @JsonProperty("longest_task_pause_ms") long longestTaskPauseMs,
            @JsonProperty("longest_paused_task") String longestPausedTask)
            implements InjectedFault {

        /** Copies the collections. */
        public GroupChange {
            steps = List.copyOf(steps);
            assignmentBefore = copy(assignmentBefore);
            assignmentAfter = copy(assignmentAfter);
            movedTasks = List.copyOf(movedTasks);
        }

        private static Map<String, List<String>> copy(Map<String, List<String>> m) {
            Map<String, List<String>> out = new LinkedHashMap<>();
            m.forEach((k, v) -> out.put(k, List.copyOf(v)));
            return Collections.unmodifiableMap(out);
        }
    }

    /**
     * What the checker of a group change found after the load: rebalances per instance, end-to-end latency before and
     * during the change, and the slot checks of the instances running at the end.
     *
     * @param rebalances per instance, the rebalances it took part in from the fault to the end of the load
     * @param rebalancesMax the most any instance took part in (the group's rebalances as one member saw them)
     * @param rebalancesSource where the counts come from
     * @param p99BeforeMs upper bound of the p99 latency before the fault (largest per-second p99), -1 without outputs
     * @param p99DuringMs the same bound during the change (from the fault until 5 s after it settled)
     * @param maxBeforeMs largest latency before the fault
     * @param maxDuringMs largest latency during the change
     * @param latencyWindowsS the two windows, in seconds of the load: {@code before a-b, during c-d}
     * @param slotViolationsAtEnd per running instance, its {@code adattribution_slot_violations} at the end (-1 when
     *     it did not answer)
     */
    public record GroupChangeFigures(
            @JsonProperty("rebalances") Map<String, Integer> rebalances,
            @JsonProperty("rebalances_max") int rebalancesMax,
            @JsonProperty("rebalances_source") String rebalancesSource,
            @JsonProperty("p99_before_ms") double p99BeforeMs,
            @JsonProperty("p99_during_ms") double p99DuringMs,
            @JsonProperty("max_before_ms") double maxBeforeMs,
            @JsonProperty("max_during_ms") double maxDuringMs,
            @JsonProperty("latency_windows_s") String latencyWindowsS,
            @JsonProperty("slot_violations_at_end") Map<String, Long> slotViolationsAtEnd) {

        /** Copies the maps. */
        public GroupChangeFigures {
            rebalances = Collections.unmodifiableMap(new LinkedHashMap<>(rebalances));
            slotViolationsAtEnd = Collections.unmodifiableMap(new LinkedHashMap<>(slotViolationsAtEnd));
        }
    }

    /**
     * When the timers of the probe transactions sent early in the load came due, relative to the kill.
     *
     * @param pendingTimersDueAfterRestart whether they were still pending when the service was RUNNING again
     * @param pendingTimersDueSAfterFault seconds from the kill until they were due
     */
    public record TimersDue(
            @JsonProperty("pending_timers_due_after_restart")
            boolean pendingTimersDueAfterRestart,

            @JsonProperty("pending_timers_due_s_after_fault")
            double pendingTimersDueSAfterFault) {}

    /**
     * The sections a scenario's checker adds at the top level of the report; each absent one (null) is not written.
     *
     * @param poison poison: the poison records and the dead-letter topic
     * @param soakSamples soak: number of samples
     * @param soakSummary soak: per series its summary
     * @param soakSeriesFiles soak: the CSV and the HTML chart
     * @param soakBoundedJudged soak: whether the run was long enough (3x the join's state horizon) to judge boundedness
     * @param straddlingMatches pending-timers, long-outage: matches whose halves straddle the kill
     * @param pendingTimers pending-timers: timers set before the kill fired after it
     * @param wipeProbes state-wipe: expired state, watermarks and joins after a wipe and restore
     * @param groupChange scale-out, scale-in, rolling-restart, instance-kill: rebalances, latency, slot checks
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Sections(
            @JsonProperty("poison") PoisonFigures poison,
            @JsonProperty("soak_samples") Integer soakSamples,
            @JsonProperty("soak_summary") Map<String, SeriesSummary> soakSummary,
            @JsonProperty("soak_series_files") List<String> soakSeriesFiles,
            @JsonProperty("soak_bounded_judged") Boolean soakBoundedJudged,
            @JsonProperty("straddling_matches") StraddlingMatches straddlingMatches,
            @JsonProperty("pending_timers") PendingTimers pendingTimers,
            @JsonProperty("wipe_probes") WipeProbes wipeProbes,
            @JsonProperty("group_change") GroupChangeFigures groupChange) {}

    /**
     * The poison records sent and what the dead-letter topic received.
     *
     * @param poisonSent poison records sent
     * @param poisonSendErrors sends that failed
     * @param poisonAckedByBroker poison records the broker acknowledged
     * @param poisonDeadLettered of those, how many reached the dead-letter topic
     * @param poisonMissingFromDlq acknowledged poison records that never reached it
     * @param poisonMissingByKind the missing ones per kind of poison
     * @param poisonDlqDuplicates extra copies of poison records in the dead-letter topic
     * @param dlqRecordsWithoutErrorHeaders dead-lettered poison records lacking an error or source header
     * @param dlqOtherRecords dead-lettered records that were not poison probes
     * @param dlqHeaderSamples the headers of a few dead-lettered records
     */
    public record PoisonFigures(
            @JsonProperty("poison_sent") long poisonSent,
            @JsonProperty("poison_send_errors") long poisonSendErrors,
            @JsonProperty("poison_acked_by_broker") int poisonAckedByBroker,
            @JsonProperty("poison_dead_lettered") int poisonDeadLettered,
            @JsonProperty("poison_missing_from_dlq") long poisonMissingFromDlq,
            @JsonProperty("poison_missing_by_kind") Map<String, Long> poisonMissingByKind,
            @JsonProperty("poison_dlq_duplicates") long poisonDlqDuplicates,

            @JsonProperty("dlq_records_without_error_headers")
            long dlqRecordsWithoutErrorHeaders,

            @JsonProperty("dlq_other_records") long dlqOtherRecords,
            @JsonProperty("dlq_header_samples") List<String> dlqHeaderSamples) {

        /** Copies the collections. */
        public PoisonFigures {
            poisonMissingByKind = Collections.unmodifiableMap(new LinkedHashMap<>(poisonMissingByKind));
            dlqHeaderSamples = List.copyOf(dlqHeaderSamples);
        }
    }

    /**
     * One soak series summarised: first, last, max and, with at least 6 samples, the means of the middle and last
     * thirds and whether it is bounded (last third's mean at most 1.25x the middle third's).
     *
     * @param first first sample, -1 without samples
     * @param last last sample, -1 without samples
     * @param max largest sample, -1 without samples
     * @param meanMiddleThird mean of the middle third, or null with fewer than 6 samples (then not written)
     * @param meanLastThird mean of the last third, or null with fewer than 6 samples
     * @param bounded whether bounded, or null with fewer than 6 samples
     */
    public record SeriesSummary(
            @JsonProperty("first") double first,
            @JsonProperty("last") double last,
            @JsonProperty("max") double max,

            @JsonProperty("mean_middle_third") @JsonInclude(JsonInclude.Include.NON_NULL)
            Double meanMiddleThird,

            @JsonProperty("mean_last_third") @JsonInclude(JsonInclude.Include.NON_NULL)
            Double meanLastThird,

            @JsonProperty("bounded") @JsonInclude(JsonInclude.Include.NON_NULL)
            Boolean bounded) {}

    /**
     * Matches whose first halves were sent before the kill and second halves while the service was down.
     *
     * @param sentBeforeKill what was sent before the kill
     * @param sentWhileDown what was sent while down
     * @param expectedOutputs outputs the matches should produce
     * @param observedOutputs of those, how many were seen
     */
    public record StraddlingMatches(
            @JsonProperty("sent_before_kill") String sentBeforeKill,
            @JsonProperty("sent_while_down") String sentWhileDown,
            @JsonProperty("expected_outputs") int expectedOutputs,
            @JsonProperty("observed_outputs") long observedOutputs) {}

    /**
     * Whether the correlation timers of transactions set before the kill fired after the restart.
     *
     * @param transactions probe transactions
     * @param lateAcksMatchedAfterExpiry of those, how many still matched a second ack after their window (timer did
     *     not fire)
     * @param controlSecondAckMatched whether a control transaction's second ack, within its window, matched
     */
    public record PendingTimers(
            @JsonProperty("transactions") int transactions,
            @JsonProperty("late_acks_matched_after_expiry") long lateAcksMatchedAfterExpiry,
            @JsonProperty("control_second_ack_matched") boolean controlSecondAckMatched) {}

    /**
     * The second, quiesced wipe of the state-wipe scenario.
     *
     * @param waitedForExpiryAndCheckpointMs from sending the probe transactions until the kill: their expiry and two
     *     checkpoint intervals after it
     * @param expiryClearedBeforeWipeMs from sending the probe transactions until the live service held no state of any
     *     of them ({@code GET /state/request-ack-correlation/<tx>} answered 404: their expiry timers fired), -1 when
     *     that did not happen within the wait
     * @param secondAckEventTimeAfterRequestMs the event time of each second ack after its request's: inside the
     *     correlation window, so only state the timer removed keeps it from matching (a later ack would find the state
     *     expired on arrival whether the timer fired or not)
     * @param secondWipeRestartToRunningMs from the restart to RUNNING
     * @param secondWipeRestartToFirstJoinMs from the restart until a fresh pair was joined
     * @param latePairEventTimeBehindNowS how far behind the stream the late pair was
     * @param latePairJoinedAfterWipe times the late pair was joined (0: watermarks did not regress)
     * @param expiredTransactions expired probe transactions
     * @param expiredStateMatchedAfterWipe of those, how many matched a second ack (0: expired state stayed gone)
     * @param freshPairJoinedAfterWipe whether a fresh pair was joined within 60 s
     */
    public record WipeProbes(
            @JsonProperty("waited_for_expiry_and_checkpoint_ms")
            long waitedForExpiryAndCheckpointMs,

            @JsonProperty("expiry_cleared_before_wipe_ms") long expiryClearedBeforeWipeMs,

            @JsonProperty("second_ack_event_time_after_request_ms")
            long secondAckEventTimeAfterRequestMs,

            @JsonProperty("second_wipe_restart_to_running_ms")
            long secondWipeRestartToRunningMs,

            @JsonProperty("second_wipe_restart_to_first_join_ms")
            long secondWipeRestartToFirstJoinMs,

            @JsonProperty("late_pair_event_time_behind_now_s")
            long latePairEventTimeBehindNowS,

            @JsonProperty("late_pair_joined_after_wipe") int latePairJoinedAfterWipe,
            @JsonProperty("expired_transactions") int expiredTransactions,

            @JsonProperty("expired_state_matched_after_wipe")
            long expiredStateMatchedAfterWipe,

            @JsonProperty("fresh_pair_joined_after_wipe") boolean freshPairJoinedAfterWipe) {}

    /**
     * The load run's report as the chaos runner reads it ({@code report-<scenario>.json} of the load generator's
     * {@code run}): the oracle's figures. Fields the load run did not write are null (and written as null).
     *
     * @param eventsSent input events sent
     * @param achievedRate events per second achieved
     * @param keptUp whether the generator kept up with the target rate
     * @param sendErrors input records that could not be sent
     * @param expected outputs the oracle expects
     * @param observed outputs observed
     * @param matched observed outputs matching an expected one
     * @param missing expected outputs never observed
     * @param duplicates extra copies of expected outputs
     * @param unexpected outputs the oracle did not expect
     * @param mismatched outputs whose content differs from the expected
     * @param drainMs from the last send until the outputs were complete (or the drain timed out)
     * @param latencyMs latency percentiles (the load generator's layout, copied as is)
     * @param samples samples of missing, unexpected and duplicated outputs (copied as is)
     * @param reportFile the load run's report file
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Oracle(
            @JsonProperty("events_sent") Long eventsSent,
            @JsonProperty("achieved_rate") Double achievedRate,
            @JsonProperty("kept_up") Boolean keptUp,
            @JsonProperty("send_errors") Long sendErrors,
            @JsonProperty("expected") Long expected,
            @JsonProperty("observed") Long observed,
            @JsonProperty("matched") Long matched,
            @JsonProperty("missing") Long missing,
            @JsonProperty("duplicates") Long duplicates,
            @JsonProperty("unexpected") Long unexpected,
            @JsonProperty("mismatched") Long mismatched,
            @JsonProperty("drain_ms") Long drainMs,
            @JsonProperty("latency_ms") JsonNode latencyMs,
            @JsonProperty("samples") JsonNode samples,
            @JsonProperty("report_file") String reportFile) {

        /**
         * Reads a load run's report.
         *
         * @param file {@code report-<mode>.json}
         * @return its figures, with {@link #reportFile()} set to the file
         * @throws IOException when it cannot be read
         */
        public static Oracle read(Path file) throws IOException {
            Oracle o = ReportJson.read(file, Oracle.class);
            return new Oracle(
                    o.eventsSent,
                    o.achievedRate,
                    o.keptUp,
                    o.sendErrors,
                    o.expected,
                    o.observed,
                    o.matched,
                    o.missing,
                    o.duplicates,
                    o.unexpected,
                    o.mismatched,
                    o.drainMs,
                    o.latencyMs,
                    o.samples,
                    file.toString());
        }

        /**
         * The common check of every scenario: no expected output missing, none unexpected, no duplicate when the
         * scenario promises none, and every input sent.
         *
         * @param zeroDuplicatesRequired whether duplicates fail the run
         * @return the failures, in that order; empty when the oracle passes
         */
        public List<String> failures(boolean zeroDuplicatesRequired) {
            List<String> out = new ArrayList<>();
            if (count(missing) > 0) {
                out.add(count(missing) + " expected outputs missing (oracle)");
            }
            if (count(unexpected) > 0) {
                out.add(count(unexpected) + " unexpected outputs (oracle)");
            }
            if (zeroDuplicatesRequired && count(duplicates) > 0) {
                out.add(count(duplicates) + " duplicated outputs (oracle)");
            }
            if (count(sendErrors) > 0) {
                out.add(count(sendErrors) + " input records the generator could not send");
            }
            return out;
        }

        private static long count(Long n) {
            return n == null ? 0 : n;
        }
    }
}
