package dev.rtmstreams.adattribution.workload;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.adattribution.model.AdAttributionTopics;
import org.junit.jupiter.api.Test;

class TopicNamesTest {

    @Test
    void shouldHandTheServiceTheSuffixedTopicsAndItsDefaultDlqWhenStartingIt() {
        TopicNames topics = TopicNames.DEFAULTS.withSuffix("-n1real-time");

        assertThat(topics.serviceTopics().serviceArgs())
                .containsExactly(
                        "--impressions-topic",
                        "ad-impressions-n1real-time",
                        "--clicks-topic",
                        "ad-clicks-n1real-time",
                        "--requests-topic",
                        "ad-requests-n1real-time",
                        "--acks-topic",
                        "ad-acks-n1real-time",
                        "--attributed-clicks-topic",
                        "attributed-clicks-n1real-time",
                        "--log-records-topic",
                        "ad-log-records-n1real-time",
                        "--dlq-topic",
                        AdAttributionTopics.DLQ);
    }
}
