package dev.rtmstreams.examples.internals;

import dev.rtmstreams.tools.LatencyRecorder;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.ToLongFunction;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/** Where a run's outputs are observed: counted, and their end-to-end latency recorded. */
abstract class RunOutputs implements AutoCloseable {
    private final AtomicLong outputs = new AtomicLong();
    private final AtomicLong lastOutputNanos = new AtomicLong(System.nanoTime());
    private final LatencyRecorder latency = new LatencyRecorder(System.nanoTime());
    private volatile long measureFromMs = Long.MAX_VALUE;

    abstract void start();

    /** Counts an output; records its latency unless it was sent during the warm-up. */
    final void observed(long sourceTimeMs) {
        long nowNanos = System.nanoTime();
        long nowMs = System.currentTimeMillis();
        outputs.incrementAndGet();
        lastOutputNanos.set(nowNanos);
        if (sourceTimeMs >= measureFromMs) {
            synchronized (latency) { // a sink per task: several stream threads may report
                latency.record(nowNanos, (nowMs - sourceTimeMs) * 1_000_000L);
            }
        }
    }

    /** Outputs whose source time is before {@code sourceTimeMs} (sent during the warm-up) are not measured. */
    final void measureFrom(long sourceTimeMs) {
        measureFromMs = sourceTimeMs;
    }

    final void awaitQuiet(Duration quiet, Duration cap) throws InterruptedException {
        long start = System.nanoTime();
        lastOutputNanos.accumulateAndGet(start, Math::max);
        while (System.nanoTime() - lastOutputNanos.get() < quiet.toNanos()
                && System.nanoTime() - start < cap.toNanos()) {
            Thread.sleep(50);
        }
    }

    final long outputs() {
        return outputs.get();
    }

    final LatencyRecorder latency() {
        synchronized (latency) {
            return latency;
        }
    }

    @Override
    public abstract void close() throws InterruptedException;

    /** Rows committed by an external sink, reported from the stream threads. */
    static final class Sink extends RunOutputs {
        void committed(long sourceTimeMs) {
            observed(sourceTimeMs);
        }

        @Override
        void start() {}

        @Override
        public void close() {}
    }

    /** Reads the output topic on its own thread, counts records and records their latency. */
    static final class Topic extends RunOutputs {
        private final KafkaConsumer<String, String> consumer;
        private final ToLongFunction<ConsumerRecord<String, String>> sourceTime;
        private final int displayRows;
        private final PrintWriter out;
        private final String topic;
        private final boolean fromEnd;
        private final AtomicBoolean running = new AtomicBoolean(true);
        private Thread thread;
        private int displayed;

        /**
         * @param client the consumer's client settings
         * @param topic the output topic
         * @param fromEnd whether to read from its end (else from its beginning)
         * @param sourceTime the source time (epoch ms) of an output record
         * @param displayRows how many outputs to print
         * @param out where to print them
         */
        Topic(
                Map<String, Object> client,
                String topic,
                boolean fromEnd,
                ToLongFunction<ConsumerRecord<String, String>> sourceTime,
                int displayRows,
                PrintWriter out) {
            Map<String, Object> c = new HashMap<>(client);
            c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, fromEnd ? "latest" : "earliest");
            c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
            c.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 5);
            this.consumer = new KafkaConsumer<>(c, new StringDeserializer(), new StringDeserializer());
            this.topic = topic;
            this.fromEnd = fromEnd;
            this.sourceTime = sourceTime;
            this.displayRows = displayRows;
            this.out = out;
        }

        @Override
        void start() {
            List<TopicPartition> parts = new ArrayList<>();
            for (PartitionInfo p : consumer.partitionsFor(topic, Duration.ofSeconds(30))) {
                parts.add(new TopicPartition(topic, p.partition()));
            }
            consumer.assign(parts);
            if (fromEnd) {
                consumer.seekToEnd(parts);
            } else {
                consumer.seekToBeginning(parts);
            }
            consumer.poll(Duration.ZERO); // resolve the positions on this thread
            thread = new Thread(this::loop, "rtm-examples-output-reader");
            thread.setDaemon(true);
            thread.start();
        }

        private void loop() {
            while (running.get()) {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(50))) {
                    observed(sourceTime.applyAsLong(r));
                    if (displayed < displayRows) {
                        displayed++;
                        out.printf(
                                Locale.ROOT,
                                "| %-24s | %-10s | %-24s |%n",
                                Instant.ofEpochMilli(r.timestamp()),
                                r.value(),
                                r.key());
                        out.flush();
                    }
                }
            }
        }

        @Override
        public void close() throws InterruptedException {
            running.set(false);
            if (thread != null) {
                thread.join(5_000);
            }
            consumer.close(Duration.ofSeconds(5));
        }
    }
}
