package dev.rtmstreams.adattribution.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/** The packaged demo jar: the service, the embedded broker and the workload, with the demo's main class. */
class DemoJarContentsIT {

    private static Path jar(String property) {
        Path jar = Path.of(System.getProperty(property));
        assertThat(jar).as("packaged by mvn package").isRegularFile();
        return jar;
    }

    @Test
    void shouldShipTheServiceTheEmbeddedBrokerAndTheWorkloadInTheDemoJar() throws IOException {
        Path demoJar = jar("adattribution.demo.jar");
        List<String> entries;
        try (JarFile f = new JarFile(demoJar.toFile())) {
            entries = f.stream().map(e -> e.getName()).toList();
            assertThat(f.getManifest().getMainAttributes().getValue("Main-Class"))
                    .isEqualTo(DemoMain.class.getName());
        }
        assertThat(entries)
                .contains(
                        "dev/rtmstreams/adattribution/Main.class",
                        "dev/rtmstreams/adattribution/demo/DemoCommand.class",
                        "dev/rtmstreams/adattribution/workload/LoadRun.class",
                        "dev/rtmstreams/testkit/EmbeddedKafkaCluster.class")
                .anyMatch(e -> e.startsWith("kafka/server/"));
        assertThat(Files.size(jar("adattribution.jar")))
                .as("the service jar is smaller than the demo jar")
                .isLessThan(Files.size(demoJar));
    }
}
