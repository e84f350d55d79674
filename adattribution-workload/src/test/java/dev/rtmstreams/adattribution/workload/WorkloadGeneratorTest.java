package dev.rtmstreams.adattribution.workload;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WorkloadGeneratorTest {

    private static final long START = 1_700_000_000_000L;

    private static WorkloadConfig config(long seed) {
        return WorkloadConfig.builder()
                .seed(seed)
                .rate(2000)
                .duration(Duration.ofSeconds(20))
                .build();
    }

    @Test
    void shouldGenerateTheSameEventsWhenTheSeedIsTheSame() {
        List<Event> a = WorkloadGenerator.generate(config(7), START);
        List<Event> b = WorkloadGenerator.generate(config(7), START);
        assertThat(a).hasSize(40_000).isEqualTo(b);
    }

    @Test
    void shouldGenerateDifferentEventsWhenTheSeedDiffers() {
        assertThat(WorkloadGenerator.generate(config(7), START))
                .isNotEqualTo(WorkloadGenerator.generate(config(8), START));
    }

    @Test
    void shouldProduceTheConfiguredMixAndSpecialEventsWhenGenerating() {
        List<Event> events = WorkloadGenerator.generate(config(1), START);
        Map<EventKind, Integer> kinds = new EnumMap<>(EventKind.class);
        Map<EventTag, Integer> tags = new EnumMap<>(EventTag.class);
        for (int i = 0; i < events.size(); i++) {
            Event e = events.get(i);
            assertThat(e.seq()).isEqualTo(i);
            assertThat(e.offsetMicros()).isEqualTo(WorkloadGenerator.slotOffsetMicros(i, 2000));
            kinds.merge(e.kind(), 1, Integer::sum);
            tags.merge(e.tag(), 1, Integer::sum);
        }
        double impressions = kinds.get(EventKind.IMPRESSION);
        assertThat(kinds.get(EventKind.CLICK) / impressions).isBetween(0.08, 0.13);
        assertThat(kinds.get(EventKind.REQUEST) + kinds.get(EventKind.ACK)).isBetween(3_000, 9_000);
        assertThat(tags)
                .containsKeys(
                        EventTag.OUT_OF_ORDER,
                        EventTag.LATE,
                        EventTag.DUPLICATE,
                        EventTag.ORPHAN,
                        EventTag.OUTSIDE_WINDOW,
                        EventTag.WINDOW_EDGE,
                        EventTag.ACK_FIRST);
    }

    @Test
    void shouldKeepSpecialEventsClearOfTheWatermarkWhenGenerating() {
        WorkloadConfig c = config(3);
        List<Event> events = WorkloadGenerator.generate(c, START);
        long delay = c.watermarkDelay().toMillis();
        long margin = c.safetyMargin().toMillis();
        long window = c.attributionWindow().toMillis();
        Map<String, Long> sendSlotById = new HashMap<>();
        int clicksBeforeFirstLate = -1;
        long firstLateOffsetMicros = -1;
        int clicks = 0;
        for (Event e : events) {
            long streamTime = START + e.offsetMicros() / 1000;
            if (e.tag() == EventTag.LATE && firstLateOffsetMicros < 0) {
                firstLateOffsetMicros = e.offsetMicros();
            }
            if (e.tag() == EventTag.LATE && e.kind() == EventKind.IMPRESSION) {
                assertThat(streamTime - e.eventTime()).isGreaterThanOrEqualTo(delay + window + margin);
                if (clicksBeforeFirstLate < 0) {
                    clicksBeforeFirstLate = clicks;
                }
            } else if (e.kind() == EventKind.IMPRESSION) {
                assertThat(streamTime - e.eventTime()).isLessThanOrEqualTo(delay - margin);
            }
            if (e.kind() == EventKind.CLICK) {
                clicks++;
            }
            if (e.kind() == EventKind.IMPRESSION && e.tag() != EventTag.DUPLICATE) {
                sendSlotById.put(e.id(), e.seq());
            }
            if (e.kind() == EventKind.CLICK && e.tag() != EventTag.ORPHAN) {
                // partners are sent close together (a few multiples of the lag at most, when slots queue up)
                assertThat(e.seq() - sendSlotById.get(e.ref())).isLessThan(5 * 1000L);
            }
        }
        assertThat(clicksBeforeFirstLate).isGreaterThanOrEqualTo(c.lateWarmupClicks());
        // a micro-batch engine's first batch has no watermark: no late event before the first PT5S of sends
        assertThat(firstLateOffsetMicros).isGreaterThanOrEqualTo(c.lateWarmup().toNanos() / 1000);
    }
}
