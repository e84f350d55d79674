package dev.rtmstreams.examples;

import static dev.rtmstreams.examples.Drivers.at;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rtmstreams.topology.ForeachSink;
import dev.rtmstreams.topology.Trigger;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.processor.api.Record;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Against a real PostgreSQL started by the test from Maven artifacts (nothing installed). */
class PostgresUpsertSinkTest {

    private static EmbeddedPostgres postgres;
    private static final AtomicInteger TABLES = new AtomicInteger();

    @BeforeAll
    static void startPostgres() throws Exception {
        postgres = EmbeddedPostgres.builder().start();
    }

    @AfterAll
    static void stopPostgres() throws Exception {
        postgres.close();
    }

    private static PostgresUpsertSink.Config config(int maxBufferedRows) {
        PostgresUpsertSink.Config c = new PostgresUpsertSink.Config(
                postgres.getJdbcUrl("postgres", "postgres"),
                "sink_test_" + TABLES.incrementAndGet(),
                "postgres",
                null,
                maxBufferedRows);
        PostgresUpsertSink.createTable(c);
        return c;
    }

    private static Map<String, String> table(PostgresUpsertSink.Config c) throws SQLException {
        Map<String, String> rows = new TreeMap<>();
        try (Connection conn = postgres.getPostgresDatabase().getConnection();
                Statement s = conn.createStatement();
                ResultSet r = s.executeQuery("SELECT key, value FROM " + c.table())) {
            while (r.next()) {
                rows.put(r.getString(1), r.getString(2));
            }
        }
        return rows;
    }

    private static long count(PostgresUpsertSink.Config c) throws SQLException {
        try (Connection conn = postgres.getPostgresDatabase().getConnection();
                Statement s = conn.createStatement();
                ResultSet r = s.executeQuery("SELECT count(*) FROM " + c.table())) {
            r.next();
            return r.getLong(1);
        }
    }

    @ParameterizedTest
    @MethodSource("dev.rtmstreams.examples.Drivers#triggers")
    void shouldKeepOneRowPerKeyWithTheLatestValueWhenRunUnderEitherTrigger(Trigger trigger) throws Exception {
        PostgresUpsertSink.Config c = config(3);
        AtomicLong committed = new AtomicLong();
        try (TopologyTestDriver d = Drivers.driver(
                ForeachSinkExample.topology("in", () -> new PostgresUpsertSink(c, ts -> committed.incrementAndGet())),
                trigger)) {
            TestInputTopic<String, String> in = Drivers.input(d, "in");
            in.pipeInput("k1", "a", at(0));
            in.pipeInput("k2", "b", at(1));
            in.pipeInput("k1", "c", at(2));
            d.advanceWallClockTime(Drivers.BATCH);
        }

        assertThat(table(c)).isEqualTo(Map.of("k1", "c", "k2", "b"));
        assertThat(committed).hasValue(3);
    }

    /** Crashes the task on the n-th row it sees (once), like a kill in the middle of an epoch. */
    private static final class CrashingSink implements ForeachSink<String, String> {
        private final ForeachSink<String, String> delegate;
        private final AtomicInteger rowsUntilCrash;

        CrashingSink(ForeachSink<String, String> delegate, AtomicInteger rowsUntilCrash) {
            this.delegate = delegate;
            this.rowsUntilCrash = rowsUntilCrash;
        }

        @Override
        public boolean open(long partitionId, long epochId) {
            return delegate.open(partitionId, epochId);
        }

        @Override
        public void process(Record<String, String> row) {
            if (rowsUntilCrash.decrementAndGet() == 0) {
                throw new IllegalStateException("crash at " + row.key() + "=" + row.value());
            }
            delegate.process(row);
        }

        @Override
        public void close(Throwable errorOrNull) {
            delegate.close(errorOrNull);
        }
    }

    @Test
    void shouldLeaveExactlyOneRowPerKeyWhenAnEpochIsReplayedAfterACrash() throws Exception {
        PostgresUpsertSink.Config c = config(2);
        List<String[]> input = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            input.add(new String[] {"k" + (i % 7), "v" + i});
        }
        AtomicInteger crashAt = new AtomicInteger(25);
        // the test driver commits after every record (one epoch per row): the crash rolls back the row of its epoch;
        // ForeachSinkPostgresIT crashes in the middle of a multi-batch epoch on a real broker
        Trigger trigger = Trigger.microBatch(Drivers.BATCH);
        try (TopologyTestDriver d = Drivers.driver(
                ForeachSinkExample.topology("in", () -> new CrashingSink(new PostgresUpsertSink(c, ts -> {}), crashAt)),
                trigger)) {
            TestInputTopic<String, String> in = Drivers.input(d, "in");
            assertThatThrownBy(() -> {
                        for (int i = 0; i < input.size(); i++) {
                            in.pipeInput(input.get(i)[0], input.get(i)[1], at(i));
                        }
                    })
                    .hasStackTraceContaining("crash at k3=v24");
        } catch (RuntimeException closingAfterCrash) {
            // the driver may fail again while closing the crashed task
        }
        Map<String, String> beforeReplay = table(c);
        assertThat(beforeReplay).isNotEmpty().hasSizeLessThanOrEqualTo(7);

        // restart: at-least-once replays input that was already written (here: all of it, the worst case)
        try (TopologyTestDriver d =
                Drivers.driver(ForeachSinkExample.topology("in", () -> new PostgresUpsertSink(c, ts -> {})), trigger)) {
            TestInputTopic<String, String> in = Drivers.input(d, "in");
            for (int i = 0; i < input.size(); i++) {
                in.pipeInput(input.get(i)[0], input.get(i)[1], at(i));
            }
            d.advanceWallClockTime(Drivers.BATCH);
        }

        Map<String, String> expected = new TreeMap<>();
        input.forEach(kv -> expected.put(kv[0], kv[1]));
        assertThat(table(c)).isEqualTo(expected);
        assertThat(count(c)).isEqualTo(7);
    }

    @Test
    void shouldNotOverwriteANewerRowWhenAnOlderOneIsReplayed() throws Exception {
        PostgresUpsertSink.Config c = config(1);
        try (TopologyTestDriver d = Drivers.driver(
                ForeachSinkExample.topology("in", () -> new PostgresUpsertSink(c, ts -> {})), Drivers.REAL_TIME)) {
            TestInputTopic<String, String> in = Drivers.input(d, "in");
            in.pipeInput("k1", "new", at(10));
            in.pipeInput("k1", "old", at(5)); // a replayed, older row
        }

        assertThat(table(c)).isEqualTo(Map.of("k1", "new"));
    }

    @Test
    void shouldNameTheBadSettingAndHideThePassword() {
        assertThatThrownBy(() -> new PostgresUpsertSink.Config("jdbc:mysql://x", "t", null, null, 1))
                .hasMessageContaining("jdbc:mysql://x");
        assertThatThrownBy(() -> new PostgresUpsertSink.Config("jdbc:postgresql://x/db", "t; drop", null, null, 1))
                .hasMessageContaining("t; drop");
        assertThatThrownBy(() -> new PostgresUpsertSink.Config("jdbc:postgresql://x/db", "t", null, null, 0))
                .hasMessageContaining("maxBufferedRows must be positive: 0");
        assertThat(new PostgresUpsertSink.Config("jdbc:postgresql://x/db", "t", "u", "secret", 1).toString())
                .doesNotContain("secret");
    }
}
