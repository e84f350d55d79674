package dev.rtmstreams.adattribution;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;

/**
 * The packaged service jar (the container image's, used by {@code run}) holds production code only: nothing else is
 * on the module's compile path, and this checks that it stays so. It carries the project's licence, the bundled
 * dependencies' notices and the list of those dependencies with their licences. The demo jar is adattribution-demo's.
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

    private static Path jar(String name) {
        Path jar = Path.of(System.getProperty("adattribution.jar")).resolveSibling(name);
        assertThat(jar).as("packaged by mvn package").isRegularFile();
        return jar;
    }

    private static List<String> entries(String name) throws IOException {
        try (JarFile f = new JarFile(jar(name).toFile())) {
            return f.stream().map(e -> e.getName()).toList();
        }
    }

    private static String text(String jarName, String entry) throws IOException {
        try (JarFile f = new JarFile(jar(jarName).toFile())) {
            ZipEntry e = f.getEntry(entry);
            assertThat(e).as("%s in %s", entry, jarName).isNotNull();
            try (InputStream in = f.getInputStream(e)) {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
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

    @Test
    void shouldCarryTheLicenceTheNoticesAndTheThirdPartyListInTheServiceJar() throws IOException {
        assertThat(entries("adattribution-app.jar"))
                .as("one licence file: the dependencies' copies of the Apache licence are dropped")
                .containsOnlyOnce("META-INF/LICENSE", "META-INF/NOTICE", "META-INF/THIRD-PARTY.txt");
        assertThat(text("adattribution-app.jar", "META-INF/LICENSE"))
                .contains("Apache License", "Version 2.0, January 2004", "END OF TERMS AND CONDITIONS");
        assertThat(text("adattribution-app.jar", "META-INF/NOTICE"))
                .as("the project's notice and the bundled dependencies' notices, merged")
                .contains("rtm-streams\nCopyright 2026 The rtm-streams authors", "Apache Avro", "Apache Commons");

        List<String> thirdParty = text("adattribution-app.jar", "META-INF/THIRD-PARTY.txt")
                .lines()
                .toList();
        assertThat(thirdParty)
                .as("every bundled dependency with its licence")
                .anyMatch(l ->
                        l.contains("(Apache License, Version 2.0)") && l.contains("(org.apache.kafka:kafka-streams:"))
                .anyMatch(l -> l.contains("(org.apache.kafka:kafka-clients:"))
                .anyMatch(l -> l.contains("(org.rocksdb:rocksdbjni:"))
                .anyMatch(l -> l.contains("(MIT License)") && l.contains("(org.slf4j:slf4j-api:"))
                .as("neither the project's own modules nor test libraries")
                .noneMatch(l -> l.contains("(dev.rtmstreams:"))
                .noneMatch(l -> l.contains("(org.junit") || l.contains("(org.assertj:"));
    }
}
