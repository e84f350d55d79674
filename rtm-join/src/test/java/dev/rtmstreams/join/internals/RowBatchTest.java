package dev.rtmstreams.join.internals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.junit.jupiter.api.Test;

/**
 * A side's batch of rows on their way to the local store and the changelog: rows reach the local store in insertion
 * order, each exactly once, and a changelog record is taken only of rows the local store holds.
 */
class RowBatchTest {

    private static Bytes key(long seq) {
        return Codec.bufferKey("k".getBytes(StandardCharsets.UTF_8), 1_000L + seq, seq);
    }

    @Test
    void rowsReachTheLocalStoreOnceInOrder() {
        RowBatch batch = new RowBatch();
        List<Bytes> written = new ArrayList<>();
        for (long seq = 0; seq < 10; seq++) {
            batch.add(key(seq), seq, new byte[] {(byte) seq});
            if (seq % 3 == 2) { // a read of the side every third row
                batch.notLocal().forEach(kv -> written.add(kv.key));
                batch.localWritten();
                assertThat(batch.notLocal()).isEmpty();
            }
        }
        assertThat(batch.notLocal()).extracting(kv -> kv.key).containsExactly(key(9));
        batch.notLocal().forEach(kv -> written.add(kv.key));
        batch.localWritten();
        assertThat(written)
                .containsExactly(key(0), key(1), key(2), key(3), key(4), key(5), key(6), key(7), key(8), key(9));

        KeyValue<Bytes, byte[]> record = batch.take();
        assertThat(RowBatch.isBatchKey(record.key.get())).isTrue();
        assertThat(RowBatch.rows(record.value)).extracting(kv -> kv.key).containsExactlyElementsOf(written);
        assertThat(batch.isEmpty()).isTrue();
        assertThat(batch.notLocal()).isEmpty();
    }

    @Test
    void aBatchWithRowsNotInTheLocalStoreIsNotTaken() {
        RowBatch batch = new RowBatch();
        batch.add(key(0), 0, new byte[] {0});
        batch.localWritten();
        batch.add(key(1), 1, new byte[] {1});
        assertThatThrownBy(batch::take)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("1 rows of the batch are not in the local store yet");
    }

    @Test
    void aTakenBatchStartsAfreshForTheLocalStoreToo() {
        RowBatch batch = new RowBatch();
        batch.add(key(0), 0, new byte[] {0});
        batch.localWritten();
        batch.take();
        batch.add(key(1), 1, new byte[] {1});
        assertThat(batch.notLocal()).extracting(kv -> kv.key).containsExactly(key(1));
    }
}
