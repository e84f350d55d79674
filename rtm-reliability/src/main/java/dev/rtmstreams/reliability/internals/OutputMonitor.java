package dev.rtmstreams.reliability.internals;

import dev.rtmstreams.adattribution.avro.AttributedClick;
import dev.rtmstreams.adattribution.avro.LogRecord;
import dev.rtmstreams.adattribution.model.AvroSerde;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches the service's output topics with a read_committed consumer, independent of the load
 * generator's oracle: the arrival time of every output per partition (for recovery times and gaps)
 * and the outputs of probe records (ids starting with a probe prefix), counted by id.
 */
public final class OutputMonitor implements ProbeOutputs, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(OutputMonitor.class);

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final String probePrefix;
    private final String logRecordsTopic;
    private final Map<TopicPartition, LongList> arrivals = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> probeCounts = new ConcurrentHashMap<>();
    private final AtomicBoolean stop = new AtomicBoolean();
    private final AtomicLong total = new AtomicLong();
    private final Thread thread;
    private final AvroSerde<AttributedClick> clicks = AvroSerde.of(AttributedClick.class);
    private final AvroSerde<LogRecord> logRecords = AvroSerde.of(LogRecord.class);

    /**
     * Starts watching from the end of the topics.
     *
     * @param kafka the cluster and client settings
     * @param attributedClicksTopic the attribution output
     * @param logRecordsTopic the correlation output
     * @param probePrefix ids of probe records start with it
     */
    public OutputMonitor(
            KafkaConnection kafka, String attributedClicksTopic, String logRecordsTopic, String probePrefix) {
        this.probePrefix = probePrefix;
        this.logRecordsTopic = logRecordsTopic;
        consumer = kafka.tailConsumer(
                "chaos-output-monitor",
                Map.of(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 50),
                List.of(attributedClicksTopic, logRecordsTopic));
        thread = new Thread(this::loop, "chaos-output-monitor");
        thread.setDaemon(true);
        thread.start();
    }

    private void loop() {
        try {
            while (!stop.get()) {
                var records = consumer.poll(Duration.ofMillis(50));
                long now = System.nanoTime();
                for (ConsumerRecord<byte[], byte[]> r : records) {
                    total.incrementAndGet();
                    arrivals.computeIfAbsent(new TopicPartition(r.topic(), r.partition()), k -> new LongList())
                            .add(now);
                    String key = r.key() == null ? "" : new String(r.key(), java.nio.charset.StandardCharsets.UTF_8);
                    if (!key.startsWith(probePrefix)) {
                        continue;
                    }
                    try {
                        String id = r.topic().equals(logRecordsTopic)
                                ? "log:" + logRecords.decode(r.value()).getTransactionId() + ":"
                                        + logRecords.decode(r.value()).getAck().getAdId()
                                : "click:" + clicks.decode(r.value()).getClickId();
                        probeCounts
                                .computeIfAbsent(id, k -> new AtomicInteger())
                                .incrementAndGet();
                    } catch (RuntimeException e) {
                        LOG.warn(
                                "undecodable probe output at {}-{}@{}: {}",
                                r.topic(),
                                r.partition(),
                                r.offset(),
                                e.toString());
                    }
                }
            }
        } catch (RuntimeException e) {
            if (!stop.get()) {
                LOG.error("output monitor failed", e);
            }
        } finally {
            consumer.close(Duration.ofSeconds(5));
        }
    }

    /**
     * Returns how often a probe output was seen: {@code log:<transaction_id>:<ack ad_id>} or
     * {@code click:<click_id>}.
     *
     * @param id the probe output id
     * @return the count, 0 if never seen
     */
    @Override
    public int probeCount(String id) {
        AtomicInteger c = probeCounts.get(id);
        return c == null ? 0 : c.get();
    }

    /**
     * Waits until every id has been seen at least once.
     *
     * @param ids probe output ids
     * @param timeout the longest wait
     * @return whether all were seen
     * @throws InterruptedException when interrupted
     */
    @Override
    public boolean awaitProbes(List<String> ids, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (ids.stream().allMatch(id -> probeCount(id) > 0)) {
                return true;
            }
            Thread.sleep(50);
        }
        return ids.stream().allMatch(id -> probeCount(id) > 0);
    }

    /** @return outputs seen so far */
    public long total() {
        return total.get();
    }

    /**
     * Recovery after a fault: for each output partition with traffic before the fault, the time
     * from the fault to the end of the longest arrival gap that began no later than
     * {@code fault + slack}; the maximum over partitions. A partition without any arrival after the
     * fault counts as not recovered (-1 returned).
     *
     * @param faultNanos when the fault was injected ({@link System#nanoTime()})
     * @param slack outputs already in flight at the fault may still arrive this long after it
     * When no partition had output before the fault (the service lagged behind its input by more
     * than the time to the fault), it is the time from the fault to the first output after it.
     *
     * @return milliseconds from the fault until outputs flowed again on every partition; -1 if some
     *     partition never recovered (or nothing was ever output after the fault)
     */
    public long recoveryMillis(long faultNanos, Duration slack) {
        List<long[]> all = new ArrayList<>();
        for (LongList l : arrivals.values()) {
            all.add(l.snapshot());
        }
        return recoveryMillis(all, faultNanos, slack.toNanos());
    }

    /**
     * The computation of {@link #recoveryMillis(long, Duration)} on arrival times.
     *
     * @param partitions per output partition its ascending arrival times (nanos)
     * @param faultNanos the fault
     * @param slackNanos in-flight slack after the fault
     * @return the recovery in ms, or -1
     */
    static long recoveryMillis(List<long[]> partitions, long faultNanos, long slackNanos) {
        long worst = 0;
        boolean anyBefore = false;
        long firstAfter = Long.MAX_VALUE;
        long slackEnd = faultNanos + slackNanos;
        for (long[] a : partitions) {
            for (long t : a) {
                if (t > faultNanos) {
                    firstAfter = Math.min(firstAfter, t);
                    break;
                }
            }
            if (a.length == 0 || a[0] > faultNanos) {
                continue; // no traffic on this partition before the fault
            }
            anyBefore = true;
            long bestGap = -1;
            long end = -1;
            for (int i = 1; i < a.length; i++) {
                if (a[i] > faultNanos && a[i - 1] <= slackEnd && a[i] - a[i - 1] > bestGap) {
                    bestGap = a[i] - a[i - 1];
                    end = a[i];
                }
            }
            if (end < 0) {
                return -1;
            }
            worst = Math.max(worst, (end - faultNanos) / 1_000_000L);
        }
        if (!anyBefore) {
            return firstAfter == Long.MAX_VALUE ? -1 : (firstAfter - faultNanos) / 1_000_000L;
        }
        return worst;
    }

    /**
     * Returns the longest gap between consecutive outputs (all partitions merged) between two instants.
     *
     * @param fromNanos start
     * @param toNanos end
     * @return the gap in ms
     */
    public long longestGapMillis(long fromNanos, long toNanos) {
        TreeMap<Long, Boolean> all = new TreeMap<>();
        for (LongList l : arrivals.values()) {
            for (long t : l.snapshot()) {
                if (t >= fromNanos && t <= toNanos) {
                    all.put(t, Boolean.TRUE);
                }
            }
        }
        long prev = fromNanos;
        long gap = 0;
        for (long t : all.keySet()) {
            gap = Math.max(gap, t - prev);
            prev = t;
        }
        return gap / 1_000_000L;
    }

    @Override
    public void close() {
        stop.set(true);
        Threads.joinQuietly(thread, 10_000);
    }

    /** A growable long array, appended by one thread, snapshotted by others. */
    static final class LongList {
        private long[] values = new long[1024];
        private int size;

        synchronized void add(long v) {
            if (size == values.length) {
                values = java.util.Arrays.copyOf(values, size * 2);
            }
            values[size++] = v;
        }

        synchronized long[] snapshot() {
            return java.util.Arrays.copyOf(values, size);
        }
    }
}
