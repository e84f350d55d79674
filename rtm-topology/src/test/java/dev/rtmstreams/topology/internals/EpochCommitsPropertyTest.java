package dev.rtmstreams.topology.internals;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.processor.spi.PreCommitTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * The commit cycle and epoch state machine of a stream thread ({@link EpochCommits}) against a naive model, over
 * random sequences of commit cycles in the order Kafka Streams 4.4 runs them (before-commit store writes, a producer
 * flush per task, the offsets, EndTxn), each cut short at a random point: an abort (the transaction is aborted, its
 * offsets never committed), a crash (kill -9: the thread's state is gone, a new one starts), a prepared commit with
 * nothing to commit, or no fault. Checked: every successful commit is counted in exactly one epoch (or in the open one
 * when the thread crashes), an epoch reports exactly the offsets of its commits (latest per partition) and never
 * those of an aborted or crashed cycle, epochs close exactly when the interval has passed, and the parts add up.
 */
class EpochCommitsPropertyTest {

    private static final TopicPartition[] PARTITIONS = {
        new TopicPartition("in", 0), new TopicPartition("in", 1), new TopicPartition("other", 0)
    };

    /** Where a cycle stops. */
    enum Stop {
        COMMITTED,
        ABORT_AFTER_FLUSH,
        ABORT_AFTER_OFFSETS,
        ABORT_IN_END_TXN,
        CRASH_AFTER_PRE_COMMIT,
        CRASH_AFTER_FLUSH,
        CRASH_AFTER_OFFSETS,
        CRASH_AFTER_COMMIT,
        NOTHING_TO_COMMIT
    }

    /**
     * One commit cycle: the gap before it (with or without an idle poll at its end), whether stores wrote before the
     * commit, tasks flushed, offsets, stop point.
     */
    record Cycle(
            int gapMs, boolean idlePoll, boolean preCommit, int tasks, int partitionMask, int partMicros, Stop stop) {}

    @Provide
    Arbitrary<List<Cycle>> cycles() {
        Arbitrary<Cycle> cycle = Combinators.combine(
                        Arbitraries.integers().between(0, 400),
                        Arbitraries.of(true, false),
                        Arbitraries.of(true, false),
                        Arbitraries.integers().between(1, 3),
                        Arbitraries.integers().between(1, 7),
                        Arbitraries.integers().between(1, 5_000),
                        Arbitraries.frequencyOf(
                                net.jqwik.api.Tuple.of(10, Arbitraries.just(Stop.COMMITTED)),
                                net.jqwik.api.Tuple.of(1, Arbitraries.of(Stop.class))))
                .as(Cycle::new);
        return cycle.list().ofMaxSize(60);
    }

    /** The expected closed epoch. */
    record Epoch(
            long startMs, long endMs, Map<TopicPartition, Long> offsets, long commits, long aborts, long flushUs) {}

    /** The model: the open epoch of one stream thread, and the epochs it is expected to close. */
    static final class Model {
        final int epochIntervalMs;
        final List<Epoch> closed = new ArrayList<>();
        long epochStart;
        Map<TopicPartition, Long> offsets = new HashMap<>();
        long commits;
        long aborts;
        long flushNanos;
        long committedTotal;
        long countedTotal;

        Model(int epochIntervalMs, long startMs) {
            this.epochIntervalMs = epochIntervalMs;
            this.epochStart = startMs;
        }

        /** A commit succeeded at {@code nowMs}; returns whether the epoch closes. */
        boolean committed(Map<TopicPartition, OffsetAndMetadata> committed, long cycleFlushNanos, long nowMs) {
            committedTotal++;
            commits++;
            flushNanos += cycleFlushNanos;
            for (Map.Entry<TopicPartition, OffsetAndMetadata> o : committed.entrySet()) {
                offsets.put(o.getKey(), o.getValue().offset());
            }
            if (nowMs - epochStart < epochIntervalMs) {
                return false;
            }
            closed.add(new Epoch(epochStart, nowMs, offsets, commits, aborts, flushNanos / commits / 1000));
            restart(nowMs);
            return true;
        }

        /** The thread polled nothing at {@code nowMs}; returns whether the epoch closes. */
        boolean idle(long nowMs) {
            if (commits == 0 || nowMs - epochStart < epochIntervalMs) {
                return false;
            }
            closed.add(new Epoch(epochStart, nowMs, offsets, commits, aborts, flushNanos / commits / 1000));
            restart(nowMs);
            return true;
        }

        /** The thread died (kill -9): its open epoch is never reported (reports are not durable). */
        void crashed(long nowMs) {
            restart(nowMs);
        }

        private void restart(long nowMs) {
            countedTotal += commits;
            epochStart = nowMs;
            offsets = new HashMap<>();
            commits = aborts = flushNanos = 0;
        }
    }

    @Property(tries = 500)
    void shouldCountEveryCommitOnceAndReportOnlyCommittedOffsets(
            @ForAll("cycles") List<Cycle> cycles,
            @ForAll @IntRange(min = 0, max = 1_000) int epochIntervalMs,
            @ForAll boolean transactional) {
        long nowNanos = 1_000_000_000L;
        EpochCommits sut = new EpochCommits(epochIntervalMs, nowNanos / 1_000_000);
        Model model = new Model(epochIntervalMs, nowNanos / 1_000_000);
        List<EpochCommits.Closed> closed = new ArrayList<>();
        long offsetCounter = 0;
        for (Cycle c : cycles) {
            nowNanos += c.gapMs() * 1_000_000L;
            if (c.idlePoll()) {
                EpochCommits.Closed idle = sut.closeIfDue(nowNanos / 1_000_000);
                if (model.idle(nowNanos / 1_000_000)) {
                    assertThat(idle).as("an idle thread closes a due epoch").isNotNull();
                    closed.add(idle);
                } else {
                    assertThat(idle).isNull();
                }
            }
            long part = c.partMicros() * 1_000L;
            Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
            for (int i = 0; i < PARTITIONS.length; i++) {
                if ((c.partitionMask() & (1 << i)) != 0) {
                    offsets.put(PARTITIONS[i], new OffsetAndMetadata(++offsetCounter));
                }
            }
            // the stores' before-commit writes, then one producer flush per task
            if (c.preCommit()) {
                sut.preCommit(new PreCommitTime.Sample(part, nowNanos));
                nowNanos += part;
            }
            long cycleFlush = 0;
            if (c.stop() != Stop.CRASH_AFTER_PRE_COMMIT) {
                for (int t = 0; t < c.tasks(); t++) {
                    sut.flushed(nowNanos, nowNanos + part);
                    nowNanos += part;
                    cycleFlush += part;
                }
                if (transactional
                        && c.stop() != Stop.NOTHING_TO_COMMIT
                        && c.stop() != Stop.ABORT_AFTER_FLUSH
                        && c.stop() != Stop.CRASH_AFTER_FLUSH) {
                    sut.offsetsSent(offsets, nowNanos, nowNanos + part);
                    nowNanos += part;
                }
            }
            switch (c.stop()) {
                case NOTHING_TO_COMMIT -> nowNanos += EpochCommits.STALE_GAP_NANOS + 1; // the next one comes later
                case ABORT_AFTER_FLUSH, ABORT_AFTER_OFFSETS, ABORT_IN_END_TXN -> {
                    sut.aborted();
                    model.aborts++;
                }
                case CRASH_AFTER_PRE_COMMIT, CRASH_AFTER_FLUSH, CRASH_AFTER_OFFSETS -> {
                    model.crashed(nowNanos / 1_000_000);
                    sut = new EpochCommits(epochIntervalMs, nowNanos / 1_000_000);
                }
                case COMMITTED, CRASH_AFTER_COMMIT -> {
                    long start = nowNanos;
                    nowNanos += part;
                    long nowMs = nowNanos / 1_000_000;
                    EpochCommits.Closed out =
                            sut.committed(transactional ? Map.of() : offsets, transactional, start, nowNanos, nowMs);
                    if (model.committed(offsets, cycleFlush, nowMs)) {
                        assertThat(out)
                                .as("the epoch closes once its interval has passed")
                                .isNotNull();
                        closed.add(out);
                    } else {
                        assertThat(out)
                                .as("the epoch stays open within its interval")
                                .isNull();
                    }
                    assertThat(sut.openCommits()).isEqualTo(model.commits);
                    if (c.stop() == Stop.CRASH_AFTER_COMMIT) {
                        model.crashed(nowMs);
                        sut = new EpochCommits(epochIntervalMs, nowMs);
                    }
                }
            }
        }
        model.crashed(nowNanos / 1_000_000); // count what is still open

        assertThat(closed).hasSameSizeAs(model.closed);
        for (int i = 0; i < model.closed.size(); i++) {
            Epoch e = model.closed.get(i);
            EpochCommits.Closed a = closed.get(i);
            Map<TopicPartition, Long> reported = new HashMap<>();
            a.offsets().forEach((tp, om) -> reported.put(tp, om.offset()));
            assertThat(a.startMs()).isEqualTo(e.startMs());
            assertThat(a.endMs()).isEqualTo(e.endMs());
            assertThat(reported).as("epoch %d offsets", i).isEqualTo(e.offsets());
            assertThat(a.commits().commits()).isEqualTo(e.commits());
            assertThat(a.commits().aborts()).isEqualTo(e.aborts());
            assertThat(a.commits().producerFlushUs()).isEqualTo(e.flushUs());
            assertThat(a.commits().durationUs().count()).isEqualTo(e.commits());
            assertThat(a.commits().durationUs().max() + 1)
                    .as("a commit lasts at least its flushes")
                    .isGreaterThanOrEqualTo(e.flushUs());
        }
        assertThat(model.countedTotal)
                .as("every successful commit is counted once")
                .isEqualTo(model.committedTotal);
    }

    @Test
    void shouldTimeACommitFromItsFirstPartToTheEndOfEndTxn() {
        EpochCommits c = new EpochCommits(0, 0);
        c.preCommit(new PreCommitTime.Sample(2_000_000, 10_000_000)); // stores: 2 ms from t=10 ms
        c.flushed(12_000_000, 15_000_000); // producer flush: 3 ms
        c.offsetsSent(Map.of(PARTITIONS[0], new OffsetAndMetadata(7)), 15_000_000, 16_000_000); // 1 ms
        EpochCommits.Closed e = c.committed(Map.of(), true, 16_000_000, 20_000_000, 20); // EndTxn: 4 ms

        assertThat(e.commits().durationUs().max()).isBetween(9_990L, 10_010L);
        assertThat(e.commits().preCommitUs()).isEqualTo(2_000);
        assertThat(e.commits().producerFlushUs()).isEqualTo(3_000);
        assertThat(e.commits().offsetsUs()).isEqualTo(1_000);
        assertThat(e.commits().endTxnUs()).isEqualTo(4_000);
        assertThat(e.offsets()).containsEntry(PARTITIONS[0], new OffsetAndMetadata(7));
    }
}
