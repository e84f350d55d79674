package dev.rtmstreams.adattribution;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/**
 * The packaged service jar (the container image's, used by {@code run}) holds production code only: nothing else is
 * on the module's compile path, and this checks that it stays so. The demo jar is adattribution-demo's.
 */
class JarContentsIT {

    /** Packages that only the demo (its embedded broker, its workload) and the tests need. */
    private static final List<String> NOT_IN_PRODUCTION = List.of(
            "dev/rtmstreams/testkit/",
            "dev/rtmstreams/tools/",
            "dev/rtmstreams/adattribution/demo/",
            "dev/rtmstreams/adattribution/workload/", // the demo's load: the load generator's workload and oracle
            "kafka/server/", // the broker (Scala)
            "scala/",
            "com/tngtech/archunit/",
            "org/bouncycastle/",
            "org/junit/",
            "org/apache/kafka/raft/",
            "org/apache/kafka/metadata/",
            "org/apache/kafka/streams/TopologyTestDriver"); // kafka-streams-test-utils: test tooling only

    private static List<String> entries(String name) throws IOException {
        Path jar = Path.of(System.getProperty("adattribution.jar")).resolveSibling(name);
        assertThat(jar).as("packaged by mvn package").isRegularFile();
        try (JarFile f = new JarFile(jar.toFile())) {
            return f.stream().map(e -> e.getName()).toList();
        }
    }

    @Test
    void shouldShipTheServiceWithoutBrokerScalaArchUnitOrTestLibrariesInTheServiceJar() throws IOException {
        List<String> service = entries("adattribution-app.jar");
        assertThat(service)
                .contains(
                        "dev/rtmstreams/adattribution/Main.class",
                        "dev/rtmstreams/cli/Durations.class", // rtm-cli-support: the options' duration syntax
                        "org/apache/kafka/streams/KafkaStreams.class",
                        "org/rocksdb/RocksDB.class");
        for (String prefix : NOT_IN_PRODUCTION) {
            assertThat(service).as("service jar entries under %s", prefix).noneMatch(e -> e.startsWith(prefix));
        }
    }
}
