package dev.rtmstreams.adattribution.pipeline;

import dev.rtmstreams.adattribution.avro.AdAck;
import dev.rtmstreams.adattribution.avro.LogRecord;
import dev.rtmstreams.processor.ExpiredTimerInfo;
import dev.rtmstreams.processor.ListState;
import dev.rtmstreams.processor.OutputMode;
import dev.rtmstreams.processor.StatefulProcessor;
import dev.rtmstreams.processor.TimeMode;
import dev.rtmstreams.processor.TimerValues;
import dev.rtmstreams.processor.ValueState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import org.apache.kafka.common.serialization.Serdes;

/**
 * Seed 000's {@code LogRecordProcessor}: correlates ad requests with their acks per
 * {@code transaction_id}.
 *
 * <ul>
 *   <li>The first request of a transaction is kept in value state ({@code request}); a later
 *       duplicate request is ignored.</li>
 *   <li>An ack that arrives before its request waits in list state ({@code pendingAcks}).</li>
 *   <li>Every ack matched with the request emits one {@link LogRecord}, whichever arrives first:
 *       an ack after the request emits at once, a request emits one record per waiting ack.</li>
 *   <li>The window is counted in the records' own time, not in the service's: a key's state lives
 *       while records up to its first record's timestamp + correlation window can still come. A
 *       record of the key later than that finds the state expired (it is cleared first), so an ack
 *       more than a window after its request finds no request.</li>
 *   <li>When a key is first seen, a processing-time timer is registered at now + window. When it
 *       fires, the key's state is cleared only if this task has already seen a record later than
 *       the key's expiry; otherwise the input is behind (e.g. a backlog after an outage of the
 *       service) and the timer is set again, a window later. So an outage longer than the window
 *       loses no match whose ack was produced during it, and state stays bounded while input flows
 *       (while a partition receives nothing, its keys wait for its next record).</li>
 * </ul>
 *
 * <p>Correct under both execution contracts: rows of one call are processed in arrival order, so
 * a micro-batch holding request and acks together emits the same records as one call per row.
 * Requires {@link TimeMode#PROCESSING_TIME}.
 */
public final class LogRecordProcessor extends StatefulProcessor<String, CorrelationEvent, LogRecord> {

    private final long windowMs;
    /** The latest record timestamp this task has processed since it started (the task's stream time). */
    private long maxRecordTime = Long.MIN_VALUE;

    private ValueState<CorrelationEvent> request;
    private ListState<CorrelationEvent> pendingAcks;
    private ValueState<Long> expiry;

    /**
     * @param correlationWindow how long a key's state lives after it is first seen; positive
     * @throws IllegalArgumentException when the window is not positive
     */
    public LogRecordProcessor(Duration correlationWindow) {
        if (correlationWindow == null || correlationWindow.isZero() || correlationWindow.isNegative()) {
            throw new IllegalArgumentException("correlation window must be positive: " + correlationWindow);
        }
        this.windowMs = correlationWindow.toMillis();
    }

    @Override
    public void init(OutputMode outputMode, TimeMode timeMode) {
        if (timeMode != TimeMode.PROCESSING_TIME) {
            throw new IllegalArgumentException("LogRecordProcessor needs TimeMode.PROCESSING_TIME, got " + timeMode);
        }
        request = getHandle().getValueState("request", CorrelationEvent.serde());
        pendingAcks = getHandle().getListState("pendingAcks", CorrelationEvent.serde());
        expiry = getHandle().getValueState("expiry", Serdes.Long());
    }

    @Override
    public Iterator<LogRecord> handleInputRows(String key, Iterator<CorrelationEvent> rows, TimerValues timerValues) {
        long now = timerValues.getCurrentProcessingTimeInMs();
        List<LogRecord> out = new ArrayList<>(1);
        while (rows.hasNext()) {
            CorrelationEvent event = rows.next();
            maxRecordTime = Math.max(maxRecordTime, event.recordTime());
            Long expiresAt = expiry.get();
            if (expiresAt != null && event.recordTime() > expiresAt) {
                clearKey(); // more than a window after the key's first record: its state has expired
                expiresAt = null;
            }
            if (expiresAt == null) {
                expiry.update(event.recordTime() + windowMs);
                getHandle().registerTimer(now + windowMs);
            }
            if (event.isRequest()) {
                if (request.exists()) {
                    continue; // duplicate request: the first one wins
                }
                request.update(event);
                if (pendingAcks.exists()) {
                    Iterator<CorrelationEvent> acks = pendingAcks.get();
                    while (acks.hasNext()) {
                        out.add(logRecord(key, event, acks.next(), now));
                    }
                    pendingAcks.clear();
                }
            } else {
                if (request.exists()) {
                    out.add(logRecord(key, request.get(), event, now));
                } else {
                    pendingAcks.appendValue(event);
                }
            }
        }
        return out.isEmpty() ? Collections.emptyIterator() : out.iterator();
    }

    @Override
    public Iterator<LogRecord> handleExpiredTimer(
            String key, TimerValues timerValues, ExpiredTimerInfo expiredTimerInfo) {
        Long expiresAt = expiry.get();
        if (expiresAt == null) {
            return Collections.emptyIterator(); // cleared already (a record after its expiry came first)
        }
        if (maxRecordTime > expiresAt) {
            clearKey();
        } else {
            // the input has not reached the key's expiry yet (e.g. a backlog after an outage): look again later;
            // meanwhile a record of the key after its expiry clears it on arrival
            getHandle().registerTimer(timerValues.getCurrentProcessingTimeInMs() + windowMs);
        }
        return Collections.emptyIterator();
    }

    /** Clears the key's state and its pending timers (the firing one, if any, is deleted after its handler). */
    private void clearKey() {
        request.clear();
        pendingAcks.clear();
        expiry.clear();
        List<Long> timers = new ArrayList<>();
        getHandle().listTimers().forEachRemaining(timers::add);
        timers.forEach(getHandle()::deleteTimer);
    }

    private static LogRecord logRecord(String key, CorrelationEvent request, CorrelationEvent ackEvent, long now) {
        AdAck ack = ackEvent.ack();
        return LogRecord.newBuilder()
                .setTransactionId(key)
                .setRequest(request.request())
                .setAck(ack)
                .setRequestRecordTime(Times.wire(request.recordTime()))
                .setAckRecordTime(Times.wire(ackEvent.recordTime()))
                .setMatchedAt(Times.wire(now))
                .build();
    }
}
