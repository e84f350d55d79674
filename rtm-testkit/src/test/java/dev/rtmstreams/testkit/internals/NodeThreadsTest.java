package dev.rtmstreams.testkit.internals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

class NodeThreadsTest {

    private final Set<Integer> started = ConcurrentHashMap.newKeySet();
    private final Set<Integer> killed = ConcurrentHashMap.newKeySet();

    @Test
    void shouldStartEveryNodeInAThreadOfItsOwnWhenAllStart() {
        Set<String> threads = ConcurrentHashMap.newKeySet();

        NodeThreads.startAll(
                List.of(1, 2, 3),
                n -> n,
                n -> {
                    threads.add(Thread.currentThread().getName());
                    started.add(n);
                },
                killed::add);

        assertThat(started).containsExactlyInAnyOrder(1, 2, 3);
        assertThat(threads)
                .containsExactlyInAnyOrder("kafka-cluster-start-1", "kafka-cluster-start-2", "kafka-cluster-start-3");
        assertThat(killed).isEmpty();
    }

    @Test
    void shouldNameTheLowestFailedNodeAndKillEveryNodeWhenNodesDoNotStart() {
        assertThatThrownBy(() -> NodeThreads.startAll(
                        List.of(1, 2, 3),
                        n -> n,
                        n -> {
                            if (n > 1) {
                                throw new IllegalStateException("node " + n + " timed out");
                            }
                            started.add(n);
                        },
                        killed::add))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("broker node 2 of 3 did not start: node 2 timed out")
                .satisfies(e -> assertThat(e.getSuppressed())
                        .singleElement()
                        .satisfies(s -> assertThat(s).hasMessage("node 3 timed out")));
        assertThat(started).containsExactly(1);
        assertThat(killed).containsExactlyInAnyOrder(1, 2, 3);
    }

    @Test
    void shouldStopEveryNodeAndKillNoneWhenOneCannotBeStopped() {
        Set<Integer> stopped = ConcurrentHashMap.newKeySet();

        NodeThreads.stopAll(
                List.of(1, 2, 3),
                n -> n,
                n -> {
                    if (n == 2) {
                        throw new IllegalStateException("cannot stop");
                    }
                    stopped.add(n);
                },
                killed::add);

        assertThat(stopped).containsExactlyInAnyOrder(1, 3);
        assertThat(killed).isEmpty();
    }
}
