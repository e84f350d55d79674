package dev.rtmstreams.join.internals;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.processor.spi.TimeQueue;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The join's time index: the shell's {@link TimeQueue} of buffer keys with the join's codec
 * ({@link Codec#INDEX_ENTRIES}). The queue itself is checked against a model in the shell (HeapTimeQueueTest); here,
 * that the codec orders rows of one time as their index keys in the index store, on the heap and in a store.
 */
class IndexEntriesTest {

    private static TimeQueue index(boolean heap) {
        if (heap) {
            return TimeQueue.onHeap(Codec.INDEX_ENTRIES);
        }
        KeyValueStore<Bytes, byte[]> store =
                Stores.inMemoryKeyValueStore("index").get();
        store.init(new MockProcessorContext<>().getStateStoreContext(), store);
        return TimeQueue.inStore(store, Codec.INDEX_ENTRIES);
    }

    @Test
    void shouldOrderBufferKeysAsTheirIndexKeysAndMapThemBothWays() {
        SplittableRandom random = new SplittableRandom(7);
        TimeQueue.EntryCodec codec = Codec.INDEX_ENTRIES;
        List<byte[]> rows = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            byte[] k = new byte[random.nextInt(4)];
            random.nextBytes(k);
            // few times and sequences, so that many rows share a time (and some a key)
            rows.add(Codec.bufferKey(k, random.nextLong(-2, 3), random.nextLong(-2, 3))
                    .get());
        }
        for (byte[] a : rows) {
            Bytes indexKey = codec.storeKey(a);
            assertThat(indexKey).isEqualTo(Codec.indexKeyFromBufferKey(a));
            assertThat(indexKey.get()[0]).isEqualTo(codec.tag());
            assertThat(codec.entry(indexKey.get())).isEqualTo(Bytes.wrap(a));
            assertThat(codec.time(a, 0, a.length)).isEqualTo(Codec.indexKeyTime(indexKey.get()));
            for (byte[] b : rows) {
                if (Codec.bufferKeyTime(a) == Codec.bufferKeyTime(b)) {
                    assertThat(Integer.signum(codec.compareSameTime(a, 0, a.length, b, 0, b.length)))
                            .isEqualTo(Integer.signum(indexKey.compareTo(codec.storeKey(b))));
                }
            }
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void shouldOrderRowsOfOneTimeByKeyLengthThenKeyBytesUnsignedThenSequence(boolean heap) {
        TimeQueue index = index(heap);
        byte[] high = {(byte) 0xF0};
        byte[] low = {0x10};
        byte[] longer = {0x00, 0x00};
        index.add(Codec.bufferKey(longer, 5, 1).get(), 5);
        index.add(Codec.bufferKey(high, 5, 2).get(), 5);
        index.add(Codec.bufferKey(low, 5, 4).get(), 5);
        index.add(Codec.bufferKey(low, 5, 3).get(), 5);
        index.add(Codec.bufferKey(low, 4, 9).get(), 4);
        index.add(Codec.bufferKey(low, 5, -1L).get(), 5); // the sequence is compared unsigned
        List<Bytes> out = new ArrayList<>();
        assertThat(index.poll(5, 10, out)).isFalse();
        assertThat(out)
                .containsExactly(
                        Codec.bufferKey(low, 4, 9),
                        Codec.bufferKey(low, 5, 3),
                        Codec.bufferKey(low, 5, 4),
                        Codec.bufferKey(low, 5, -1L),
                        Codec.bufferKey(high, 5, 2),
                        Codec.bufferKey(longer, 5, 1));
        assertThat(index.oldest()).isEqualTo(Long.MAX_VALUE);
        assertThat(index.newest()).isEqualTo(Codec.NONE);
    }
}
