package dev.rtmstreams.processor;

import java.util.UUID;
import org.apache.kafka.common.annotation.InterfaceStability;

/**
 * Identity of the running query, as in Spark's {@code QueryInfo}.
 * On Kafka Streams the query id is derived from the {@code application.id} (stable across restarts),
 * the run id is new for every start of the processor's task, and the batch id is the current checkpoint
 * epoch (micro-batch number in micro-batch mode).
 */
@InterfaceStability.Evolving
public interface QueryInfo {

    /** @return the id of the query, stable across restarts */
    UUID getQueryId();

    /** @return the id of this run, new at every start */
    UUID getRunId();

    /** @return the current batch (epoch) id, starting at 0 */
    long getBatchId();
}
