package dev.rtmstreams.adattribution.workload;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.adattribution.model.AdAttributionTopics;
import java.util.List;
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

    @Test
    void shouldPutThePrefixBeforeEveryTopicButTheDlqAndReadThroughToTheServiceTopics() {
        TopicNames topics = TopicNames.DEFAULTS.withPrefix("p.");

        assertThat(topics.echo()).isEqualTo("p.attributed-clicks-echo");
        assertThat(topics.serviceTopics().dlq()).isEqualTo(AdAttributionTopics.DLQ);
        assertThat(List.of(
                        topics.impressions(),
                        topics.clicks(),
                        topics.requests(),
                        topics.acks(),
                        topics.attributedClicks(),
                        topics.logRecords()))
                .containsExactly(
                        "p.ad-impressions",
                        "p.ad-clicks",
                        "p.ad-requests",
                        "p.ad-acks",
                        "p.attributed-clicks",
                        "p.ad-log-records");
        assertThat(topics.inputTopic(EventKind.REQUEST)).isEqualTo("p.ad-requests");
    }
}
