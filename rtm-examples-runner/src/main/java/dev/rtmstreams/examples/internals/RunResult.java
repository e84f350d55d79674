package dev.rtmstreams.examples.internals;

import dev.rtmstreams.tools.LatencyRecorder;
import dev.rtmstreams.topology.SizingReport;
import dev.rtmstreams.topology.Trigger;

/**
 * What one run under one trigger measured.
 *
 * @param trigger the trigger
 * @param rows rate-source rows sent (0 when reading existing topics)
 * @param records input records sent (rows plus duplicates)
 * @param outputs output records received
 * @param latency end-to-end latency of the outputs after the warm-up (source time to output received)
 * @param sizing the slot sizing the run used
 */
public record RunResult(
        Trigger trigger, long rows, long records, long outputs, LatencyRecorder latency, SizingReport sizing) {}
