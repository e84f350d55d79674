package dev.rtmstreams.examples.internals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

class RateSourceTest {

    @Test
    void shouldNumberRowsAndCycleKeysAndValuesWhenConfigured() {
        RateSource rate = RateSource.builder().keys(3).distinctValues(4).build();

        assertThat(rate.row(0)).isEqualTo(new RateSource.Row(0, "key-0", 0));
        assertThat(rate.row(5)).isEqualTo(new RateSource.Row(5, "key-2", 1));
        assertThat(RateSource.builder().build().row(1234)).isEqualTo(new RateSource.Row(1234, "key-34", 1234));
    }

    @Test
    void shouldSendRowsRoundRobinWithDuplicatesWhenRun() {
        MockProducer<String, String> producer =
                new MockProducer<>(true, null, new StringSerializer(), new StringSerializer());
        RateSource rate =
                RateSource.builder().rowsPerSecond(100).duplicateEvery(2).build();

        RateSource.Result r = rate.run(producer, List.of("t1", "t2"), Duration.ofMillis(100), () -> false);

        assertThat(r.rows()).isEqualTo(10);
        assertThat(r.records()).isEqualTo(15);
        List<ProducerRecord<String, String>> sent = producer.history();
        assertThat(sent).extracting(ProducerRecord::value).startsWith("0", "1", "1", "2", "3", "3");
        assertThat(sent).extracting(ProducerRecord::topic).startsWith("t1", "t2", "t2", "t1", "t2", "t2");
        assertThat(sent.get(1).timestamp()).isEqualTo(sent.get(2).timestamp());
    }

    @Test
    void shouldNameTheBadOptionWhenBuilt() {
        assertThatThrownBy(() -> RateSource.builder().rowsPerSecond(0).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("rowsPerSecond");
        assertThatThrownBy(() -> RateSource.builder().keys(0).build()).hasMessageContaining("keys must be positive: 0");
        assertThatThrownBy(() -> RateSource.builder().distinctValues(-1).build())
                .hasMessageContaining("distinctValues");
        assertThatThrownBy(() -> RateSource.builder().duplicateEvery(-2).build())
                .hasMessageContaining("duplicateEvery");
    }
}
