package dev.rtmstreams.loadgen.internals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rtmstreams.adattribution.workload.WorkloadConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link BenchOptions}' builder: its defaults, copies and the messages naming a bad value. */
class BenchOptionsTest {

    private static final WorkloadConfig WORKLOAD =
            WorkloadConfig.builder().rate(100).duration(Duration.ofSeconds(1)).build();

    private static BenchOptionsBuilder minimal() {
        return BenchOptions.builder().workload(WORKLOAD).reportDir(Path.of("r"));
    }

    @Test
    void shouldDefaultToTheBenchCommandsDefaults() {
        Map<String, BenchModes.Variant> v = BenchModes.parseVariants(List.of("new=n.jar"), List.of());

        BenchOptions o = minimal().build();

        assertThat(o.workload()).isSameAs(WORKLOAD);
        assertThat(o.reportDir()).isEqualTo(Path.of("r"));
        assertThat(o.modes()).isEqualTo(BenchModes.DEFAULT_MODES);
        assertThat(o.bootstrapServers()).isEmpty();
        assertThat(o.broker()).isEqualTo(BenchOptions.BrokerKind.CHILD_PROCESS);
        assertThat(o.appJar()).isEqualTo(BenchOptions.DEFAULT_APP_JAR);
        assertThat(o.appJvmOptions()).containsExactly("-Xmx1g");
        assertThat(o.appArgs()).isEmpty();
        assertThat(o.partitions()).isEqualTo(2);
        assertThat(o.instances()).isEqualTo(1);
        assertThat(o.warmup()).isEqualTo(Duration.ofMinutes(3));
        assertThat(o.drain()).isEqualTo(Duration.ofSeconds(30));
        assertThat(o.readyTimeout()).isEqualTo(Duration.ofSeconds(120));
        assertThat(o.progress()).isTrue();
        assertThat(o.streamThreads()).isEqualTo(2);
        assertThat(o.peersInChildJvm()).isTrue();
        assertThat(o.rates()).isEmpty();
        assertThat(o.variants()).isEmpty();
        assertThat(o.benchWorkload()).isEqualTo(BenchWorkload.ATTRIBUTION);
        assertThat(o.examplesJar()).isEqualTo(BenchOptions.DEFAULT_EXAMPLES_JAR);
        assertThat(o.rowBytes()).isEqualTo(LatencyWorkload.DEFAULT_ROW_BYTES);
        assertThat(o.brokers()).isEqualTo(1);
        assertThat(o.replicationFactor()).isEqualTo((short) 1);
        // the default modes follow the bench workload and the variants, like the command line's
        assertThat(minimal().variants(v).build().modes()).endsWith("real-time-new");
        assertThat(minimal().benchWorkload(BenchWorkload.STATELESS).build().modes())
                .isEqualTo(BenchWorkload.STATELESS.defaultModes());
    }

    @Test
    void shouldCopyEveryValueIntoAnotherBuilderAndStayImmutable() {
        List<String> modes = new ArrayList<>(List.of("echo"));
        BenchOptions o = minimal()
                .modes(modes)
                .bootstrapServers("b:1")
                .appArgs(List.of("--x"))
                .rates(List.of(10.0, 20.0))
                .rowBytes(7)
                .build();
        modes.add("real-time");

        BenchOptions copy = o.toBuilder().build();
        BenchOptions slower = o.atRate(5);

        assertThat(o.modes()).containsExactly("echo");
        assertThatThrownBy(() -> o.modes().add("x")).isInstanceOf(UnsupportedOperationException.class);
        assertThat(copy.modes()).containsExactly("echo");
        assertThat(copy.bootstrapServers()).contains("b:1");
        assertThat(copy.appArgs()).containsExactly("--x");
        assertThat(copy.rates()).containsExactly(10.0, 20.0);
        assertThat(copy.rowBytes()).isEqualTo(7);
        assertThat(slower.workload().rate()).isEqualTo(5);
        assertThat(slower.rates()).isEmpty();
        assertThat(slower.bootstrapServers()).contains("b:1");
    }

