package dev.rtmstreams.processor.internals;

import static dev.rtmstreams.processor.internals.TestStores.key;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;

class MicroBatchBufferTest {

    private final KeyValueStore<Bytes, byte[]> store = TestStores.operatorStore("buffer");

    @Test
    void shouldReadRowsInArrivalOrderAndContinueTheSequenceAfterARestart() {
        MicroBatchBuffer buffer = new MicroBatchBuffer(store);
        buffer.load();
        assertThat(buffer.mayHoldRows()).isTrue(); // at start: restored rows may wait
        buffer.append(key("b"), 2, key("v1"), new RecordHeaders().add("h", key("x")));
        buffer.append(key("a"), 1, null, null);
        List<KeyValue<Bytes, Layout.BufferEntry>> rows = buffer.read();
        assertThat(buffer.mayHoldRows()).isFalse();
        assertThat(rows).extracting(r -> new String(r.value.key())).containsExactly("b", "a");
        assertThat(rows.get(0).value.headers().lastHeader("h").value()).isEqualTo(key("x"));
        assertThat(rows.get(1).value.value()).isNull();

        MicroBatchBuffer restarted = new MicroBatchBuffer(store);
        restarted.load();
        restarted.append(key("c"), 3, key("v3"), null);
        assertThat(restarted.read()).extracting(r -> new String(r.value.key())).containsExactly("b", "a", "c");

        restarted.delete(rows);
        assertThat(restarted.read()).extracting(r -> new String(r.value.key())).containsExactly("c");
    }
}
