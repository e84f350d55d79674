package dev.rtmstreams.topology.internals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class EpochOutputGateTest {

    private static ProducerRecord<byte[], byte[]> record(String topic, String value) {
        return new ProducerRecord<>(topic, null, value.getBytes());
    }

    private final EpochOutputGate gate = new EpochOutputGate(topic -> !topic.endsWith("-repartition"));

    @Test
    void shouldHoldOutputUntilReleasedAndSendItInOrderWithItsCallback() throws Exception {
        List<String> sent = new ArrayList<>();
        List<String> acked = new ArrayList<>();
        Future<RecordMetadata> f1 = gate.hold(record("out", "a"), (md, e) -> acked.add("a"));
        Future<RecordMetadata> f2 = gate.hold(record("out", "b"), null);

        assertThat(gate.held()).isEqualTo(2);
        assertThat(f1).isNotDone();

        RecordMetadata md = new RecordMetadata(new TopicPartition("out", 0), 7, 0, 0, 0, 0);
        gate.release((r, cb) -> {
            sent.add(new String(r.value()));
            cb.onCompletion(md, null);
            return CompletableFuture.completedFuture(md);
        });

        assertThat(sent).containsExactly("a", "b");
        assertThat(acked).containsExactly("a");
        assertThat(f1.get().offset()).isEqualTo(7);
        assertThat(f2).isDone();
        assertThat(gate.held()).isZero();
    }

    @Test
    void shouldNotHoldRecordsOfInternalTopics() {
        assertThat(gate.hold(record("app-shuffle-repartition", "a"), null)).isNull();
        assertThat(gate.held()).isZero();
    }

    @Test
    void shouldFailTheFuturesOfDiscardedRecords() {
        Future<RecordMetadata> f = gate.hold(record("out", "a"), null);

        gate.discard(new KafkaException("transaction aborted"));

        assertThat(gate.held()).isZero();
        assertThatThrownBy(f::get).isInstanceOf(ExecutionException.class).hasMessageContaining("transaction aborted");
    }

    @Test
    void shouldFailTheRestAndRethrowWhenASendThrows() {
        Future<RecordMetadata> f1 = gate.hold(record("out", "a"), null);
        Future<RecordMetadata> f2 = gate.hold(record("out", "b"), null);

        assertThatThrownBy(() -> gate.release((r, cb) -> {
                    throw new KafkaException("fenced");
                }))
                .hasMessage("fenced");
        assertThat(f1).failsWithin(java.time.Duration.ZERO);
        assertThat(f2).failsWithin(java.time.Duration.ZERO);
    }
}
