package dev.rtmstreams.topology.testing;

import java.util.List;
import org.apache.kafka.common.annotation.InterfaceStability;
import org.apache.kafka.streams.KeyValue;

/**
 * Result of {@link ModeContractChecker#check}: the outputs of both runs and every difference.
 * @param differences every (batch, key) whose outputs are not equivalent; empty when the processor honours both
 *     contracts on this input; unmodifiable
 * @param realTimeOutput everything the real-time run emitted, in order; unmodifiable
 * @param microBatchOutput everything the micro-batch run emitted, in order; unmodifiable
 * @param <K> key type
 * @param <O> output type
 */
@InterfaceStability.Evolving
public record ContractReport<K, O>(
        List<ContractDifference<K, O>> differences,
        List<KeyValue<K, O>> realTimeOutput,
        List<KeyValue<K, O>> microBatchOutput) {

    /** Copies the lists. */
    public ContractReport {
        differences = List.copyOf(differences);
        realTimeOutput = List.copyOf(realTimeOutput);
        microBatchOutput = List.copyOf(microBatchOutput);
    }

    /** @return true when no difference was found */
    public boolean consistent() {
        return differences.isEmpty();
    }

    @Override
    public String toString() {
        if (consistent()) {
            return "processor honours both contracts (" + realTimeOutput.size() + " real-time outputs, "
                    + microBatchOutput.size() + " micro-batch outputs)";
        }
        StringBuilder sb = new StringBuilder("processor output differs between real-time and micro-batch contracts in "
                + differences.size() + " place(s):");
        differences.forEach(d -> sb.append("\n  ").append(d));
        return sb.toString();
    }
}
