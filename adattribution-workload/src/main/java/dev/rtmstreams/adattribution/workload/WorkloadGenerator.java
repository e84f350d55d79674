package dev.rtmstreams.adattribution.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;

/**
 * Generates the events of a run from a {@link WorkloadConfig} and a start time. Pure and
 * deterministic: the same configuration and start time give the same list.
 *
 * <p>The run is cut into {@code eventCount} send slots, evenly spaced at the target rate; slot
 * {@code i} is sent at {@code i / rate} seconds and an ordinary event sent there has event time
 * {@code startTime + i / rate}. Partners (clicks of an impression, acks of a request, the request
 * of an ack sent first, duplicates) are queued for a slot at most {@code partnerSendLag} later;
 * a queued event takes the next slot it is due at, otherwise a new base event (impression or
 * transaction) is drawn. Partners that would fall after the last slot are not sent.
 *
 * <p>Click delays are compressed: a click's event time is its impression's time plus a delay from
 * the configured distribution (up to the window, or outside it), but the click is sent within
 * {@code partnerSendLag} of the impression. A short run thus exercises the whole window; a click's
 * event time may lie up to window + 30 s ahead of the stream, which never makes anything late
 * because the global watermark is the minimum of both sides.
 */
public final class WorkloadGenerator {

    private static final String[] STATUSES = {"delivered", "clicked", "skipped"};
    private static final long OUTSIDE_SPREAD_MS = 30_000;
    // shared strings keep a run of millions of events small in memory
    private static final String[] USERS = names("u", 100_000);
    private static final String[] CAMPAIGNS = names("cmp", 50);
    private static final String[] ADS = names("ad", 500);
    private static final String[] PUBLISHERS = names("pub", 100);

    private final WorkloadConfig config;
    private final long startTime;
    private final SplittableRandom random;
    private final long lagSlots;
    private final PriorityQueue<Pending> pending = new PriorityQueue<>();
    private long pendingOrder;
    private long impressions;
    private long clicks;
    private long transactions;
    private long orphans;
    private long clicksSent;

    private WorkloadGenerator(WorkloadConfig config, long startTime) {
        this.config = config;
        this.startTime = startTime;
        this.random = new SplittableRandom(config.seed());
        this.lagSlots =
                Math.max(1, (long) (config.rate() * config.partnerSendLag().toNanos() / 1e9));
    }

    /**
     * Generates all events of a run.
     *
     * @param config the workload; not null
     * @param startTimeMillis event time of slot 0, epoch milliseconds
     * @return the events in send order ({@code seq} = index); never null
     */
    public static List<Event> generate(WorkloadConfig config, long startTimeMillis) {
        return new WorkloadGenerator(config, startTimeMillis).run();
    }

    /**
     * Returns the scheduled send offset of a slot in microseconds.
     *
     * @param slot the slot index
     * @param rate events per second
     * @return offset in microseconds
     */
    public static long slotOffsetMicros(long slot, double rate) {
        return (long) Math.floor(slot * 1_000_000.0 / rate);
    }

    private List<Event> run() {
        long n = config.eventCount();
        if (n > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("too many events for one run: " + n);
        }
        List<Event> out = new ArrayList<>((int) n);
        for (long slot = 0; slot < n; slot++) {
            long offset = slotOffsetMicros(slot, config.rate());
            Event event;
            Pending head = pending.peek();
            if (head != null && head.slot <= slot) {
                event = pending.poll().event;
            } else {
                event = newBaseEvent(slot, startTime + offset / 1000);
            }
            if (event.kind() == EventKind.CLICK) {
                clicksSent++;
            }
            out.add(event.at(slot, offset));
        }
        return out;
    }

    private Event newBaseEvent(long slot, long now) {
        if (random.nextDouble() < config.requestShare()) {
            return newTransaction(slot, now);
        }
        if (config.lateFraction() > 0
                && clicksSent >= config.lateWarmupClicks()
                && now - startTime >= config.lateWarmup().toMillis()
                && random.nextDouble() < config.lateFraction()) {
            return newLatePair(slot, now);
        }
        return newImpression(slot, now);
    }

    private Event newImpression(long slot, long now) {
        String impressionId = config.idPrefix() + "i" + (impressions++);
        long time = now;
        EventTag tag = EventTag.NORMAL;
        if (random.nextDouble() < config.outOfOrderFraction()) {
            long maxShift = config.watermarkDelay().minus(config.safetyMargin()).toMillis();
            time = now - (1000 + random.nextLong(Math.max(1, maxShift - 1000)));
            tag = EventTag.OUT_OF_ORDER;
        }
        String user = USERS[random.nextInt(USERS.length)];
        Event impression = Event.impression(
                impressionId,
                time,
                user,
                CAMPAIGNS[random.nextInt(CAMPAIGNS.length)],
                ADS[random.nextInt(ADS.length)],
                PUBLISHERS[random.nextInt(PUBLISHERS.length)],
                1_000 + random.nextLong(5_000_000),
                tag);
        if (random.nextDouble() < config.duplicateFraction()) {
            schedule(slot, impression.tagged(EventTag.DUPLICATE));
        }
        double c = config.clicksPerImpression();
        while (c > 0) {
            if (random.nextDouble() < Math.min(1.0, c)) {
                newClick(slot, impression);
            }
            c -= 1.0;
        }
        return impression;
    }

