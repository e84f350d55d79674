package dev.rtmstreams.reliability.internals;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.JsonNode;
import dev.rtmstreams.tools.ReportJson;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
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
        @JsonProperty("oracle") LoadOracle oracle,
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
     * Reads a report written by {@link #write(Path)}. The times a fault does not write ({@link
     * InjectedFault#faultNanos()} and the like) read back as 0.
     *
     * @param file {@code chaos-<scenario>.json}
     * @return the report
     * @throws IOException when the file cannot be read or does not hold a chaos report
     */
    public static ChaosReport read(Path file) throws IOException {
        return ReportJson.read(file, ChaosReport.class);
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

        /**
         * Reads the section back from a report's {@code fault} object ({@link InjectedFault#fromJson(JsonNode)}).
         *
         * @param fault the {@code fault} object
         * @return the section; equal to {@link #NONE} for an empty object
         */
        @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
        static FaultSection fromJson(JsonNode fault) {
            return new FaultSection(
                    InjectedFault.fromJson(fault),
                    fault.has("pending_timers_due_after_restart") ? ReportJson.convert(fault, TimersDue.class) : null,
                    fault.has("recovery_ms") ? fault.get("recovery_ms").asLong() : null,
                    fault.has("longest_output_gap_ms")
                            ? fault.get("longest_output_gap_ms").asLong()
                            : null);
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
    @JsonIgnoreProperties(ignoreUnknown = true) // the fault object also holds the fault's fields
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
     * @param brokerFault broker-leader-kill, controller-kill, broker-pause, broker-rolling-restart,
     *     txn-coordinator-kill: latency, restores, transactions left open
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
            @JsonProperty("group_change") GroupChangeFigures groupChange,
            @JsonProperty("broker_fault") BrokerFaultFigures brokerFault) {}

    /**
     * Latency and restores around a broker fault (broker-leader-kill, controller-kill, broker-pause,
     * broker-rolling-restart): the load run's per-second p99 and max before the fault and during it (from the fault until
     * 5 s after the in-sync replicas were full again), and the changelog records the service's restore consumers read
     * from just before the fault to the end.
     *
     * @param p99BeforeMs the largest per-second p99 from 5 s into the load to the fault, -1 without outputs
     * @param p99DuringMs the largest per-second p99 during the fault, -1 without outputs
     * @param maxBeforeMs the largest per-second max before the fault
     * @param maxDuringMs the largest per-second max during the fault
     * @param latencyWindowsS the two windows, in seconds of the load
     * @param changelogRecordsRestored records the service's restore consumers read from the fault to the end (tasks
     *     restored from changelogs), -1 when its metrics did not answer
     * @param hangingTransactions txn-coordinator-kill: transactions of the cluster still open (Ongoing, PrepareCommit,
     *     PrepareAbort) for longer than their timeout after the broker was back; null (not written) for the other
     *     broker faults
     */
    public record BrokerFaultFigures(
            @JsonProperty("p99_before_ms") double p99BeforeMs,
            @JsonProperty("p99_during_ms") double p99DuringMs,
            @JsonProperty("max_before_ms") double maxBeforeMs,
            @JsonProperty("max_during_ms") double maxDuringMs,
            @JsonProperty("latency_windows_s") String latencyWindowsS,
            @JsonProperty("changelog_records_restored") long changelogRecordsRestored,

            @JsonProperty("hanging_transactions") @JsonInclude(JsonInclude.Include.NON_NULL)
            Integer hangingTransactions) {}

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
}
