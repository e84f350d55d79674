package com.example.clicks;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.rtmstreams.processor.testing.StatefulProcessorTestHarness;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.junit.jupiter.api.Test;

/** The processor alone in rtm-test-utils' harness: its output, its timers and its TTL. */
class CountProcessorHarnessTest {

    @Test
    void shouldCountPerKeyAndRegisterATimerAMinuteAhead() {
        try (var h = StatefulProcessorTestHarness.of(
                ClickCounts.countOperator(), Serdes.String(), Serdes.String(), Serdes.Long())) {
            long now = h.processingTimeMs();
            h.input("ad-1", "click");
            h.input("ad-1", "click");
            h.input("ad-2", "click");

            assertEquals(
                    List.of(KeyValue.pair("ad-1", 1L), KeyValue.pair("ad-1", 2L), KeyValue.pair("ad-2", 1L)),
                    h.readOutput());
            assertEquals(List.of(now + 60_000), h.pendingTimers("ad-1"));

            h.advanceProcessingTime(Duration.ofSeconds(59));
            assertEquals(List.of(), h.readOutput(), "no timer is due before a minute");
            assertEquals(List.of(now + 60_000), h.pendingTimers("ad-1"));

            h.advanceProcessingTime(Duration.ofSeconds(2));
            assertEquals(List.of(KeyValue.pair("ad-1", 2L), KeyValue.pair("ad-2", 1L)), h.readOutput());
            assertEquals(List.of(), h.pendingTimers("ad-1"));
        }
    }

    @Test
    void shouldStartAgainFromOneWhenTheCountExpiredAfterTenMinutes() {
        try (var h = StatefulProcessorTestHarness.of(
                ClickCounts.countOperator(), Serdes.String(), Serdes.String(), Serdes.Long())) {
            h.input("ad-1", "click");
            h.input("ad-1", "click");
            h.advanceProcessingTime(Duration.ofMinutes(11));
            h.readOutput();

            h.input("ad-1", "click");
            assertEquals(List.of(KeyValue.pair("ad-1", 1L)), h.readOutput(), "the TTL of 10 minutes expired the count");
        }
    }
}
