package dev.rtmstreams.topology.internals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rtmstreams.processor.ExecutionMode;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.utils.Time;
import org.junit.jupiter.api.Test;

/**
 * The main consumers and producers rtm-streams hands Kafka Streams are wrappers around the application supplier's
 * clients: every call of the client interfaces reaches the wrapped client, and what the wrappers add (latency header,
 * micro-batch output gate, epoch hooks) works around any client, Kafka's mocks included.
 */
class DelegatingClientsTest {

    private static EpochRuntime runtime(ExecutionMode mode) {
        return new EpochRuntime("app", mode, Time.SYSTEM, 0.5, 1, List.of(), 0, false);
    }

    /** @return a proxy of the interface that records each method called on it and returns a neutral value */
    @SuppressWarnings("unchecked")
    private static <T> T recording(Class<T> type, List<Method> calls) {
        return (T) Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (proxy, method, args) -> {
            calls.add(method);
            Class<?> r = method.getReturnType();
            if (r == boolean.class) {
                return false;
            }
            if (r == long.class) {
                return 0L;
            }
            if (r == int.class) {
                return 0;
            }
            return null;
        });
    }

    private static Object[] arguments(Method m) {
        return Arrays.stream(m.getParameterTypes())
                .map(t -> t == long.class ? (Object) 0L : t == boolean.class ? (Object) false : null)
                .toArray();
    }

    private static List<Method> abstractMethods(Class<?> type) {
        return Arrays.stream(type.getMethods())
                .filter(m -> Modifier.isAbstract(m.getModifiers()))
                .toList();
    }

    @Test
    void shouldForwardEveryConsumerMethodToTheWrappedConsumerWhenNotOverridden() throws Exception {
        List<Method> calls = new ArrayList<>();
        @SuppressWarnings("unchecked")
        Consumer<byte[], byte[]> delegate = recording(Consumer.class, calls);
        DelegatingConsumer wrapper = new DelegatingConsumer(delegate) {};

        List<Method> methods = abstractMethods(Consumer.class);
        for (Method m : methods) {
            m.invoke(wrapper, arguments(m));
        }

        assertThat(methods).hasSizeGreaterThan(40);
        assertThat(calls).containsExactlyElementsOf(methods);
    }

    @Test
    void shouldForwardEveryProducerMethodToTheWrappedProducerWhenNotOverridden() throws Exception {
        List<Method> calls = new ArrayList<>();
        @SuppressWarnings("unchecked")
        Producer<byte[], byte[]> delegate = recording(Producer.class, calls);
        DelegatingProducer wrapper = new DelegatingProducer(delegate) {};

        List<Method> methods = abstractMethods(Producer.class);
        for (Method m : methods) {
            m.invoke(wrapper, arguments(m));
        }

        assertThat(methods).hasSizeGreaterThan(12);
        assertThat(calls).containsExactlyElementsOf(methods);
    }

    @Test
    void shouldRefuseANullClientWhenTheSupplierReturnsNone() {
        assertThatThrownBy(() -> new InstrumentedProducer(null, runtime(ExecutionMode.REAL_TIME)))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("client supplier returned a null producer");
        assertThatThrownBy(() -> new InstrumentedConsumer(null, runtime(ExecutionMode.REAL_TIME)))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("client supplier returned a null consumer");
    }

    @Test
    void shouldStampPolledRecordsAndPassCommitsToTheWrappedConsumerWhenRealTime() {
        MockConsumer<byte[], byte[]> mock = new MockConsumer<>("earliest");
        TopicPartition tp = new TopicPartition("in", 0);
        mock.assign(List.of(tp));
        mock.updateBeginningOffsets(Map.of(tp, 0L));
        mock.addRecord(new ConsumerRecord<>("in", 0, 0L, "k".getBytes(), "v".getBytes()));
        InstrumentedConsumer consumer = new InstrumentedConsumer(mock, runtime(ExecutionMode.REAL_TIME));

        ConsumerRecords<byte[], byte[]> polled = consumer.poll(Duration.ZERO);
        consumer.commitSync(Map.of(tp, new OffsetAndMetadata(1L)));

        assertThat(polled.count()).isEqualTo(1);
        assertThat(LatencyHeader.find(polled.iterator().next().headers()))
                .as("the poll-time header rtm-streams adds")
                .isNotNull();
        assertThat(mock.committed(java.util.Set.of(tp))).containsEntry(tp, new OffsetAndMetadata(1L));
    }

    @Test
    void shouldRemoveTheLatencyHeaderBeforeTheWrappedProducerSeesAnOutputRecord() {
        MockProducer<byte[], byte[]> mock =
                new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
        InstrumentedProducer producer = new InstrumentedProducer(mock, runtime(ExecutionMode.REAL_TIME));
        ProducerRecord<byte[], byte[]> out = new ProducerRecord<>("out", "k".getBytes(), "v".getBytes());
        LatencyHeader.set(out.headers(), System.currentTimeMillis(), System.currentTimeMillis());

        producer.send(out);

        assertThat(mock.history()).hasSize(1);
        assertThat(LatencyHeader.find(mock.history().get(0).headers())).isNull();
    }

    @Test
    void shouldHoldOutputUntilTheFlushThatEndsTheEpochWhenMicroBatch() {
        MockProducer<byte[], byte[]> mock =
                new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
        InstrumentedProducer producer = new InstrumentedProducer(mock, runtime(ExecutionMode.MICRO_BATCH));

        producer.send(new ProducerRecord<>("out", "k".getBytes(), "v".getBytes()));
        producer.send(new ProducerRecord<>("app-store-changelog", "k".getBytes(), "v".getBytes()));

        assertThat(mock.history())
                .as("the changelog record goes at once, the output waits for the epoch")
                .extracting(ProducerRecord::topic)
                .containsExactly("app-store-changelog");

        producer.flush();

        assertThat(mock.history()).extracting(ProducerRecord::topic).containsExactly("app-store-changelog", "out");
    }

    @Test
    void shouldFailHeldOutputWhenTheProducerIsClosedWithoutATimeoutBeforeTheEpochEnds() {
        MockProducer<byte[], byte[]> mock =
                new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
        InstrumentedProducer producer = new InstrumentedProducer(mock, runtime(ExecutionMode.MICRO_BATCH));
        Future<RecordMetadata> held = producer.send(new ProducerRecord<>("out", "k".getBytes(), "v".getBytes()));

        producer.close();

        assertThat(mock.closed()).isTrue();
        assertThat(mock.history()).isEmpty();
        assertThatThrownBy(held::get)
                .isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(KafkaException.class)
                .hasMessageContaining("producer closed before the epoch ended");
    }
}
