package dev.rtmstreams.adattribution.pipeline;

import static dev.rtmstreams.adattribution.pipeline.Events.encode;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.adattribution.AppConfig;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --postgres-url} against a real PostgreSQL started by the test. */
class AttributedClickPostgresSinkTest {

    private static final long T = DriverFixture.START.toEpochMilli();
    private static final long MIN = 60_000L;
    private static EmbeddedPostgres postgres;

    @TempDir
    Path stateDir;

    @TempDir
    Path replayStateDir;

    @BeforeAll
    static void start() throws Exception {
        postgres = EmbeddedPostgres.builder().start();
    }

    @AfterAll
    static void stop() throws Exception {
        postgres.close();
    }

    private static AppConfig config() {
        AppConfig config = AppConfig.builder()
                .bootstrapServers("dummy:9092")
                .postgresUrl(postgres.getJdbcUrl("postgres", "postgres"))
                .postgresCredentials("postgres", null)
                .build();
        AttributedClickPostgresSink.createTable(config.postgres().orElseThrow());
        return config;
    }

    private static Map<String, String> rows() throws Exception {
        Map<String, String> rows = new TreeMap<>();
        try (Connection c = postgres.getPostgresDatabase().getConnection();
                Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT click_id, impression_id, bid_micros FROM attributed_clicks")) {
            while (r.next()) {
                rows.put(r.getString(1), r.getString(2) + "/" + r.getLong(3));
            }
        }
        return rows;
    }

    private static void pipe(DriverFixture f) {
        f.impressions.pipeInput("imp-1", encode(Events.impression("imp-1", T)), T);
        f.impressions.pipeInput("imp-2", encode(Events.impression("imp-2", T)), T);
        f.clicks.pipeInput("imp-1", encode(Events.click("click-1", "imp-1", T + MIN)), T + MIN);
        f.clicks.pipeInput("imp-1", encode(Events.click("click-1", "imp-1", T + MIN)), T + MIN); // duplicate
        f.clicks.pipeInput("imp-2", encode(Events.click("click-2", "imp-2", T + MIN)), T + MIN);
        f.clicks.pipeInput("imp-2", encode(Events.click("click-3", "imp-2", T + 3 * MIN)), T + 3 * MIN); // too late
    }

    @Test
    void shouldUpsertOneRowPerAttributedClickAndStayAtOneWhenTheInputIsReplayed() throws Exception {
        AppConfig config = config();
        Map<String, String> expected = new TreeMap<>();
        try (DriverFixture f = new DriverFixture(config, "real-time", stateDir)) {
            pipe(f);
            f.attributed
                    .readKeyValuesToList()
                    .forEach(kv -> expected.put(
                            kv.value.getClickId(), kv.value.getImpressionId() + "/" + kv.value.getBidMicros()));
        }
        assertThat(expected).containsOnlyKeys("click-1", "click-2");
        assertThat(rows()).isEqualTo(expected);

        // a crash before the checkpoint: the restarted service (fresh state) processes the same input again
        try (DriverFixture replay = new DriverFixture(config, "real-time", replayStateDir)) {
            pipe(replay);
        }

        assertThat(rows()).isEqualTo(expected);
    }

    @Test
    void shouldHideThePasswordWhenPrintingTheConfiguration() {
        AppConfig config = AppConfig.builder()
                .bootstrapServers("dummy:9092")
                .postgresUrl("jdbc:postgresql://db:5432/ads")
                .postgresCredentials("ads", "s3cret")
                .build();

        assertThat(config.toString()).contains("jdbc:postgresql://db:5432/ads").doesNotContain("s3cret");
        assertThat(config.postgres())
                .hasValueSatisfying(pg -> assertThat(pg.password()).isEqualTo("s3cret"));
    }
}
