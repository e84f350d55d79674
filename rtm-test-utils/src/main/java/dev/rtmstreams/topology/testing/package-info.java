/**
 * Test utilities of rtm-topology (artifact {@code rtm-test-utils}, in test scope): {@link
 * dev.rtmstreams.topology.testing.RtmTopologyTestDriver} runs a whole topology on {@code TopologyTestDriver} as
 * {@code RtmStreams} would under a trigger, with processing time on the driver's wall clock; {@link
 * dev.rtmstreams.topology.testing.ModeContractChecker} (one operator) and {@link
 * dev.rtmstreams.topology.testing.TopologyModeContractChecker} (a topology) run under the real-time and the
 * micro-batch contract and report ({@link dev.rtmstreams.topology.testing.ContractReport}) where their outputs differ,
 * the sign of a processor whose result depends on how rows are grouped per call.
 */
package dev.rtmstreams.topology.testing;
