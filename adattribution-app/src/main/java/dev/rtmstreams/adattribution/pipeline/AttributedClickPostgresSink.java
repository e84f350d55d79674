package dev.rtmstreams.adattribution.pipeline;

import dev.rtmstreams.adattribution.AppConfig;
import dev.rtmstreams.adattribution.avro.AttributedClick;
import dev.rtmstreams.topology.ForeachSink;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.Objects;
import org.apache.kafka.streams.processor.api.Record;

/**
 * Upserts attributed clicks into PostgreSQL ({@code --postgres-url}): table {@value #TABLE}, primary key
 * {@code click_id}. Each click is written (auto-commit) as it is processed, so it is visible in PostgreSQL as soon as
 * it is in the output topic, whatever the checkpoint interval; the upsert makes the at-least-once replay after a crash
 * idempotent (one row per click, the replay's {@code attributed_at} wins). One connection per checkpoint epoch.
 */
public final class AttributedClickPostgresSink implements ForeachSink<String, AttributedClick> {

    /** The table. */
    public static final String TABLE = "attributed_clicks";

    private static final String UPSERT = "INSERT INTO " + TABLE
            + " (click_id, impression_id, user_id, campaign_id, ad_id, publisher_id, bid_micros, impression_time,"
            + " click_time, attributed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            + " ON CONFLICT (click_id) DO UPDATE SET impression_id = EXCLUDED.impression_id,"
            + " user_id = EXCLUDED.user_id, campaign_id = EXCLUDED.campaign_id, ad_id = EXCLUDED.ad_id,"
            + " publisher_id = EXCLUDED.publisher_id, bid_micros = EXCLUDED.bid_micros,"
            + " impression_time = EXCLUDED.impression_time, click_time = EXCLUDED.click_time,"
            + " attributed_at = EXCLUDED.attributed_at";

    private final AppConfig.Postgres postgres;
    private Connection connection;
    private PreparedStatement upsert;

    /** @param postgres where to write */
    public AttributedClickPostgresSink(AppConfig.Postgres postgres) {
        this.postgres = Objects.requireNonNull(postgres, "postgres");
    }

    /**
     * Creates the table when missing.
     *
     * @param postgres where
     * @throws IllegalStateException naming the url when PostgreSQL refuses
     */
    public static void createTable(AppConfig.Postgres postgres) {
        try (Connection c = DriverManager.getConnection(postgres.url(), postgres.user(), postgres.password());
                Statement s = c.createStatement()) {
            s.execute(
                    "CREATE TABLE IF NOT EXISTS " + TABLE + " (click_id text PRIMARY KEY, impression_id text NOT NULL,"
                            + " user_id text, campaign_id text, ad_id text, publisher_id text, bid_micros bigint,"
                            + " impression_time timestamptz, click_time timestamptz, attributed_at timestamptz)");
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create table " + TABLE + " at " + postgres.url(), e);
        }
    }

    @Override
    public boolean open(long partitionId, long epochId) {
        try {
            connection = DriverManager.getConnection(postgres.url(), postgres.user(), postgres.password());
            connection.setAutoCommit(true);
            upsert = connection.prepareStatement(UPSERT);
            return true;
        } catch (SQLException e) {
            closeQuietly();
            throw new IllegalStateException("cannot connect to " + postgres.url(), e);
        }
    }

    @Override
    public void process(Record<String, AttributedClick> row) {
        AttributedClick a = row.value();
        if (a == null) {
            return;
        }
        try {
            upsert.setString(1, a.getClickId());
            upsert.setString(2, a.getImpressionId());
            upsert.setString(3, a.getUserId());
            upsert.setString(4, a.getCampaignId());
            upsert.setString(5, a.getAdId());
            upsert.setString(6, a.getPublisherId());
            upsert.setLong(7, a.getBidMicros());
            upsert.setTimestamp(8, Timestamp.from(a.getImpressionTime()));
            upsert.setTimestamp(9, Timestamp.from(a.getClickTime()));
            upsert.setTimestamp(10, Timestamp.from(a.getAttributedAt()));
            upsert.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("upsert of click " + a.getClickId() + " into " + TABLE + " failed", e);
        }
    }

    @Override
    public void close(Throwable errorOrNull) {
        closeQuietly(); // every row is already committed (auto-commit); a failed epoch is replayed idempotently
    }

    private void closeQuietly() {
        try {
            if (connection != null) {
                connection.close();
            }
        } catch (SQLException e) {
            // nothing left to write on this connection
        } finally {
            connection = null;
            upsert = null;
        }
    }
}
