package dev.rtmstreams.join;

import dev.rtmstreams.join.internals.DedupSupplier;
import dev.rtmstreams.processor.EventTimeExtractor;
import dev.rtmstreams.processor.ExecutionMode;
import dev.rtmstreams.processor.StoreBackend;
import java.time.Duration;
import org.apache.kafka.common.annotation.InterfaceStability;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;

/**
 * Drops duplicate records of a keyed stream with bounded state (Spark's {@code dropDuplicates} with a bound), built on
 * the {@code StatefulProcessor} state API ({@code TransformWithState}). The first record of an id is forwarded
 * unchanged (same key, value, timestamp, headers) as soon as it arrives; later records with the same id are dropped
 * while the id is remembered. Ids are scoped to the record key (the stream must be keyed so that duplicates land in
 * the same partition).
 *
 * <pre>{@code
 * // impressions keyed by impression_id, deduplicated within the watermark horizon (Spark's dropDuplicatesWithinWatermark)
 * KStream<String, Impression> unique = impressions.process(
 *     Deduplicate.<String, Impression>byKey()
 *         .withinWatermark((id, imp, ts) -> imp.getImpressionTime(), Duration.ofMinutes(5))
 *         .keySerde(Serdes.String()).valueSerde(impressionSerde).name("impression-dedup")
 *         .build(),
 *     Named.as("impression-dedup"));
 *
 * // clicks keyed by impression_id, deduplicated by click_id for 10 minutes of processing time
 * KStream<String, Click> uniqueClicks = clicks.process(
 *     Deduplicate.<String, Click, String>byId((impId, click) -> click.getClickId(), Serdes.String())
 *         .withinTtl(Duration.ofMinutes(10)).name("click-dedup").build());
 * }</pre>
 *
 * <p>Two bounds (exactly one must be chosen):
 * <ul>
 *   <li>{@link Builder#withinTtl(Duration)}: processing-time TTL ({@code TtlConfig}): an id is remembered for
 *       {@code ttl} of wall-clock time after its first record; duplicates do not extend it. Expired ids are removed by
 *       the state API's incremental TTL cleanup.</li>
 *   <li>{@link Builder#withinWatermark(EventTimeExtractor, Duration)}: event-time horizon, as Spark's
 *       {@code dropDuplicatesWithinWatermark}: watermark = max event time seen by the task - delay; an id is
 *       remembered while the watermark is below {@code eventTime(first) + delay} and forgotten once it reaches it
 *       (Spark evicts the state when {@code expiry <= watermark}), so a later row of the id is dropped while its first
 *       row's horizon is open and passes again from then on. A record whose event time is at or below the watermark
 *       is late and dropped (Spark's rule, {@code eventTime <= watermark}); the state API's late-records metric counts
 *       those strictly below it.</li>
 * </ul>
 * Both work under the real-time and the micro-batch contract (in micro-batch, duplicates within one batch are
 * dropped too, keeping the first in arrival order).
 */
@InterfaceStability.Evolving
public final class Deduplicate {

    private Deduplicate() {}

    /**
     * Extracts the deduplication id of a record.
     *
     * @param <K> key type
     * @param <V> value type
     * @param <ID> id type
     */
    @FunctionalInterface
    public interface IdExtractor<K, V, ID> {
        /**
         * @param key the record key, never null
         * @param value the record value, never null
         * @return the id; must not be null
         */
        ID extract(K key, V value);
    }

    /**
     * Deduplicates by record key: the first record of each key passes.
     *
     * @param <K> key type
     * @param <V> value type
     * @return a builder
     */
    public static <K, V> Builder<K, V, K> byKey() {
        return new Builder<>(null, null);
    }

    /**
     * Deduplicates by an id taken from each record, scoped to the record key (e.g. clicks keyed by impression id,
     * deduplicated by click id).
     *
     * @param idExtractor extracts the id
     * @param idSerde serde of the id (state is keyed by it)
     * @param <K> key type
     * @param <V> value type
     * @param <ID> id type
     * @return a builder
     * @throws IllegalArgumentException when an argument is null
     */
    public static <K, V, ID> Builder<K, V, ID> byId(IdExtractor<K, V, ID> idExtractor, Serde<ID> idSerde) {
        if (idExtractor == null || idSerde == null) {
            throw new IllegalArgumentException("idExtractor and idSerde are required: " + idExtractor + ", " + idSerde);
        }
        return new Builder<>(idExtractor, idSerde);
    }

