package dev.rtmstreams.examples.internals;

import dev.rtmstreams.tools.Pacer;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * A development source like Spark's {@code rate} format: rows per second, each with a timestamp and a counter value.
 * Kafka Streams reads only topics, so the rate source writes its rows into the input topic(s) of an example (the
 * {@code --source rate} of the examples' command line); the Kafka record carries the row's timestamp as record
 * timestamp (its creation time, used for end-to-end latency) and the value as UTF-8 decimal text.
 * <p>Row {@code i} (from 0) has value {@code i} (or {@code i % distinctValues}), key {@code "key-" + (i % keys)} and
 * goes to topic {@code topics[i % topics.size()]}; with {@code duplicateEvery = d > 0}, every {@code d}-th row is
 * sent twice (same key, value and timestamp), for the deduplication examples. Immutable; built by {@link #builder()}.
 * <pre>{@code
 * RateSource rate = RateSource.builder().rowsPerSecond(2_000).build();
 * RateSource.Result r = rate.run(producer, List.of("input"), Duration.ofSeconds(30), () -> false);
 * }</pre>
 */
public final class RateSource {

    /**
     * One generated row.
     *
     * @param index the row counter (0, 1, 2...)
     * @param key the Kafka key
     * @param value the value (the counter, or the counter modulo {@code distinctValues})
     */
    public record Row(long index, String key, long value) {}

    /**
     * What a run sent.
     *
     * @param rows generated rows
     * @param records Kafka records sent (rows plus duplicates)
     * @param achievedRate rows per second actually achieved
     * @param fellBehind whether sending fell more than 1 s behind schedule
     */
    public record Result(long rows, long records, double achievedRate, boolean fellBehind) {}

    private final double rowsPerSecond;
    private final int keys;
    private final long distinctValues;
    private final int duplicateEvery;

    private RateSource(Builder b) {
        this.rowsPerSecond = b.rowsPerSecond;
        this.keys = b.keys;
        this.distinctValues = b.distinctValues;
        this.duplicateEvery = b.duplicateEvery;
    }

    /** @return a builder with the defaults: 1 row per second, 100 keys, unbounded values, no duplicates */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * @param index the row counter, not negative
     * @return row {@code index}
     */
    public Row row(long index) {
        long value = distinctValues > 0 ? index % distinctValues : index;
        return new Row(index, "key-" + (index % keys), value);
    }

    /**
     * @param index the row counter
     * @return whether row {@code index} is sent twice
     */
    public boolean duplicated(long index) {
        return duplicateEvery > 0 && (index + 1) % duplicateEvery == 0;
    }

    /**
     * Sends rows on schedule (rtm-tools-support's {@link Pacer}) for {@code duration}, then flushes the producer.
     *
     * @param producer where to send; not closed
     * @param topics the input topics, used round-robin; not empty
     * @param duration how long to send
     * @param stop polled between bursts; true ends the run early
     * @return what was sent
     */
    public Result run(Producer<String, String> producer, List<String> topics, Duration duration, BooleanSupplier stop) {
        Objects.requireNonNull(producer, "producer");
        if (topics.isEmpty()) {
            throw new IllegalArgumentException("topics must not be empty");
        }
        long count = (long) Math.floor(rowsPerSecond * duration.toNanos() / 1e9);
        double nanosPerRow = 1e9 / rowsPerSecond;
        long[] records = {0};
        Pacer pacer = new Pacer(Pacer.Ticker.SYSTEM, Duration.ofSeconds(1), Duration.ofMillis(1));
        Pacer.Result r = pacer.run(
                count,
                i -> (long) (i * nanosPerRow),
                (i, now) -> {
                    Row row = row(i);
                    String topic = topics.get((int) (i % topics.size()));
                    long ts = System.currentTimeMillis();
                    String value = Long.toString(row.value());
                    producer.send(new ProducerRecord<>(topic, null, ts, row.key(), value));
                    records[0]++;
                    if (duplicated(i)) {
                        producer.send(new ProducerRecord<>(topic, null, ts, row.key(), value));
                        records[0]++;
                    }
                },
                stop);
        producer.flush();
        return new Result(r.sent(), records[0], r.achievedRate(), r.fellBehind());
    }

    /** @return the configured rate */
    public double rowsPerSecond() {
        return rowsPerSecond;
    }

    /** Builds a {@link RateSource}; validated in {@link #build()}. */
    public static final class Builder {
        private double rowsPerSecond = 1;
        private int keys = 100;
        private long distinctValues;
        private int duplicateEvery;

        private Builder() {}

        /** @param rowsPerSecond rows per second, positive (Spark's {@code rowsPerSecond}) @return this */
        public Builder rowsPerSecond(double rowsPerSecond) {
            this.rowsPerSecond = rowsPerSecond;
            return this;
        }

        /** @param keys number of distinct keys, positive (default 100) @return this */
        public Builder keys(int keys) {
            this.keys = keys;
            return this;
        }

        /** @param distinctValues values wrap around at this count; 0 for an unbounded counter (default) @return this */
        public Builder distinctValues(long distinctValues) {
            this.distinctValues = distinctValues;
            return this;
        }

        /** @param every send every {@code every}-th row twice; 0 for never (default) @return this */
        public Builder duplicateEvery(int every) {
            this.duplicateEvery = every;
            return this;
        }

        /**
         * @return the source
         * @throws IllegalArgumentException on a bad option, naming it and its value
         */
        public RateSource build() {
            if (!(rowsPerSecond > 0) || Double.isInfinite(rowsPerSecond)) {
                throw new IllegalArgumentException("rowsPerSecond must be positive: " + rowsPerSecond);
            }
            if (keys < 1) {
                throw new IllegalArgumentException("keys must be positive: " + keys);
            }
            if (distinctValues < 0) {
                throw new IllegalArgumentException("distinctValues must not be negative: " + distinctValues);
            }
            if (duplicateEvery < 0) {
                throw new IllegalArgumentException("duplicateEvery must not be negative: " + duplicateEvery);
            }
            return new RateSource(this);
        }
    }
}
