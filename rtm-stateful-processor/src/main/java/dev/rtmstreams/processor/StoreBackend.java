package dev.rtmstreams.processor;

import org.apache.kafka.common.annotation.InterfaceStability;

/** Kind of Kafka Streams state store a {@link TransformWithState} operator keeps its state, timers and watermark in. Both are changelogged. */
@InterfaceStability.Evolving
public enum StoreBackend {
    /** Persistent RocksDB key-value store (default). */
    ROCKS_DB,
    /** In-memory key-value store; restored from the changelog on restart. */
    IN_MEMORY
}
