package dev.rtmstreams.adattribution.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ServiceTopicsTest {

    @Test
    void shouldNameEveryTopicOptionOfTheServiceWhenAssemblingItsArguments() {
        assertThat(ServiceTopics.DEFAULTS.withPrefix("p.").serviceArgs())
                .containsExactly(
                        "--impressions-topic",
                        "p.ad-impressions",
                        "--clicks-topic",
                        "p.ad-clicks",
                        "--requests-topic",
                        "p.ad-requests",
                        "--acks-topic",
                        "p.ad-acks",
                        "--attributed-clicks-topic",
                        "p.attributed-clicks",
                        "--log-records-topic",
                        "p.ad-log-records",
                        "--dlq-topic",
                        "p.adattribution-dlq");
    }

    @Test
    void shouldAppendTheSuffixToEveryTopicAndReplaceOnlyTheDlqWhenAsked() {
        ServiceTopics t = ServiceTopics.DEFAULTS.withSuffix("-1");

        assertThat(t.all())
                .containsExactlyElementsOf(ServiceTopics.DEFAULTS.all().stream()
                        .map(name -> name + "-1")
                        .toList())
                .contains("ad-impressions-1", "adattribution-dlq-1");
        ServiceTopics dead = t.withDlq("dead");
        assertThat(dead.dlq()).isEqualTo("dead");
        assertThat(dead.withDlq(t.dlq())).isEqualTo(t);
        assertThatThrownBy(() -> t.withDlq(null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("dlq");
    }

    @Test
    void shouldListInputsAndEveryTopicWhenAsked() {
        ServiceTopics t = ServiceTopics.DEFAULTS;

        assertThat(t.inputs())
                .containsExactly(
                        AdAttributionTopics.IMPRESSIONS,
                        AdAttributionTopics.CLICKS,
                        AdAttributionTopics.REQUESTS,
                        AdAttributionTopics.ACKS);
        assertThat(t.all()).hasSize(7).containsAll(t.inputs()).contains(AdAttributionTopics.DLQ);
    }

    @Test
    void shouldNameTheMissingTopicWhenANameIsNull() {
        assertThatThrownBy(() -> new ServiceTopics("i", "c", "r", "a", "ac", "lr", null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("dlq");
    }
}
