package dev.rtmstreams.processor.internals;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.processor.spi.ByteLayout;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;

class WatermarkTrackerTest {

    private final KeyValueStore<Bytes, byte[]> store = TestStores.operatorStore("wm");

    @Test
    void shouldTrailMaxEventTimeByTheDelayNeverRegressAndCallRowsAtTheWatermarkLate() {
        WatermarkTracker wm = new WatermarkTracker(store, 100, 0);
        assertThat(wm.has()).isFalse();
        assertThat(wm.isLate(Long.MIN_VALUE)).isFalse();
        assertThat(wm.forTimerValues()).isZero();
        assertThat(wm.published()).isEqualTo(Long.MIN_VALUE);
        wm.observe(1000);
        assertThat(wm.value()).isEqualTo(900);
        wm.observe(950); // older row: no regression
        assertThat(wm.value()).isEqualTo(900);
        assertThat(wm.isLate(900)).isTrue();
        assertThat(wm.isLate(901)).isFalse();
        assertThat(wm.published()).isEqualTo(900);
    }

    @Test
    void shouldRestoreThePersistedWatermark() {
        new WatermarkTracker(store, 100, 0).observe(5000);
        WatermarkTracker restored = new WatermarkTracker(store, 100, 0);
        restored.load();
        assertThat(restored.value()).isEqualTo(4900);
        restored.observe(4950); // below the restored max event time: no change
        assertThat(restored.value()).isEqualTo(4900);
    }

    @Test
    void shouldAdvanceWithTheWallClockOnlyAfterTheIdleTimeout() {
        WatermarkTracker wm = new WatermarkTracker(store, 100, 1000);
        wm.observe(1100); // wm 1000, input at wall clock 0
        wm.applyIdleTimeout(999, 0);
        assertThat(wm.value()).isEqualTo(1000);
        wm.applyIdleTimeout(1900, 0);
        assertThat(wm.value()).isEqualTo(1100 + 1900 - 100);
        WatermarkTracker off = new WatermarkTracker(TestStores.operatorStore("wm-off"), 100, 0);
        off.observe(1100);
        off.applyIdleTimeout(1_000_000, 0);
        assertThat(off.value()).isEqualTo(1000); // no idle timeout: no advance
    }

    @Test
    void shouldWriteTheWatermarkOnlyWhenAskedBeforeACommitInDeferredMode() {
        Bytes key = Bytes.wrap(Layout.metaKey(Layout.META_WATERMARK));
        WatermarkTracker wm = new WatermarkTracker(store, 100, 0);
        wm.persistBeforeCommit();
        wm.observe(1000);
        wm.observe(2000);
        assertThat(wm.value()).isEqualTo(1900);
        assertThat(store.get(key)).isNull(); // not written on advance

        wm.persistIfAdvanced();
        assertThat(ByteLayout.getLong(store.get(key), 0)).isEqualTo(1900);

        store.delete(key);
        wm.persistIfAdvanced(); // no advance since the last write: nothing written
        assertThat(store.get(key)).isNull();
        wm.observe(1500); // older row: no advance
        wm.persistIfAdvanced();
        assertThat(store.get(key)).isNull();
        wm.observe(3000);
        wm.persistIfAdvanced();
        WatermarkTracker restored = new WatermarkTracker(store, 100, 0);
        restored.load();
        assertThat(restored.value()).isEqualTo(2900);
    }
}
