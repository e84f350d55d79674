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
import dev.rtmstreams.processor.spi.Watermarks;
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
 * processing-time TTL or by the watermark, as Spark's {@code dropDuplicatesWithinWatermark}
 * ({@code StreamingDeduplicationWithinWatermarkExec}): the state of an id stores {@code expiry = eventTime + delay} of
 * its first row and is gone once {@code watermark >= expiry} (Spark evicts state whose expiry is at or below the
 * watermark), and a row at or below the watermark is late and dropped. Both rules are applied here, not left to the
 * state API's timers and late filter, so they hold whatever boundaries those use: the event-time timer at
 * {@code expiry} only removes state that is already ignored (it fires at {@code watermark >= expiry} when timers fire
 * at or below the watermark, one millisecond of watermark later under Spark's strict timer rule).
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
            long rowTime = ttl != null ? 0L : eventTime.extract(key, row.value(), row.timestamp());
            if (ttl == null && watermark != 0 && Watermarks.isLate(rowTime, watermark)) {
                // Late (Spark: event time at or below the watermark). The state API already drops such rows, with
                // the same rule, and counts them in its late-records metric; this check keeps the deduplication
                // correct on its own. (0 = no watermark yet.)
                continue;
            }
            ID id = idExtractor == null ? null : idExtractor.extract(key, row.value());
            if (idExtractor != null && id == null) {
                throw new IllegalArgumentException("Deduplicate id extractor returned null for key " + key);
            }
            Long expiry = idExtractor == null ? seenKey.getOption().orElse(null) : seenIds.getValue(id);
            if (expiry != null && (ttl != null || expiry > watermark)) {
                continue; // duplicate
            }
            long newExpiry;
            if (ttl != null) {
                newExpiry = timerValues.getCurrentProcessingTimeInMs() + ttl.toMillis();
            } else {
                newExpiry = Codec.saturatedAdd(rowTime, delayMs);
                getHandle().registerTimer(newExpiry);
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
        // Every id whose own timer (at its expiry) is due by now: at or before the one that fired.
        if (idExtractor == null) {
            seenKey.getOption().filter(e -> e <= firedAt).ifPresent(e -> seenKey.clear());
        } else {
            List<ID> expired = new ArrayList<>();
            Iterator<Map.Entry<ID, Long>> it = seenIds.iterator();
            while (it.hasNext()) {
                Map.Entry<ID, Long> e = it.next();
                if (e.getValue() <= firedAt) {
                    expired.add(e.getKey());
                }
            }
            expired.forEach(seenIds::removeKey);
        }
        return Collections.emptyIterator();
    }
}
