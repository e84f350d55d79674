package dev.rtmstreams.adattribution.workload;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Computes the outputs the system under test must produce from the input events, in send order.
 * A pure function: no clock, no I/O.
 *
 * <p>Click attribution (the service's contract, docs/service.md): events are processed in
 * send order. The global watermark is {@code min(max impression time, max click time) - delay},
 * defined once both sides have been seen (before that nothing is late). An impression or click
 * whose event time is at or below the watermark at its arrival is late and dropped (Spark's rule; it
 * still counts towards the maxima). Impressions are deduplicated by impression_id and clicks by
 * click_id (first copy wins). A click matches the impression with its impression_id when
 * {@code impression_time <= click_time <= impression_time + window} (both ends inclusive), whichever
 * arrives first; exactly one AttributedClick per distinct matching click. State eviction is not
 * modelled: the generator keeps partners seconds apart, far inside every eviction horizon.
 *
 * <p>Request/ack correlation: per transaction_id the first request is kept; acks arriving before
 * it wait; every ack matched with the request gives one LogRecord, completed by whichever came
 * last. The processing-time correlation window is not modelled: the generator sends partners
 * within a second, so it cannot expire in between; orphans have no partner at all.
 *
 * <p>Echo: every click sent is expected once per send.
 */
public final class Oracle {

    private final Duration window;
    private final Duration watermarkDelay;

    /**
     * Creates an oracle.
     *
     * @param window the attribution window; not negative
     * @param watermarkDelay the watermark delay of both sides; not negative
     * @throws IllegalArgumentException if a duration is negative
     */
    public Oracle(Duration window, Duration watermarkDelay) {
        this.window = Objects.requireNonNull(window, "window");
        this.watermarkDelay = Objects.requireNonNull(watermarkDelay, "watermarkDelay");
        if (window.isNegative() || watermarkDelay.isNegative()) {
            throw new IllegalArgumentException(
                    "window and watermarkDelay must not be negative: " + window + ", " + watermarkDelay);
        }
    }

    /** What the oracle found, besides the expected outputs. */
    public record Result(List<Expected> expected, long lateDropped, long duplicatesDropped) {}

    /**
     * Computes the expected outputs of the service: attributed clicks and log records.
     *
     * @param events the events in send order; not null
     * @return the expected outputs in completion order plus drop counts
     */
    public Result service(List<Event> events) {
        List<Expected> out = new ArrayList<>();
        long[] counters = new long[2];
        attribution(events, out, counters);
        correlation(events, out);
        return new Result(out, counters[0], counters[1]);
    }

    /**
     * Computes the expected outputs of the click attribution only (the kafka-streams-join peer).
     *
     * @param events the events in send order; not null
     * @return the expected attributed clicks plus drop counts
     */
    public Result attributionOnly(List<Event> events) {
        List<Expected> out = new ArrayList<>();
        long[] counters = new long[2];
        attribution(events, out, counters);
        return new Result(out, counters[0], counters[1]);
    }

    /**
     * Computes the expected outputs of the echo pass-through: one per click sent.
     *
     * @param events the events in send order; not null
     * @return one expected echo per click
     */
    public static Result echo(List<Event> events) {
        List<Expected> out = new ArrayList<>();
        for (Event e : events) {
            if (e.kind() == EventKind.CLICK) {
                out.add(new Expected(
                        OutputKind.ECHO,
                        e.ref(),
                        e.id(),
                        Fingerprints.click(e.id(), e.ref(), e.userId(), e.eventTime()),
                        e.seq()));
            }
        }
        return new Result(out, 0, 0);
    }

    private void attribution(List<Event> events, List<Expected> out, long[] counters) {
        long windowMs = window.toMillis();
        long delayMs = watermarkDelay.toMillis();
        long maxImpression = Long.MIN_VALUE;
        long maxClick = Long.MIN_VALUE;
        Map<String, Event> impressions = new HashMap<>();
        Map<String, List<Event>> clicksByImpression = new HashMap<>();
        Set<String> clickIds = new HashSet<>();
        for (Event e : events) {
            if (e.kind() != EventKind.IMPRESSION && e.kind() != EventKind.CLICK) {
                continue;
            }
            boolean bothSeen = maxImpression != Long.MIN_VALUE && maxClick != Long.MIN_VALUE;
            long watermark = bothSeen ? Math.min(maxImpression, maxClick) - delayMs : Long.MIN_VALUE;
            if (e.kind() == EventKind.IMPRESSION) {
                maxImpression = Math.max(maxImpression, e.eventTime());
            } else {
                maxClick = Math.max(maxClick, e.eventTime());
            }
            if (bothSeen && e.eventTime() <= watermark) {
                counters[0]++;
                continue;
            }
            if (e.kind() == EventKind.IMPRESSION) {
                if (impressions.putIfAbsent(e.id(), e) != null) {
                    counters[1]++;
                    continue;
                }
                for (Event click : clicksByImpression.getOrDefault(e.id(), List.of())) {
                    if (matches(e, click, windowMs)) {
                        out.add(attributed(e, click, e.seq()));
                    }
                }
            } else {
                if (!clickIds.add(e.id())) {
                    counters[1]++;
                    continue;
                }
                clicksByImpression
                        .computeIfAbsent(e.ref(), k -> new ArrayList<>())
                        .add(e);
                Event impression = impressions.get(e.ref());
                if (impression != null && matches(impression, e, windowMs)) {
                    out.add(attributed(impression, e, e.seq()));
                }
            }
        }
    }

    private static boolean matches(Event impression, Event click, long windowMs) {
        return impression.eventTime() <= click.eventTime() && click.eventTime() <= impression.eventTime() + windowMs;
    }

    private static Expected attributed(Event impression, Event click, long completingSeq) {
        return new Expected(
                OutputKind.ATTRIBUTED_CLICK,
                impression.id(),
                click.id(),
                Fingerprints.attributedClick(
                        click.id(),
                        impression.id(),
                        click.userId(),
                        impression.campaignId(),
                        impression.adId(),
                        impression.publisherId(),
                        impression.bidMicros(),
                        impression.eventTime(),
                        click.eventTime()),
                completingSeq);
    }

    private static void correlation(List<Event> events, List<Expected> out) {
        Map<String, Event> requests = new HashMap<>();
        Map<String, List<Event>> waitingAcks = new HashMap<>();
        for (Event e : events) {
            if (e.kind() == EventKind.REQUEST) {
                if (requests.putIfAbsent(e.id(), e) != null) {
                    continue;
                }
                List<Event> waiting = waitingAcks.remove(e.id());
                if (waiting != null) {
                    for (Event ack : waiting) {
                        out.add(logRecord(e, ack, e.seq()));
                    }
                }
            } else if (e.kind() == EventKind.ACK) {
                Event request = requests.get(e.id());
                if (request != null) {
                    out.add(logRecord(request, e, e.seq()));
                } else {
                    waitingAcks.computeIfAbsent(e.id(), k -> new ArrayList<>()).add(e);
                }
            }
        }
    }

    private static Expected logRecord(Event request, Event ack, long completingSeq) {
        return new Expected(
                OutputKind.LOG_RECORD,
                request.id(),
                Fingerprints.logRecordIdentity(request.id(), ack.status(), ack.eventTime()),
                Fingerprints.logRecord(
                        request.id(),
                        request.adId(),
                        request.campaignId(),
                        request.userId(),
                        request.bidMicros(),
                        request.eventTime(),
                        ack.adId(),
                        ack.status(),
                        ack.eventTime()),
                completingSeq);
    }
}