    @Test
    void shouldGiveEachInstanceTwoPartitionsUnlessPartitionsAreGiven() {
        List<String> rt = List.of("real-time", "micro-batch", "real-time-eos");

        assertThat(minimal().modes(rt).instances(2).build().partitions()).isEqualTo(4);
        assertThat(minimal().modes(rt).instances(3).build().partitions()).isEqualTo(6);
        assertThat(minimal().modes(rt).instances(3).partitions(3).build().partitions())
                .isEqualTo(3);
        assertThat(minimal().modes(rt).instances(2).build().toBuilder().build().instances())
                .isEqualTo(2);
        // a variant runs the service too
        Map<String, BenchModes.Variant> v = BenchModes.parseVariants(List.of("new=n.jar"), List.of());
        assertThat(minimal()
                        .variants(v)
                        .modes(List.of("real-time-new"))
                        .instances(2)
                        .build()
                        .modes())
                .containsExactly("real-time-new");
    }

    @Test
    void shouldRefuseSeveralInstancesWithTooFewPartitionsOrWithModesThatDoNotRunTheService() {
        assertThatThrownBy(() -> minimal()
                        .modes(List.of("real-time"))
                        .instances(3)
                        .partitions(2)
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(
                        "--partitions 2 is fewer than --instances 3: an instance would hold no" + " partition");
        assertThatThrownBy(
                        () -> minimal().modes(List.of("real-time")).instances(0).build())
                .hasMessage("instances must be positive: 0");
        assertThatThrownBy(() -> minimal()
                        .modes(List.of("real-time", "echo", "kafka-streams-join-tuned"))
                        .instances(2)
                        .build())
                .hasMessageContaining("modes echo,kafka-streams-join-tuned run one JVM each");
        assertThatThrownBy(() -> minimal()
                        .benchWorkload(BenchWorkload.STATELESS)
                        .modes(List.of("real-time"))
                        .instances(2)
                        .build())
                .hasMessageContaining("workload 'stateless' runs one rtm-examples program");
        // one instance: the peers run as always, with any partition count
        assertThat(minimal().modes(List.of("echo")).partitions(1).build().partitions())
                .isEqualTo(1);
    }

    @Test
    void shouldRejectABadValueNamingIt() {
        assertThatThrownBy(() -> BenchOptions.builder().reportDir(Path.of("r")).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("workload is required");
        assertThatThrownBy(() -> BenchOptions.builder().workload(WORKLOAD).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("reportDir is required");
        assertThatThrownBy(() -> minimal().modes(List.of()).build()).hasMessage("modes must not be empty");
        assertThatThrownBy(() -> minimal().modes(List.of("warp")).build())
                .hasMessageStartingWith("unknown mode 'warp'; known: echo,");
        assertThatThrownBy(() -> minimal().streamThreads(0).build()).hasMessage("streamThreads must be positive: 0");
        assertThatThrownBy(() -> minimal().partitions(-1).build()).hasMessage("partitions must be positive: -1");
        assertThatThrownBy(() -> minimal().rates(List.of(5.0, 0.0)).build()).hasMessage("rates must be positive: 0.0");
        assertThatThrownBy(() -> minimal().rowBytes(1_000_001).build())
                .hasMessage("rowBytes must be in 1..1000000: 1000001");
        assertThatThrownBy(() -> minimal().warmup(null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("warmup");
    }

    @Test
    void shouldReplicateThreeTimesWhenThreeOrMoreBrokersAndRefuseTwoOrAGivenCluster() {
        assertThat(minimal().brokers(3).build().replicationFactor()).isEqualTo((short) 3);
        assertThat(minimal().brokers(5).build().replicationFactor()).isEqualTo((short) 3);
        assertThat(minimal().brokers(3).build().toBuilder().build().brokers()).isEqualTo(3);

        assertThatThrownBy(() -> minimal().brokers(2).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("--brokers must be 1 or 3..9")
                .hasMessageEndingWith(": 2");
        assertThatThrownBy(() -> minimal().brokers(0).build()).hasMessageEndingWith(": 0");
        assertThatThrownBy(() -> minimal().brokers(3).bootstrapServers("b:1").build())
                .hasMessageContaining("--bootstrap-servers b:1");
        assertThatThrownBy(() -> minimal()
                        .brokers(3)
                        .broker(BenchOptions.BrokerKind.IN_PROCESS)
                        .build())
                .hasMessageContaining("--broker child-process, not in-process");
    }
}
