package dev.rtmstreams.topology.testing;

import java.util.List;
import org.apache.kafka.common.annotation.InterfaceStability;

/**
 * One place where a processor's output differs between the real-time and the micro-batch contract: one key in one
 * micro-batch.
 * @param batch index of the micro-batch (0-based) in the checker's input
 * @param key the grouping (output) key
 * @param realTimeOutput what the real-time run emitted for the key's rows of this batch, in order, followed by what
 *     its timers emitted before the batch ended; unmodifiable
 * @param realTimeLastRowOutput what the real-time run emitted for the key's last row of the batch, followed by its
 *     timer output; unmodifiable
 * @param microBatchOutput what the micro-batch run emitted for the key when the batch ran; unmodifiable
 * @param <K> key type
 * @param <O> output type
 */
@InterfaceStability.Evolving
public record ContractDifference<K, O>(
        int batch, K key, List<O> realTimeOutput, List<O> realTimeLastRowOutput, List<O> microBatchOutput) {

    /** Copies the lists. */
    public ContractDifference {
        realTimeOutput = List.copyOf(realTimeOutput);
        realTimeLastRowOutput = List.copyOf(realTimeLastRowOutput);
        microBatchOutput = List.copyOf(microBatchOutput);
    }

    @Override
    public String toString() {
        return "batch " + batch + ", key " + key + ": real-time " + realTimeOutput + " (last row "
                + realTimeLastRowOutput + ") vs micro-batch " + microBatchOutput;
    }
}