    /**
     * Builder of a deduplication operator. Validated in {@link #build()}.
     *
     * @param <K> key type
     * @param <V> value type
     * @param <ID> id type
     */
    public static final class Builder<K, V, ID> {
        private final IdExtractor<K, V, ID> idExtractor;
        private final Serde<ID> idSerde;
        private Duration ttl;
        private EventTimeExtractor<K, V> eventTime;
        private Duration watermarkDelay;
        private Serde<K> keySerde;
        private Serde<V> valueSerde;
        private String name = "dedup";
        private StoreBackend storeBackend = StoreBackend.ROCKS_DB;
        private ExecutionMode executionMode;

        private Builder(IdExtractor<K, V, ID> idExtractor, Serde<ID> idSerde) {
            this.idExtractor = idExtractor;
            this.idSerde = idSerde;
        }

        /** @param ttl how long (processing time) an id is remembered after its first record; positive @return this */
        public Builder<K, V, ID> withinTtl(Duration ttl) {
            this.ttl = ttl;
            return this;
        }

        /**
         * @param eventTime event time of a record
         * @param delay watermark delay and dedup horizon; zero or positive
         * @return this
         */
        public Builder<K, V, ID> withinWatermark(EventTimeExtractor<K, V> eventTime, Duration delay) {
            this.eventTime = eventTime;
            this.watermarkDelay = delay;
            return this;
        }

        /** @param keySerde serde of the record key (default: the application's default key serde) @return this */
        public Builder<K, V, ID> keySerde(Serde<K> keySerde) {
            this.keySerde = keySerde;
            return this;
        }

        /**
         * @param valueSerde serde of the record value, used only by the micro-batch buffer (default: the
         *     application's default value serde)
         * @return this
         */
        public Builder<K, V, ID> valueSerde(Serde<V> valueSerde) {
            this.valueSerde = valueSerde;
            return this;
        }

        /** @param name operator name, prefix of its store (default {@code dedup}); unique per topology @return this */
        public Builder<K, V, ID> name(String name) {
            this.name = name;
            return this;
        }

        /** @param backend RocksDB (default) or in-memory @return this */
        public Builder<K, V, ID> storeBackend(StoreBackend backend) {
            this.storeBackend = backend;
            return this;
        }

        /** @param mode execution contract (default: {@code rtm.execution.mode}, else real-time) @return this */
        public Builder<K, V, ID> executionMode(ExecutionMode mode) {
            this.executionMode = mode;
            return this;
        }

        /**
         * @return a processor supplier for {@code KStream#process} (or {@code Topology#addProcessor}); it declares
         *     its own store
         * @throws IllegalArgumentException when neither or both bounds are set, or a value is invalid
         */
        public ProcessorSupplier<K, V, K, V> build() {
            if ((ttl == null) == (eventTime == null)) {
                throw new IllegalArgumentException("exactly one of withinTtl or withinWatermark must be set: ttl=" + ttl
                        + ", watermarkDelay=" + watermarkDelay);
            }
            if (ttl != null && (ttl.isZero() || ttl.isNegative())) {
                throw new IllegalArgumentException("ttl must be positive: " + ttl);
            }
            if (eventTime != null && (watermarkDelay == null || watermarkDelay.isNegative())) {
                throw new IllegalArgumentException("watermark delay must be zero or positive: " + watermarkDelay);
            }
            if (name == null || !name.matches("[a-zA-Z0-9._-]+")) {
                throw new IllegalArgumentException("name must be non-empty and use only [a-zA-Z0-9._-]: " + name);
            }
            if (storeBackend == null) {
                throw new IllegalArgumentException("storeBackend must not be null");
            }
            return new DedupSupplier<>(
                    name,
                    idExtractor,
                    idSerde,
                    ttl,
                    eventTime,
                    watermarkDelay,
                    keySerde,
                    valueSerde,
                    storeBackend,
                    executionMode);
        }
    }
}
