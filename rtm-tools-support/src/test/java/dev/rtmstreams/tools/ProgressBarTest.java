package dev.rtmstreams.tools;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ProgressBarTest {

    @Test
    void shouldRenderAProgressLineWithCountsAndRate() {
        String line = ProgressBar.render(new ProgressBar.State("sending", 500, 1000, 2.0, 40, 90, 12.5));
        assertThat(line)
                .contains(
                        "[###############...............]",
                        " 50%",
                        "sent 500/1000 (250/s)",
                        "out 40/90",
                        "p99(1s) 12.5ms");
    }
}
