package dev.rtmstreams.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServiceJarTest {

    @Test
    void shouldRunTheServiceCommandLineFromTheJarWhenBuilt(@TempDir Path dir) throws Exception {
        Path jar = Files.createFile(dir.resolve("adattribution-app.jar"));

        ChildJvm child = ServiceJar.run(jar, "localhost:9092", "app-1", dir.resolve("state"), 8099)
                .args(List.of("--trigger", "real-time"))
                .build();

        assertThat(child.command())
                .containsSubsequence(
                        "-Dorg.apache.avro.SERIALIZABLE_PACKAGES=dev.rtmstreams",
                        "-jar",
                        jar.toString(),
                        "run",
                        "--bootstrap-servers",
                        "localhost:9092",
                        "--application-id",
                        "app-1",
                        "--state-dir",
                        dir.resolve("state").toAbsolutePath().toString(),
                        "--http-port",
                        "8099",
                        "--trigger",
                        "real-time");
        assertThat(child.readiness().port()).isEqualTo(8099);
    }

    @Test
    void shouldNameTheJarAndHowToBuildItWhenTheJarIsMissing(@TempDir Path dir) {
        assertThatThrownBy(() -> ServiceJar.requireJar(dir.resolve("missing.jar")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("service jar not found")
                .hasMessageContaining("missing.jar")
                .hasMessageContaining("mvn -B -pl adattribution-app -am package");
    }
}
