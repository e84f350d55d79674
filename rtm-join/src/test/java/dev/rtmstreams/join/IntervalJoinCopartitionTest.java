package dev.rtmstreams.join;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rtmstreams.processor.RtmException;
import dev.rtmstreams.testkit.EmbeddedKafkaCluster;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@link IntervalJoin#verifyCopartitioned} against a real embedded KRaft broker. */
class IntervalJoinCopartitionTest {

    private static EmbeddedKafkaCluster kafka;
    private static Admin admin;

    @BeforeAll
    static void startBroker() {
        kafka = EmbeddedKafkaCluster.builder().build().start();
        kafka.createTopics(2, "two-a");
        kafka.createTopics(3, "three-a", "three-b");
        admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()));
    }

    @AfterAll
    static void stopBroker() {
        if (admin != null) {
            admin.close();
        }
        if (kafka != null) {
            kafka.close();
        }
    }

    @Test
    void shouldFailNamingTopicsAndPartitionCountsWhenTheInputsHaveDifferentPartitionCounts() {
        assertThatThrownBy(() -> IntervalJoin.verifyCopartitioned(admin, "two-a", "three-a"))
                .isInstanceOfSatisfying(RtmException.class, e -> {
                    assertThat(e.errorCode()).isEqualTo(IntervalJoin.JOIN_INPUTS_NOT_COPARTITIONED);
                    assertThat(e.parameters())
                            .containsExactly(
                                    Map.entry("leftTopic", "two-a"),
                                    Map.entry("leftPartitions", "2"),
                                    Map.entry("rightTopic", "three-a"),
                                    Map.entry("rightPartitions", "3"));
                })
                .hasMessageContaining("'two-a' has 2 partitions")
                .hasMessageContaining("'three-a' has 3");
    }

    @Test
    void shouldPassWhenTheInputsHaveTheSamePartitionCount() {
        assertThatCode(() -> IntervalJoin.verifyCopartitioned(admin, "three-a", "three-b"))
                .doesNotThrowAnyException();
    }

    @Test
    void shouldFailNamingBothTopicsWhenAnInputDoesNotExist() {
        assertThatThrownBy(() -> IntervalJoin.verifyCopartitioned(admin, "three-a", "missing"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("'three-a'")
                .hasMessageContaining("'missing'");
    }
}
