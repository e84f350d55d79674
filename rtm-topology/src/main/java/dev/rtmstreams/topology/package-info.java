/**
 * rtm-topology: the real-time execution layer of rtm-streams, the user's entry point.
 * <ul>
 *   <li>{@link dev.rtmstreams.topology.RtmStreams} runs a Kafka Streams {@code Topology} under a
 *       {@link dev.rtmstreams.topology.Trigger} (real-time or micro-batch; switching is a one-line change);</li>
 *   <li>each commit closes a checkpoint epoch reported as {@link dev.rtmstreams.topology.EpochProgress} to
 *       {@link dev.rtmstreams.topology.ProgressListener}s, to the log (one JSON line) and to metrics, with the
 *       Databricks-named latencies {@code sourceQueuingLatencyMs}, {@code processingLatencyMs}, {@code e2eLatencyMs};</li>
 *   <li>{@link dev.rtmstreams.topology.SlotAccounting} sizes a topology in task slots before start, and
 *       {@link dev.rtmstreams.topology.AssignmentReport} checks the real assignment after every rebalance;</li>
 *   <li>{@link dev.rtmstreams.topology.RealTimeClientSettings} publishes the client settings real-time mode applies
 *       for itself, for a plain Kafka Streams application (a benchmark's peer) to run with the same;</li>
 *   <li>{@link dev.rtmstreams.topology.RocksDbBoundedMemory} bounds RocksDB memory per JVM;</li>
 *   <li>{@link dev.rtmstreams.topology.PrometheusEndpoint} serves the metrics to Prometheus.</li>
 * </ul>
 * The mode-contract checker, which finds processors whose output depends on the execution contract, is a test utility
 * of the {@code rtm-test-utils} artifact ({@code dev.rtmstreams.topology.testing}). Everything under
 * {@code dev.rtmstreams.topology.internals} is implementation; do not use it.
 */
package dev.rtmstreams.topology;
