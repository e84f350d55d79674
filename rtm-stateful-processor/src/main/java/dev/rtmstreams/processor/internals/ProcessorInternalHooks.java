package dev.rtmstreams.processor.internals;

import dev.rtmstreams.processor.spi.KafkaInternalHook;
import dev.rtmstreams.processor.spi.KafkaInternalHooks;
import dev.rtmstreams.processor.spi.internals.compat.AppInfoShim;
import java.util.Collection;
import java.util.List;

/**
 * The Kafka Streams internals rtm-stateful-processor links against (listed for {@code RtmStreams}' compatibility
 * check through {@code META-INF/services}): the version record, the store decorator base and change-logging layer the
 * operator store sits in, the position check of interactive queries, and the batching restore callback.
 */
public final class ProcessorInternalHooks implements KafkaInternalHooks {

    static final String MODULE = "rtm-stateful-processor";

    /** For {@link java.util.ServiceLoader}. */
    public ProcessorInternalHooks() {}

    @Override
    public List<KafkaInternalHook> hooks() {
        return List.of(
                new KafkaInternalHook(
                        "kafka-streams.version",
                        MODULE,
                        "the Kafka Streams version in errors, the rtm_info metric and epoch progress",
                        () -> AppInfoShim.current().verify()),
                new KafkaInternalHook(
                        "processor.store-layers",
                        MODULE,
                        "operator state stores (transformWithState, joins, deduplication): their interactive"
                                + " queries, positions, changelog-only writes and range deletions",
                        ProcessorInternalHooks::verifyStoreLayers),
                new KafkaInternalHook(
                        "processor.batching-restore",
                        MODULE,
                        "restoring operator state from the changelog in batches with a restore observer",
                        ProcessorInternalHooks::verifyBatchingRestore));
    }

    static void verifyStoreLayers() throws ReflectiveOperationException {
        Class<?> wrapped = type("org.apache.kafka.streams.state.internals.WrappedStateStore");
        Class<?> stateStore = type("org.apache.kafka.streams.processor.StateStore");
        wrapped.getConstructor(stateStore);
        wrapped.getMethod("wrapped");
        Class<?> changeLogging = type("org.apache.kafka.streams.state.internals.ChangeLoggingKeyValueBytesStore");
        if (!wrapped.isAssignableFrom(changeLogging)) {
            throw new IllegalStateException(changeLogging.getName() + " is no longer a " + wrapped.getName());
        }
        type("org.apache.kafka.streams.state.internals.StoreQueryUtils")
                .getMethod(
                        "isPermitted",
                        type("org.apache.kafka.streams.query.Position"),
                        type("org.apache.kafka.streams.query.PositionBound"),
                        int.class);
        type("org.apache.kafka.streams.state.internals.RocksDBStore")
                .getMethod("write", type("org.rocksdb.WriteBatchInterface"));
    }

    static void verifyBatchingRestore() throws ReflectiveOperationException {
        type("org.apache.kafka.streams.processor.internals.RecordBatchingStateRestoreCallback")
                .getMethod("restoreBatch", Collection.class);
    }

    private static Class<?> type(String name) throws ClassNotFoundException {
        return Class.forName(name, false, ProcessorInternalHooks.class.getClassLoader());
    }
}
