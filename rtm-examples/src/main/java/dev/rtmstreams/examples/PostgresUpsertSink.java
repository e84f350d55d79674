package dev.rtmstreams.examples;

import dev.rtmstreams.topology.ForeachSink;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.LongConsumer;
import java.util.regex.Pattern;
import org.apache.kafka.streams.processor.api.Record;

/**
 * The page's "Write to PostgreSQL using foreachSink" ({@code JdbcStreamingDataWriter}) as a {@link ForeachSink}: rows
 * are buffered and upserted by key in JDBC batches of {@code maxBufferedRows}, each batch in its own transaction; the
 * rest of an epoch is written when the epoch closes at the checkpoint. The upsert is idempotent, so the replay of an
 * epoch after a crash (at-least-once) leaves exactly one row per key, holding the latest value:
 * <pre>{@code
 * INSERT INTO "<table>" (key, value, source_ts) VALUES (?, ?, ?)
 * ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, source_ts = EXCLUDED.source_ts, updated_at = now()
 * WHERE "<table>".source_ts <= EXCLUDED.source_ts
 * }</pre>
 * (PostgreSQL's {@code ON CONFLICT}; the page's {@code MERGE} needs PostgreSQL 15.) The {@code WHERE} keeps a replayed
 * older row from overwriting a newer one. One connection per epoch, as on the page; {@link #createTable} creates the
 * table.
 */
public final class PostgresUpsertSink implements ForeachSink<String, String> {

    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,62}");

    /**
     * Connection settings.
     *
     * @param url JDBC url, {@code jdbc:postgresql://host:port/db}
     * @param table table name (letters, digits, underscore)
     * @param user user name, may be null (then from the url)
     * @param password password, may be null; never printed by {@link #toString()}
     * @param maxBufferedRows rows buffered before a batch is written, positive (the page uses 3)
     */
    public record Config(String url, String table, String user, String password, int maxBufferedRows) {

        /** Validates. @throws IllegalArgumentException naming the bad value */
        public Config {
            Objects.requireNonNull(url, "url");
            if (!url.startsWith("jdbc:postgresql:")) {
                throw new IllegalArgumentException("url must be a jdbc:postgresql: url: " + url);
            }
            if (table == null || !IDENTIFIER.matcher(table).matches()) {
                throw new IllegalArgumentException("table must be a plain SQL identifier: " + table);
            }
            if (maxBufferedRows < 1) {
                throw new IllegalArgumentException("maxBufferedRows must be positive: " + maxBufferedRows);
            }
        }

        @Override
        public String toString() {
            return "Config[url=" + url + ", table=" + table + ", user=" + user + ", password="
                    + (password == null ? "null" : "***") + ", maxBufferedRows=" + maxBufferedRows + "]";
        }

        Connection connect() throws SQLException {
            return DriverManager.getConnection(url, user, password);
        }
    }

    /** A write to PostgreSQL failed. */
    public static final class WriteException extends RuntimeException {
        WriteException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private final Config config;
    private final LongConsumer committed;
    private final String upsertSql;
    private final List<Record<String, String>> buffer = new ArrayList<>();
    private Connection connection;

    /**
     * @param config connection settings
     * @param committed called with the source timestamp of every row once its transaction committed (for latency
     *     figures); not null
     */
    public PostgresUpsertSink(Config config, LongConsumer committed) {
        this.config = Objects.requireNonNull(config, "config");
        this.committed = Objects.requireNonNull(committed, "committed");
        String t = "\"" + config.table() + "\"";
        this.upsertSql = "INSERT INTO " + t + " (key, value, source_ts) VALUES (?, ?, ?)"
                + " ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, source_ts = EXCLUDED.source_ts,"
                + " updated_at = now() WHERE " + t + ".source_ts <= EXCLUDED.source_ts";
    }

    /**
     * Creates the table when it does not exist: {@code key text primary key, value text, source_ts bigint,
     * updated_at timestamptz}.
     *
     * @param config connection settings
     * @throws WriteException when PostgreSQL refuses
     */
    public static void createTable(Config config) {
        try (Connection c = config.connect();
                Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS \"" + config.table() + "\" (key text PRIMARY KEY, value text,"
                    + " source_ts bigint NOT NULL, updated_at timestamptz NOT NULL DEFAULT now())");
        } catch (SQLException e) {
            throw new WriteException("cannot create table " + config.table() + " at " + config.url(), e);
        }
    }

    @Override
    public boolean open(long partitionId, long epochId) {
        try {
            connection = config.connect();
            connection.setAutoCommit(false);
            return true;
        } catch (SQLException e) {
            throw new WriteException("cannot connect to " + config.url(), e);
        }
    }

    @Override
    public void process(Record<String, String> row) {
        if (row.key() == null) {
            return; // the table is keyed: a row without key has nowhere to go
        }
        buffer.add(row);
        if (buffer.size() >= config.maxBufferedRows()) {
            flush();
        }
    }

    @Override
    public void close(Throwable errorOrNull) {
        try {
            if (errorOrNull == null) {
                flush();
            } else {
                buffer.clear();
                if (connection != null) {
                    connection.rollback();
                }
            }
        } catch (SQLException e) {
            throw new WriteException("rollback on " + config.table() + " failed", e);
        } finally {
            closeConnection();
        }
    }

    private void flush() {
        if (buffer.isEmpty()) {
            return;
        }
        try (PreparedStatement upsert = connection.prepareStatement(upsertSql)) {
            for (Record<String, String> row : buffer) {
                upsert.setString(1, row.key());
                upsert.setString(2, row.value());
                upsert.setLong(3, row.timestamp());
                upsert.addBatch();
            }
            upsert.executeBatch();
            connection.commit();
        } catch (SQLException e) {
            try {
                connection.rollback();
            } catch (SQLException rollback) {
                e.addSuppressed(rollback);
            }
            throw new WriteException("upsert of " + buffer.size() + " rows into " + config.table() + " failed", e);
        }
        for (Record<String, String> row : buffer) {
            committed.accept(row.timestamp());
        }
        buffer.clear();
    }

    private void closeConnection() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException e) {
                // the epoch's outcome is decided; a failing close only leaks to the server's timeout
            } finally {
                connection = null;
            }
        }
    }
}
