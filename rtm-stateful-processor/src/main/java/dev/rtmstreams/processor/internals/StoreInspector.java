package dev.rtmstreams.processor.internals;

import dev.rtmstreams.processor.spi.ByteLayout;
import java.util.List;
import java.util.OptionalLong;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/** Read-only views of an operator store for test tooling (the public test harness of rtm-test-utils). */
public final class StoreInspector {

    private StoreInspector() {}

    /**
     * @param store the operator's store
     * @param keyBytes the serialized grouping key
     * @return the key's pending timers in ascending time order
     */
    public static List<Long> timers(ReadOnlyKeyValueStore<Bytes, byte[]> store, byte[] keyBytes) {
        return TimerService.list(store, keyBytes);
    }

    /** @return the persisted watermark, empty when the operator has none */
    public static OptionalLong watermark(ReadOnlyKeyValueStore<Bytes, byte[]> store) {
        byte[] wm = store.get(Bytes.wrap(Layout.metaKey(Layout.META_WATERMARK)));
        return wm == null ? OptionalLong.empty() : OptionalLong.of(ByteLayout.getLong(wm, 0));
    }
}
