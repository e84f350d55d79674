package dev.rtmstreams.examples.internals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.rtmstreams.examples.ForeachSinkExample;
import dev.rtmstreams.examples.PostgresUpsertSink;
import dev.rtmstreams.testkit.EmbeddedKafkaCluster;
import dev.rtmstreams.topology.ForeachSink;
import dev.rtmstreams.topology.RtmStreams;
import dev.rtmstreams.topology.Trigger;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.api.Record;
import org.junit.jupiter.api.Test;

/**
 * Crash and replay on a real broker and a real PostgreSQL: the application dies in the middle of a checkpoint epoch,
 * after some of the epoch's batches were already committed to PostgreSQL and before its offsets were committed; the
 * restarted application processes the whole epoch again. The table must end with exactly one row per key, holding
 * the key's latest value.
 */
class ForeachSinkPostgresIT {

    private static final int ROWS = 300;
    private static final int KEYS = 10;
    private static final String APP_ID = "foreach-sink-crash-it";

    /** Throws on the n-th row (once), like a kill -9 of the stream thread in the middle of an epoch. */
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
                throw new IllegalStateException("simulated crash at " + row.key() + "=" + row.value());
            }
            delegate.process(row);
        }

        @Override
        public void close(Throwable errorOrNull) {
            delegate.close(errorOrNull);
        }
    }

    private static Map<String, String> table(EmbeddedPostgres pg, String table) throws Exception {
        Map<String, String> rows = new TreeMap<>();
        try (Connection c = pg.getPostgresDatabase().getConnection();
                Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT key, value FROM " + table)) {
            while (r.next()) {
                assertThat(rows.put(r.getString(1), r.getString(2))).isNull();
            }
        }
        return rows;
    }

    private static Properties props(String bootstrap, String appId) throws Exception {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, appId);
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(
                StreamsConfig.STATE_DIR_CONFIG,
                Files.createTempDirectory("foreach-sink-it").toString());
        return p;
    }

    @Test
    void shouldLeaveExactlyOneRowPerKeyWhenTheApplicationCrashesMidEpochAndReplays() throws Exception {
        try (EmbeddedKafkaCluster kafka = EmbeddedKafkaCluster.builder().build().start();
                EmbeddedPostgres pg = EmbeddedPostgres.builder().start()) {
            kafka.createTopic("in", 1);
            PostgresUpsertSink.Config config = new PostgresUpsertSink.Config(
                    pg.getJdbcUrl("postgres", "postgres"), "attributions", "postgres", null, 10);
            PostgresUpsertSink.createTable(config);
            Map<String, String> latest = new TreeMap<>();
            Map<String, Object> producerConfig = new HashMap<>(kafka.clientConfig());
            try (KafkaProducer<String, String> producer =
                    new KafkaProducer<>(producerConfig, new StringSerializer(), new StringSerializer())) {
                for (int i = 0; i < ROWS; i++) {
                    String key = "k" + (i % KEYS);
                    latest.put(key, "v" + i);
                    producer.send(new ProducerRecord<>("in", 0, 1_000L + i, key, "v" + i));
                }
                producer.flush();
            }
            // one epoch for the whole run: the 5-minute checkpoint never comes before the crash
            Trigger trigger = Trigger.realTime(Duration.ofMinutes(5));

            AtomicInteger crashAt = new AtomicInteger(ROWS * 2 / 3);
            try (RtmStreams first = RtmStreams.builder(
                            ForeachSinkExample.topology(
                                    "in", () -> new CrashingSink(new PostgresUpsertSink(config, ts -> {}), crashAt)),
                            props(kafka.bootstrapServers(), APP_ID))
                    .trigger(trigger)
                    .build()) {
                first.start();
                await().atMost(Duration.ofSeconds(60))
                        .until(() -> first.state() == KafkaStreams.State.ERROR
                                || first.state() == KafkaStreams.State.NOT_RUNNING
                                || first.state() == KafkaStreams.State.PENDING_ERROR);
            }
            // the crash came before the first checkpoint: nothing is committed, the restart replays the whole epoch
            try (Admin admin = kafka.createAdminClient()) {
                assertThat(admin.listConsumerGroupOffsets(APP_ID)
                                .partitionsToOffsetAndMetadata()
                                .get())
                        .isEmpty();
            }
            Map<String, String> atCrash = table(pg, "attributions");
            assertThat(atCrash)
                    .as("batches of the crashed epoch already in PostgreSQL")
                    .isNotEmpty();
            assertThat(atCrash).as("but not the epoch's end").isNotEqualTo(latest);

            try (RtmStreams second = RtmStreams.builder(
                            ForeachSinkExample.topology("in", () -> new PostgresUpsertSink(config, ts -> {})),
                            // same start position as a restart of APP_ID (no committed offsets, earliest), without
                            // waiting for the crashed member's group session (45 s) to expire
                            props(kafka.bootstrapServers(), APP_ID + "-restarted"))
                    .trigger(trigger)
                    .build()) {
                second.start();
                await().atMost(Duration.ofSeconds(60))
                        .until(() -> table(pg, "attributions").equals(latest));
            }

            assertThat(table(pg, "attributions")).hasSize(KEYS).isEqualTo(latest);
        }
    }
}
