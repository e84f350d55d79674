package dev.rtmstreams.join.internals;

import dev.rtmstreams.join.Deduplicate;
import dev.rtmstreams.processor.EventTimeExtractor;
import dev.rtmstreams.processor.ExpiredTimerInfo;
import dev.rtmstreams.processor.MapState;
import dev.rtmstreams.processor.OutputMode;
import dev.rtmstreams.processor.StatefulProcessor;
import dev.rtmstreams.processor.TimeMode;
import dev.rtmstreams.processor.TimerValues;
import dev.rtmstreams.processor.TtlConfig;
import dev.rtmstreams.processor.ValueState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;

/**
 * Deduplication on the state API: a value state (by key) or a map state (by id) remembers seen ids, bounded by a
 * processing-time TTL or by event-time timers at {@code eventTime + delay + 1} (Spark's
 * {@code dropDuplicatesWithinWatermark}: state kept while {@code watermark <= eventTime + delay}).
 */
final class DedupProcessor<K, V, ID> extends StatefulProcessor<K, Stamped<V>, V> {

    private final Deduplicate.IdExtractor<K, V, ID> idExtractor;
    private final Serde<ID> idSerde;
    private final Duration ttl;
    private final EventTimeExtractor<K, V> eventTime;
    private final long delayMs;
    private ValueState<Long> seenKey;
    private MapState<ID, Long> seenIds;

    DedupProcessor(
            Deduplicate.IdExtractor<K, V, ID> idExtractor,
            Serde<ID> idSerde,
            Duration ttl,
            EventTimeExtractor<K, V> eventTime,
            Duration delay) {
        this.idExtractor = idExtractor;
        this.idSerde = idSerde;
        this.ttl = ttl;
        this.eventTime = eventTime;
        this.delayMs = delay == null ? 0L : delay.toMillis();
    }

    @Override
    public void init(OutputMode outputMode, TimeMode timeMode) {
        TtlConfig ttlConfig = ttl != null ? TtlConfig.of(ttl) : TtlConfig.NONE;
        if (idExtractor == null) {
            seenKey = getHandle().getValueState("seen", Serdes.Long(), ttlConfig);
        } else {
            seenIds = getHandle().getMapState("seen-ids", idSerde, Serdes.Long(), ttlConfig);
        }
    }

    @Override
    public Iterator<V> handleInputRows(K key, Iterator<Stamped<V>> rows, TimerValues timerValues) {
        List<V> out = null;
        long watermark = timerValues.getCurrentWatermarkInMs();
        while (rows.hasNext()) {
            Stamped<V> row = rows.next();
            ID id = idExtractor == null ? null : idExtractor.extract(key, row.value());
            if (idExtractor != null && id == null) {
                throw new IllegalArgumentException("Deduplicate id extractor returned null for key " + key);
            }
            Long expiry = idExtractor == null ? seenKey.getOption().orElse(null) : seenIds.getValue(id);
            if (expiry != null && (ttl != null || expiry >= watermark)) {
                continue; // duplicate
            }
            long newExpiry;
            if (ttl != null) {
                newExpiry = timerValues.getCurrentProcessingTimeInMs() + ttl.toMillis();
            } else {
                newExpiry = eventTime.extract(key, row.value(), row.timestamp()) + delayMs;
                getHandle().registerTimer(newExpiry == Long.MAX_VALUE ? newExpiry : newExpiry + 1);
            }
            if (idExtractor == null) {
                seenKey.update(newExpiry);
            } else {
                seenIds.updateValue(id, newExpiry);
            }
            if (out == null) {
                out = new ArrayList<>(1);
            }
            out.add(row.value());
        }
        return out == null ? Collections.emptyIterator() : out.iterator();
    }

    @Override
    public Iterator<V> handleExpiredTimer(K key, TimerValues timerValues, ExpiredTimerInfo expiredTimerInfo) {
        long firedAt = expiredTimerInfo.getExpiryTimeInMs();
        if (idExtractor == null) {
            seenKey.getOption().filter(e -> e < firedAt).ifPresent(e -> seenKey.clear());
        } else {
            List<ID> expired = new ArrayList<>();
            Iterator<Map.Entry<ID, Long>> it = seenIds.iterator();
            while (it.hasNext()) {
                Map.Entry<ID, Long> e = it.next();
                if (e.getValue() < firedAt) {
                    expired.add(e.getKey());
                }
            }
            expired.forEach(seenIds::removeKey);
        }
        return Collections.emptyIterator();
    }
}
