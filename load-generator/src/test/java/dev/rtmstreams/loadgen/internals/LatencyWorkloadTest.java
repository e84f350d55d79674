package dev.rtmstreams.loadgen.internals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rtmstreams.adattribution.workload.Expected;
import dev.rtmstreams.adattribution.workload.Matcher;
import dev.rtmstreams.adattribution.workload.RunSpec;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LatencyWorkloadTest {

    private static final long BASE = 1_700_000_000_000L;
    private static final LatencyWorkload.Topics TOPICS = LatencyWorkload.Topics.DEFAULTS;

    private static LatencyWorkload workload(BenchWorkload w) {
        return new LatencyWorkload(w, 7, 1000, Duration.ofSeconds(2), "p-", 64, BASE);
    }

    /** What the system under test would write: an output record as the bench's consumer reads it. */
    private static ConsumerRecord<byte[], byte[]> output(long timestamp, String key, String value) {
        return output(timestamp, key.getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8));
    }

    private static ConsumerRecord<byte[], byte[]> output(long timestamp, byte[] key, byte[] value) {
        return new ConsumerRecord<>(
                TOPICS.output(),
                0,
                0,
                timestamp,
                TimestampType.CREATE_TIME,
                key.length,
                value.length,
                key,
                value,
                new RecordHeaders(),
                java.util.Optional.empty());
    }

    private static ConsumerRecord<byte[], byte[]> copy(ProducerRecord<byte[], byte[]> in) {
        return output(in.timestamp(), in.key(), in.value());
    }

    @Test
    void shouldScheduleRowsAtTheRateWithTimestampsFromTheBase() {
        LatencyWorkload w = workload(BenchWorkload.STATELESS);

        assertThat(w.rows()).hasSize(2000);
        assertThat(w.rows().get(1).offsetMicros()).isEqualTo(1000);
        assertThat(w.rows().get(1999).timestamp()).isEqualTo(BASE + 1999);
        ProducerRecord<byte[], byte[]> r = w.spec(TOPICS, false).record(5);
        assertThat(r.topic()).isEqualTo(LatencyWorkload.INPUT_TOPIC);
        assertThat(new String(r.key(), StandardCharsets.UTF_8)).isEqualTo("p-5");
        assertThat(new String(r.value(), StandardCharsets.UTF_8))
                .startsWith("5 ")
                .hasSize(64);
        assertThat(r.timestamp()).isEqualTo(BASE + 5);
    }

    @Test
    void shouldMatchEveryCopyExactlyAndFlagAChangedValueWhenStateless() {
        LatencyWorkload w = workload(BenchWorkload.STATELESS);
        RunSpec spec = w.spec(TOPICS, false);
        Matcher m = spec.matcher();

        for (int i = 0; i < spec.size() - 1; i++) {
            Expected e = m.accept(spec.decode(copy(spec.record(i)), 0));
            assertThat(e).isNotNull();
            assertThat(e.completingSeq()).isEqualTo(i);
        }
        ProducerRecord<byte[], byte[]> last = spec.record(spec.size() - 1);
        assertThat(m.accept(spec.decode(output(last.timestamp(), "p-1999", "1999 changed"), 0)))
                .isNull();
        assertThat(m.accept(spec.decode(copy(spec.record(0)), 0))).isNull();

        assertThat(m.matched()).isEqualTo(1999);
        assertThat(m.missing()).isEqualTo(1);
        assertThat(m.mismatched()).isEqualTo(1);
        assertThat(m.duplicates()).isEqualTo(1);
    }

    @Test
    void shouldTreatAnOutputOlderThanTheRunAsForeign() {
        RunSpec spec = workload(BenchWorkload.STATELESS).spec(TOPICS, false);

        assertThat(spec.decode(output(BASE - 1, "p-0", "x"), 0)).isNull();
    }

    @Test
    void shouldRepeatEveryTenthRowsGroupWhenAggregating() {
        LatencyWorkload w = workload(BenchWorkload.AGGREGATION);
        List<LatencyWorkload.Row> rows = w.rows();

        assertThat(rows.get(9).timestamp()).isEqualTo(rows.get(8).timestamp());
        assertThat(w.value(rows.get(9))).isEqualTo(w.value(rows.get(8)));
        assertThat(w.value(rows.get(10))).isNotEqualTo(w.value(rows.get(9)));
        assertThat(w.expectedGroups()).hasSize(1800);
        assertThat(w.expectedGroups().get(8).seqs()).containsExactly(8, 9);
    }

    @Test
    void shouldAcceptPerRowAndPerBatchCountsAndMeasureFromTheCountedRow() {
        LatencyWorkload w = workload(BenchWorkload.AGGREGATION);
        RunSpec spec = w.spec(TOPICS, false);
        Matcher realTime = spec.matcher();
        Matcher microBatch = spec.matcher();
        LatencyWorkload.Row eighth = w.rows().get(8);
        String groupKey = w.value(eighth);

        for (LatencyWorkload.Row r : w.rows()) {
            long count = r.seq() % LatencyWorkload.DUPLICATE_EVERY == LatencyWorkload.DUPLICATE_EVERY - 1 ? 2 : 1;
            Expected e = realTime.accept(spec.decode(output(r.timestamp(), w.value(r), Long.toString(count)), 0));
            assertThat(e).as("row %s", r.seq()).isNotNull();
            assertThat(e.completingSeq()).isEqualTo(r.seq());
        }
        for (CountMatcher.Group g : w.expectedGroups()) {
            LatencyWorkload.Row first = w.rows().get((int) g.seqs()[0]);
            microBatch.accept(
                    spec.decode(output(first.timestamp(), w.value(first), Integer.toString(g.seqs().length)), 0));
        }

        for (Matcher m : List.of(realTime, microBatch)) {
            assertThat(m.missing()).isZero();
            assertThat(m.unexpected()).isZero();
            assertThat(m.duplicates()).isZero();
            assertThat(m.matched()).isEqualTo(1800);
        }
        assertThat(realTime.observed()).isEqualTo(2000);
        assertThat(microBatch.observed()).isEqualTo(1800);
        // a count repeated, lowered, above the group's rows, or under a wrong key
        assertThat(realTime.accept(spec.decode(output(eighth.timestamp(), groupKey, "2"), 0)))
                .isNull();
        assertThat(realTime.duplicates()).isEqualTo(1);
        assertThat(realTime.accept(spec.decode(output(eighth.timestamp(), groupKey, "1"), 0)))
                .isNull();
        assertThat(microBatch.accept(spec.decode(output(eighth.timestamp(), groupKey, "3"), 0)))
                .isNull();
        assertThat(realTime.mismatched()).isEqualTo(1);
        assertThat(microBatch.mismatched()).isEqualTo(1);
    }

    @Test
    void shouldReportAGroupWithoutItsFinalCountAsMissing() {
        LatencyWorkload w = workload(BenchWorkload.AGGREGATION);
        RunSpec spec = w.spec(TOPICS, false);
        Matcher m = spec.matcher();
        LatencyWorkload.Row eighth = w.rows().get(8);

        m.accept(spec.decode(output(eighth.timestamp(), w.value(eighth), "1"), 0));

        assertThat(m.matched()).isZero();
        assertThat(m.missing()).isEqualTo(1800);
        assertThat(m.missingSamples(1800)).contains("group " + eighth.timestamp() + "/8: last count 1 of 2");
    }

    @Test
    void shouldExpectTheTablesLabelForEveryJoinKeyButZero(@TempDir Path dir) throws Exception {
        LatencyWorkload w =
                new LatencyWorkload(BenchWorkload.STREAM_STATIC_JOIN, 3, 10_000, Duration.ofSeconds(3), "j-", 64, BASE);
        RunSpec spec = w.spec(TOPICS, false);
        Matcher m = spec.matcher();
        long zeros = w.rows().stream().filter(r -> r.joinKey() == 0).count();

        assertThat(zeros).as("the seed draws key 0 at least once").isPositive();
        assertThat(w.rows()).allSatisfy(r -> assertThat(r.joinKey()).isBetween(0, 9999));
        assertThat(m.expected()).isEqualTo(30_000 - zeros);
        for (LatencyWorkload.Row r : w.rows()) {
            if (r.joinKey() != 0) {
                String k = Integer.toString(r.joinKey());
                assertThat(m.accept(spec.decode(output(r.timestamp(), k, k + "," + 2L * r.joinKey()), 0)))
                        .isNotNull();
            }
        }
        assertThat(m.missing()).isZero();
        Matcher fresh = spec.matcher();
        LatencyWorkload.Row r =
                w.rows().stream().filter(x -> x.joinKey() != 0).findFirst().orElseThrow();
        String k = Integer.toString(r.joinKey());
        assertThat(fresh.accept(spec.decode(output(r.timestamp(), k, k + ",0"), 0)))
                .isNull();
        assertThat(fresh.mismatched()).isEqualTo(1);
        Path table = LatencyWorkload.writeStaticTable(dir.resolve("t.csv"));
        List<String> lines = Files.readAllLines(table);
        assertThat(lines).hasSize(LatencyWorkload.LOOKUP_CARDINALITY).startsWith("lookupKey,lookupValue", "1,2");
        assertThat(lines.get(lines.size() - 1)).isEqualTo("9999,19998");
    }

    @Test
    void shouldExpectCopiesOfEveryRowWhenTheSystemIsTheEcho() {
        LatencyWorkload w = workload(BenchWorkload.STREAM_STATIC_JOIN);
        RunSpec spec = w.spec(TOPICS, true);
        Matcher m = spec.matcher();

        for (int i = 0; i < spec.size(); i++) {
            assertThat(m.accept(spec.decode(copy(spec.record(i)), 0))).isNotNull();
        }
        assertThat(m.expected()).isEqualTo(2000);
        assertThat(m.missing()).isZero();
    }

    @Test
    void shouldRejectBadSettingsNamingTheValue() {
        assertThatThrownBy(() ->
                        new LatencyWorkload(BenchWorkload.ATTRIBUTION, 1, 10, Duration.ofSeconds(1), "", 10, BASE))
                .hasMessageContaining("attribution");
        assertThatThrownBy(
                        () -> new LatencyWorkload(BenchWorkload.STATELESS, 1, 0, Duration.ofSeconds(1), "", 10, BASE))
                .hasMessageContaining("rate must be positive: 0.0");
        assertThatThrownBy(() -> new LatencyWorkload(BenchWorkload.STATELESS, 1, 10, Duration.ZERO, "", 10, BASE))
                .hasMessageContaining("PT0S");
        assertThatThrownBy(
                        () -> new LatencyWorkload(BenchWorkload.STATELESS, 1, 10, Duration.ofSeconds(1), "", 0, BASE))
                .hasMessageContaining(": 0");
    }

    @Test
    void shouldDescribeTheWorkloadForTheReport() {
        RunDescriptions.RowWorkload d = workload(BenchWorkload.AGGREGATION).describe(7);

        assertThat(d.workload()).isEqualTo("aggregation");
        assertThat(d.seed()).isEqualTo(7L);
        assertThat(d.rows()).isEqualTo(2000);
        assertThat(d.duplicateEvery()).isEqualTo(10);
        assertThat(d.rowBytes()).isEqualTo(64);
        assertThat(d.lookupCardinality()).isNull();
    }
}
