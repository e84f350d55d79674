package dev.rtmstreams.adattribution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Validates the root docker-compose.yml against the compose-spec schema with npm's dclint
 * (no container engine runs on the build machines). dclint is found via -Ddclint.path, $DCLINT,
 * the repository's .ci/node (installed by .ci/run) or PATH. In CI (CI=true) a missing dclint fails
 * the test; elsewhere the test is skipped with the same message.
 */
class ComposeFileTest {

    private static Path repoRoot;
    private static Path dclint;

    @BeforeAll
    static void locate() {
        repoRoot = ObservabilityAssets.repoRoot();
        dclint = findDclint(repoRoot);
        if (dclint == null) {
            String message =
                    "dclint not found: install it with `npm install --prefix .ci/node dclint` (as .ci/run does),"
                            + " put it on PATH, or pass -Ddclint.path=/path/to/dclint";
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                fail(message);
            }
            Assumptions.abort(message);
        }
    }

    @Test
    void shouldPassComposeSpecSchemaAndLintWhenValidatingRootComposeFile() throws Exception {
        Path compose = repoRoot.resolve("docker-compose.yml");
        assertThat(compose).exists();

        Result result = run(compose);

        assertThat(result.exitCode).as("dclint output:%n%s", result.output).isZero();
        assertThat(result.output).doesNotContain("error");
    }

    @Test
    void shouldRejectComposeFileWhenAServiceHasAnUnknownKey(@TempDir Path dir) throws Exception {
        // Control: the same check fails on a schema violation, so the test above can fail.
        String compose = Files.readString(repoRoot.resolve("docker-compose.yml"), StandardCharsets.UTF_8);
        Path broken = dir.resolve("docker-compose.yml");
        Files.writeString(
                broken,
                compose.replace(
                        "    restart: unless-stopped\n", "    restart: unless-stopped\n    not_a_compose_key: 1\n"),
                StandardCharsets.UTF_8);

        Result result = run(broken);

        assertThat(result.exitCode).isNotZero();
        assertThat(result.output).contains("invalid-schema");
    }

    @Test
    void shouldDeclareBrokerTopicsServiceAndProfiledLoadGeneratorWhenReadingComposeFile() throws IOException {
        String compose = Files.readString(repoRoot.resolve("docker-compose.yml"), StandardCharsets.UTF_8);

        assertThat(compose)
                .contains(
                        "image: apache/kafka:4.",
                        "KAFKA_PROCESS_ROLES: broker,controller",
                        "context: ./adattribution-app",
                        "profiles: [ load ]",
                        "RTM_BOOTSTRAP_SERVERS: kafka:19092",
                        "service_completed_successfully",
                        "image: postgres:",
                        "RTM_POSTGRES_URL: jdbc:postgresql://postgres:5432/",
                        "condition: service_healthy");
    }

    private record Result(int exitCode, String output) {}

    private static Result run(Path compose) throws IOException, InterruptedException {
        List<String> cmd =
                new ArrayList<>(List.of(dclint.toString(), "--max-warnings", "0", "--no-color", compose.toString()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("dclint did not finish in 60 s");
        }
        return new Result(p.exitValue(), out);
    }

    private static Path findDclint(Path root) {
        List<String> candidates = new ArrayList<>();
        if (System.getProperty("dclint.path") != null) {
            candidates.add(System.getProperty("dclint.path"));
        }
        if (System.getenv("DCLINT") != null) {
            candidates.add(System.getenv("DCLINT"));
        }
        candidates.add(root.resolve(".ci/node/node_modules/.bin/dclint").toString());
        candidates.add(root.resolve(".ci/node/bin/dclint").toString());
        String path = System.getenv("PATH");
        if (path != null) {
            for (String dir : path.split(File.pathSeparator)) {
                candidates.add(Path.of(dir, "dclint").toString());
            }
        }
        for (String c : candidates) {
            Path p = Path.of(c);
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        return null;
    }
}
