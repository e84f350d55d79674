package dev.rtmstreams.adattribution.pipeline;

import static dev.rtmstreams.adattribution.pipeline.Events.encode;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.adattribution.avro.AttributedClick;
import dev.rtmstreams.adattribution.avro.Click;
import dev.rtmstreams.adattribution.avro.Impression;
import dev.rtmstreams.join.IntervalJoin;
import dev.rtmstreams.join.JoinStateReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.apache.kafka.streams.KeyValue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ClickAttributionTopologyTest {

    private static final long T = DriverFixture.START.toEpochMilli();
    private static final long MIN = 60_000L;

    @TempDir
    Path stateDir;

    private DriverFixture f;

    @BeforeEach
    void setUp() {
        f = new DriverFixture(DriverFixture.defaults(), "real-time", stateDir);
    }

    @AfterEach
    void tearDown() {
        f.close();
    }

    private void impression(String id, long time) {
        f.impressions.pipeInput(id, encode(Events.impression(id, time)), time);
    }

    private void click(String clickId, String impressionId, long time) {
        f.clicks.pipeInput(impressionId, encode(Events.click(clickId, impressionId, time)), time);
    }

    private List<String> attributedClickIds() {
        return f.attributed.readValuesToList().stream()
                .map(AttributedClick::getClickId)
                .toList();
    }

    @Test
    void shouldEmitAttributedClickWithAllFieldsWhenClickFollowsImpressionWithinWindow() {
        impression("imp-1", T);
        f.advance(Duration.ofMillis(250));
        click("click-1", "imp-1", T + MIN);

        List<KeyValue<String, AttributedClick>> out = f.attributed.readKeyValuesToList();
        assertThat(out).hasSize(1);
        KeyValue<String, AttributedClick> kv = out.get(0);
        assertThat(kv.key).isEqualTo("imp-1");
        AttributedClick a = kv.value;
        assertThat(a.getClickId()).isEqualTo("click-1");
        assertThat(a.getImpressionId()).isEqualTo("imp-1");
        assertThat(a.getUserId()).isEqualTo("u-imp-1");
        assertThat(a.getCampaignId()).isEqualTo("c-1");
        assertThat(a.getAdId()).isEqualTo("ad-imp-1");
        assertThat(a.getPublisherId()).isEqualTo("pub-1");
        assertThat(a.getBidMicros()).isEqualTo(1500L);
        assertThat(a.getImpressionTime()).isEqualTo(Instant.ofEpochMilli(T));
        assertThat(a.getClickTime()).isEqualTo(Instant.ofEpochMilli(T + MIN));
        assertThat(a.getAttributedAt()).isEqualTo(Instant.ofEpochMilli(f.now()));
        assertThat(f.deadLetters.total()).isZero();
    }

    @ParameterizedTest(name = "click at impression_time {0} ms -> matched={1}")
    @CsvSource({"0, true", "120000, true", "-1, false", "120001, false", "60000, true"})
    void shouldMatchOnlyInsideInclusiveWindowWhenClickIsAtWindowEdge(long offsetMs, boolean matched) {
        impression("imp-1", T);
        click("click-1", "imp-1", T + offsetMs);

        assertThat(attributedClickIds()).isEqualTo(matched ? List.of("click-1") : List.of());
    }

    @Test
    void shouldMatchWhenClickArrivesBeforeItsImpression() {
        click("click-1", "imp-1", T + MIN);
        assertThat(f.attributed.isEmpty()).isTrue();

        impression("imp-1", T);

        assertThat(attributedClickIds()).containsExactly("click-1");
    }

    @Test
    void shouldNotMatchWhenClickHasAnotherImpressionId() {
        impression("imp-1", T);
        click("click-1", "imp-2", T + 1000);

        assertThat(f.attributed.isEmpty()).isTrue();
    }

    @Test
    void shouldEmitOncePerDistinctClickWhenImpressionsAndClicksAreDuplicated() {
        impression("imp-1", T);
        impression("imp-1", T);
        click("click-1", "imp-1", T + 1000);
        click("click-1", "imp-1", T + 1000);
        click("click-2", "imp-1", T + 2000);
        impression("imp-1", T);

        assertThat(attributedClickIds()).containsExactly("click-1", "click-2");
    }

    @Test
    void shouldCountAndNotJoinClickWhenItIsBehindTheWatermark() {
        impression("imp-1", T);
        click("click-1", "imp-1", T + 1000);
        // Both inputs move to T+20min: the global watermark becomes T+15min.
        impression("imp-2", T + 20 * MIN);
        click("click-2", "imp-2", T + 20 * MIN);
        assertThat(attributedClickIds()).containsExactly("click-1", "click-2");

        click("click-late", "imp-1", T + 2000);

        assertThat(f.attributed.isEmpty()).isTrue();
        assertThat(IntervalJoin.lateRecordsTotal(f.driver.metrics(), AdAttributionTopology.JOIN_NAME))
                .isEqualTo(1L);
    }

    @Test
    void shouldStillJoinRecordsWithinTheWatermarkDelayWhenTheyArriveOutOfOrder() {
        impression("imp-9", T + 10 * MIN);
        click("click-9", "imp-9", T + 10 * MIN);
        // Watermark is T+5min: an impression and click at T+6min are out of order but not late.
        click("click-1", "imp-1", T + 6 * MIN + 500);
        impression("imp-1", T + 6 * MIN);

        assertThat(attributedClickIds()).containsExactly("click-9", "click-1");
        assertThat(IntervalJoin.lateRecordsTotal(f.driver.metrics(), AdAttributionTopology.JOIN_NAME))
                .isZero();
    }

    @Test
    void shouldEmitSameAttributedClicksInMicroBatchModeWhenTheBatchCloses(@TempDir Path mbDir) {
        try (DriverFixture mb = new DriverFixture(DriverFixture.defaults(), "micro-batch", mbDir)) {
            mb.impressions.pipeInput("imp-1", encode(Events.impression("imp-1", T)), T);
            mb.clicks.pipeInput("imp-1", encode(Events.click("click-1", "imp-1", T + MIN)), T + MIN);
            mb.clicks.pipeInput("imp-1", encode(Events.click("click-1", "imp-1", T + MIN)), T + MIN);
            mb.clicks.pipeInput("imp-1", encode(Events.click("click-2", "imp-1", T + 3 * MIN)), T + 3 * MIN);
            assertThat(mb.attributed.isEmpty())
                    .as("nothing before the batch ends")
                    .isTrue();

            mb.advance(Duration.ofSeconds(2));

            assertThat(mb.attributed.readValuesToList())
                    .extracting(AttributedClick::getClickId)
                    .containsExactly("click-1");
        }
    }

    @Test
    void shouldReadTheJoinsRowsPerSideDecodedAndItsWatermarksWhenTheServiceReadsItsState() {
        impression("imp-1", T);
        click("click-1", "imp-1", T + MIN);
        click("click-1", "imp-1", T + MIN); // a copy: dropped, not buffered
        impression("imp-2", T + 2 * MIN);
        ReadableOperators.ReadableJoin readable =
                ReadableOperators.joins(f.config).get(AdAttributionTopology.JOIN_NAME);
        IntervalJoin<String, ?, ?> join = readable.join();

        JoinStateReader reader = readable.decoders()
                .apply(JoinStateReader.of(
                        join,
                        f.driver.getKeyValueStore(join.leftBufferStoreName()),
                        f.driver.getKeyValueStore(join.rightBufferStoreName()),
                        f.driver.getKeyValueStore(join.metaStoreName())));
        JoinStateReader.KeyState imp1 =
                reader.read("imp-1".getBytes(StandardCharsets.UTF_8)).orElseThrow();

        assertThat(imp1.left()).singleElement().satisfies(row -> {
            assertThat(row.eventTime()).isEqualTo(T);
            assertThat(row.value()).isInstanceOf(Impression.class);
            assertThat(((Impression) row.value()).getImpressionId()).isEqualTo("imp-1");
        });
        assertThat(imp1.right()).singleElement().satisfies(row -> {
            assertThat(row.eventTime()).isEqualTo(T + MIN);
            assertThat(row.matched()).isTrue();
            assertThat(((Click) row.value()).getClickId()).isEqualTo("click-1");
        });
        long delay = f.config.watermarkDelay().toMillis();
        assertThat(imp1.watermarks()).isEqualTo(new JoinStateReader.Watermarks(T + 2 * MIN, T + MIN, T + MIN - delay));
        // values are Avro's JSON text of the record, as a JSON string
        assertThat(JoinStateReader.toJson(imp1)).contains("\\\"click_id\\\": \\\"click-1\\\"");
    }
}
