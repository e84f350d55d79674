/**
 * Test utilities of rtm-topology (artifact {@code rtm-test-utils}, in test scope): {@link
 * dev.rtmstreams.topology.testing.ModeContractChecker} runs a stateful processor under the real-time and the
 * micro-batch contract on {@code TopologyTestDriver} and reports ({@link dev.rtmstreams.topology.testing.ContractReport})
 * where their outputs differ, the sign of a processor whose result depends on how rows are grouped per call.
 */
package dev.rtmstreams.topology.testing;
