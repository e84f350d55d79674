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
 *       fires, the key's state is cleared only if this task's inputs are past the key's expiry: one
 *       of them (requests or acks) has delivered a record later than it, and each has either done so
 *       too or been silent for longer than a window. Otherwise an input is behind (e.g. a backlog
 *       after an outage of the service, whose requests may be read well ahead of its acks) and the
 *       timer is set again, a window later. So an outage longer than the window loses no match
 *       whose ack was produced during it, and state stays bounded while input flows (while neither
 *       input delivers anything, keys wait for the next record).</li>
 * </ul>
 *
 * <p>Correct under both execution contracts: rows of one call are processed in arrival order, so
 * a micro-batch holding request and acks together emits the same records as one call per row.
 * Requires {@link TimeMode#PROCESSING_TIME}.
 */
public final class LogRecordProcessor extends StatefulProcessor<String, CorrelationEvent, LogRecord> {

    private final long windowMs;
    /** How far this task's requests input has come since the task started. */
    private final InputProgress requests = new InputProgress();
    /** How far this task's acks input has come since the task started. */
    private final InputProgress acks = new InputProgress();

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
        requests.started(now);
        acks.started(now);
        List<LogRecord> out = new ArrayList<>(1);
        while (rows.hasNext()) {
            CorrelationEvent event = rows.next();
            (event.isRequest() ? requests : acks).saw(event.recordTime(), now);
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
        long now = timerValues.getCurrentProcessingTimeInMs();
        if (inputsPast(expiresAt, now)) {
            clearKey();
        } else {
            // the input has not reached the key's expiry yet (e.g. a backlog after an outage): look again later;
            // meanwhile a record of the key after its expiry clears it on arrival
            getHandle().registerTimer(now + windowMs);
        }
        return Collections.emptyIterator();
    }

    /**
     * Whether this task's inputs are past a key's expiry: one input has delivered a record later than it, and the
     * other has too or has been silent for longer than a window (since its last record, or since the task started).
     */
    private boolean inputsPast(long expiresAt, long now) {
        requests.started(now);
        acks.started(now);
        boolean requestsPast = requests.maxRecordTime > expiresAt;
        boolean acksPast = acks.maxRecordTime > expiresAt;
        return (requestsPast || acksPast)
                && (requestsPast || requests.silentLongerThan(windowMs, now))
                && (acksPast || acks.silentLongerThan(windowMs, now));
    }

    /** One input of the task: its latest record time and when it last delivered a record (processing time). */
    private static final class InputProgress {
        private long maxRecordTime = Long.MIN_VALUE;
        private long lastSeenAt = Long.MIN_VALUE;

        void saw(long recordTime, long now) {
            maxRecordTime = Math.max(maxRecordTime, recordTime);
            lastSeenAt = now;
        }

        /** An input that has delivered nothing yet counts as seen when the task first looked at it. */
        void started(long now) {
            if (lastSeenAt == Long.MIN_VALUE) {
                lastSeenAt = now;
            }
        }

        boolean silentLongerThan(long windowMs, long now) {
            return now - lastSeenAt > windowMs;
        }
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