    private void newClick(long slot, Event impression) {
        String clickId = config.idPrefix() + "c" + (clicks++);
        long windowMs = config.attributionWindow().toMillis();
        Event click;
        if (random.nextDouble() < config.orphanFraction()) {
            String missing = config.idPrefix() + "o" + (orphans++);
            click = Event.click(
                    clickId,
                    missing,
                    impression.eventTime() + random.nextLong(windowMs + 1),
                    impression.userId(),
                    EventTag.ORPHAN);
        } else {
            double r = random.nextDouble();
            long delay;
            EventTag tag;
            if (r < config.outsideWindowFraction()) {
                long beyond = random.nextInt(4) == 0 ? 1 : 1 + random.nextLong(OUTSIDE_SPREAD_MS);
                delay = random.nextBoolean() ? -beyond : windowMs + beyond;
                tag = EventTag.OUTSIDE_WINDOW;
            } else if (r < config.outsideWindowFraction() + config.edgeFraction()) {
                delay = random.nextBoolean() ? 0 : windowMs;
                tag = EventTag.WINDOW_EDGE;
            } else {
                delay = Math.min(windowMs, config.clickDelay().sampleMillis(random));
                tag = EventTag.NORMAL;
            }
            click = Event.click(clickId, impression.id(), impression.eventTime() + delay, impression.userId(), tag);
        }
        long clickSlot = schedule(slot, click);
        if (random.nextDouble() < config.duplicateFraction()) {
            schedule(clickSlot, click.tagged(EventTag.DUPLICATE));
        }
    }

    private Event newLatePair(long slot, long now) {
        long behind = config.watermarkDelay()
                        .plus(config.attributionWindow())
                        .plus(config.safetyMargin())
                        .toMillis()
                + random.nextLong(60_000);
        String impressionId = config.idPrefix() + "i" + (impressions++);
        String user = USERS[random.nextInt(USERS.length)];
        Event impression = Event.impression(
                impressionId,
                now - behind,
                user,
                CAMPAIGNS[random.nextInt(CAMPAIGNS.length)],
                ADS[random.nextInt(ADS.length)],
                PUBLISHERS[random.nextInt(PUBLISHERS.length)],
                1_000 + random.nextLong(5_000_000),
                EventTag.LATE);
        Event click = Event.click(
                config.idPrefix() + "c" + (clicks++),
                impressionId,
                impression.eventTime()
                        + random.nextLong(config.attributionWindow().toMillis() + 1),
                user,
                EventTag.LATE);
        schedule(slot, click);
        return impression;
    }

    private Event newTransaction(long slot, long now) {
        String txn = config.idPrefix() + "t" + (transactions++);
        String user = USERS[random.nextInt(USERS.length)];
        String ad = ADS[random.nextInt(ADS.length)];
        Event request = Event.request(
                txn,
                now,
                user,
                CAMPAIGNS[random.nextInt(CAMPAIGNS.length)],
                ad,
                1_000 + random.nextLong(5_000_000),
                EventTag.NORMAL);
        int ackCount = 1 + random.nextInt(config.maxAcksPerRequest());
        List<Event> acks = new ArrayList<>(ackCount);
        long delivery = now;
        for (int j = 0; j < ackCount; j++) {
            delivery += 1 + random.nextLong(2_000);
            acks.add(Event.ack(txn, delivery, ad, STATUSES[random.nextInt(STATUSES.length)], EventTag.NORMAL));
        }
        if (random.nextDouble() < config.orphanFraction()) {
            if (random.nextBoolean()) {
                return request.tagged(EventTag.ORPHAN);
            }
            for (int j = 1; j < acks.size(); j++) {
                schedule(slot, acks.get(j).tagged(EventTag.ORPHAN));
            }
            return acks.get(0).tagged(EventTag.ORPHAN);
        }
        if (random.nextDouble() < config.ackFirstFraction()) {
            schedule(slot, request);
            for (int j = 1; j < acks.size(); j++) {
                schedule(slot, acks.get(j));
            }
            return acks.get(0).tagged(EventTag.ACK_FIRST);
        }
        for (Event ack : acks) {
            schedule(slot, ack);
        }
        return request;
    }

    private static String[] names(String prefix, int n) {
        String[] out = new String[n];
        for (int i = 0; i < n; i++) {
            out[i] = prefix + i;
        }
        return out;
    }

    private long schedule(long slot, Event event) {
        long at = slot + 1 + random.nextLong(lagSlots);
        pending.add(new Pending(at, pendingOrder++, event));
        return at;
    }

    private static final class Pending implements Comparable<Pending> {
        final long slot;
        final long order;
        final Event event;

        Pending(long slot, long order, Event event) {
            this.slot = slot;
            this.order = order;
            this.event = event;
        }

        @Override
        public int compareTo(Pending o) {
            int c = Long.compare(slot, o.slot);
            return c != 0 ? c : Long.compare(order, o.order);
        }
    }
}
