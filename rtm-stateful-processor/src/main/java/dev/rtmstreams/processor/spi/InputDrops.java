package dev.rtmstreams.processor.spi;

import java.util.Objects;
import java.util.function.Supplier;
import org.apache.kafka.common.annotation.InterfaceStability;
import org.apache.kafka.common.metrics.Sensor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The drop accounting of one operator input, the same for every operator shell: a record dropped as late (event time
 * at or below the watermark, {@link Watermarks#isLate}) or by the watermark guard (event time too far ahead of the wall
 * clock) is counted, recorded in the operator's sensor and logged: each late record at debug, the first record too far
 * ahead and every 10 000th at warn. What else happens to a dropped record (a late-records topic, a dead letter) is the
 * operator's, after the call.
 *
 * <p>Sensors are asked for on the first drop of their kind, so an operator that never drops registers none when its
 * suppliers create them lazily.
 */
@InterfaceStability.Unstable
public final class InputDrops {

    private static final Logger LOG = LoggerFactory.getLogger(InputDrops.class);

    private final String operator;
    private final Supplier<Sensor> lateSensor;
    private final Supplier<Sensor> futureSensor;
    private Sensor late;
    private Sensor future;
    private long droppedLate;
    private long droppedFuture;

    /**
     * @param operator what the log lines name (e.g. "operator orders" or "interval join j (left side)"); not null
     * @param lateSensor the sensor of late records, asked for on the first one; not null
     * @param futureSensor the sensor of records too far ahead, asked for on the first one; not null
     */
    public InputDrops(String operator, Supplier<Sensor> lateSensor, Supplier<Sensor> futureSensor) {
        this.operator = Objects.requireNonNull(operator, "operator");
        this.lateSensor = Objects.requireNonNull(lateSensor, "lateSensor");
        this.futureSensor = Objects.requireNonNull(futureSensor, "futureSensor");
    }

    /**
     * Accounts for a record dropped as late.
     *
     * @param eventTime the record's event time
     * @param watermark the watermark it was behind
     */
    public void late(long eventTime, long watermark) {
        droppedLate++;
        if (late == null) {
            late = lateSensor.get();
        }
        late.record();
        if (LOG.isDebugEnabled()) {
            LOG.debug(
                    "{} dropped a late record: eventTime={} <= watermark={} ({} so far)",
                    operator,
                    eventTime,
                    watermark,
                    droppedLate);
        }
    }

    /**
     * Accounts for a record dropped by the watermark guard.
     *
     * @param eventTime the record's event time
     * @param now the wall-clock time it was compared with
     * @param maxSkewMs the guard's bound
     */
    public void tooFarAhead(long eventTime, long now, long maxSkewMs) {
        droppedFuture++;
        if (future == null) {
            future = futureSensor.get();
        }
        future.record();
        if (droppedFuture == 1 || droppedFuture % 10_000 == 0) {
            LOG.warn(
                    "{} dropped {} record(s) whose event time is more than {} ms ahead of the wall clock"
                            + " (latest: eventTime={}, now={}); they do not advance the watermark",
                    operator,
                    droppedFuture,
                    maxSkewMs,
                    eventTime,
                    now);
        }
    }

    /** @return records dropped as late so far */
    public long droppedLate() {
        return droppedLate;
    }

    /** @return records dropped by the watermark guard so far */
    public long droppedTooFarAhead() {
        return droppedFuture;
    }
}
