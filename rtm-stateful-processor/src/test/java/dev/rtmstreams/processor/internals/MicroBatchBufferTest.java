package dev.rtmstreams.processor.internals;

import static dev.rtmstreams.processor.internals.TestStores.key;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.processor.spi.MicroBatchBuffer;
import java.util.List;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;

class MicroBatchBufferTest {

    private final KeyValueStore<Bytes, byte[]> store = TestStores.operatorStore("buffer");

    private MicroBatchBuffer<Layout.BufferEntry> newBuffer() {
        return MicroBatchBuffer.prefixed(store, Layout.BUFFER, Layout::encodeBufferEntry, Layout::decodeBufferEntry);
    }

    @Test
    void shouldKeepArrivalOrderPastOneByteOfSequenceAndRestartADedicatedBufferAfterItsLastEntry() {
        KeyValueStore<Bytes, byte[]> own = TestStores.operatorStore("own");
        MicroBatchBuffer<String> buffer = MicroBatchBuffer.dedicated(own, String::getBytes, String::new);
        buffer.load();
        for (int i = 0; i < 300; i++) { // past one byte of sequence: big-endian order stays arrival order
            buffer.append("e" + i);
        }
        MicroBatchBuffer<String> restarted = MicroBatchBuffer.dedicated(own, String::getBytes, String::new);
        restarted.load();
        restarted.append("last");
        List<KeyValue<Bytes, String>> entries = restarted.read();
        assertThat(entries).hasSize(301);
        assertThat(entries.get(0).value).isEqualTo("e0");
        assertThat(entries.get(299).value).isEqualTo("e299");
        assertThat(entries.get(300).value).isEqualTo("last");
        restarted.delete(entries.subList(0, 300));
        assertThat(restarted.read()).extracting(e -> e.value).containsExactly("last");
    }

    @Test
    void shouldReadRowsInArrivalOrderAndContinueTheSequenceAfterARestart() {
        MicroBatchBuffer<Layout.BufferEntry> buffer = newBuffer();
        buffer.load();
        assertThat(buffer.mayHoldEntries()).isTrue(); // at start: restored rows may wait
        buffer.append(new Layout.BufferEntry(key("b"), 2, key("v1"), new RecordHeaders().add("h", key("x"))));
        buffer.append(new Layout.BufferEntry(key("a"), 1, null, null));
        List<KeyValue<Bytes, Layout.BufferEntry>> rows = buffer.read();
        assertThat(buffer.mayHoldEntries()).isFalse();
        assertThat(rows).extracting(r -> new String(r.value.key())).containsExactly("b", "a");
        assertThat(rows.get(0).value.headers().lastHeader("h").value()).isEqualTo(key("x"));
        assertThat(rows.get(1).value.value()).isNull();

        MicroBatchBuffer<Layout.BufferEntry> restarted = newBuffer();
        restarted.load();
        restarted.append(new Layout.BufferEntry(key("c"), 3, key("v3"), null));
        assertThat(restarted.read()).extracting(r -> new String(r.value.key())).containsExactly("b", "a", "c");

        restarted.delete(rows);
        assertThat(restarted.read()).extracting(r -> new String(r.value.key())).containsExactly("c");
    }
}
