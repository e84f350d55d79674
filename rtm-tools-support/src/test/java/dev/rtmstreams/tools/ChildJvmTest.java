package dev.rtmstreams.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link ChildJvm} against a real child JVM ({@link ChildJvmTestMain}). */
class ChildJvmTest {

    private static ChildJvm.Builder child(Path dir, String... args) {
        return ChildJvm.builder()
                .mainClass(ChildJvmTestMain.class.getName())
                .jvmOption("-Xmx32m")
                .args(List.of(args))
                .logFile(dir.resolve("logs").resolve("child.log"));
    }

    @Test
    void shouldBeReadyWhenHealthAnswers200AndExitWith143WhenStopped(@TempDir Path dir) throws Exception {
        int port = Ports.freePort();
        try (ChildJvm jvm = child(dir, "health", Integer.toString(port), "1500")
                .environment("CHILD_JVM_TEST", "on")
                .workingDir(dir)
                .readiness(Readiness.health(port))
                .build()
                .start()) {
            Duration waited = jvm.awaitReady(Duration.ofSeconds(30));
            // 503 for the first 1.5 s: the wait must have lasted that long
            assertThat(waited).isGreaterThanOrEqualTo(Duration.ofMillis(1500));
            assertThat(jvm.isAlive()).isTrue();
            assertThat(ProcessHandle.of(jvm.pid()).map(ProcessHandle::isAlive)).contains(true);

            assertThat(jvm.stop()).isEqualTo(143);
            assertThat(jvm.isAlive()).isFalse();
            assertThat(Files.readString(jvm.logFile())).contains("child starting: health", "env CHILD_JVM_TEST=on");
        }
    }

    @Test
    void shouldRequireTheBodyTextWhenAsked(@TempDir Path dir) throws Exception {
        int port = Ports.freePort();
        try (ChildJvm jvm = child(dir, "health", Integer.toString(port), "0")
                .readiness(Readiness.health(port).withBodyContaining("\"state\":\"REBALANCED\""))
                .build()
                .start()) {
            assertThatThrownBy(() -> jvm.awaitReady(Duration.ofSeconds(3)))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("with '\"state\":\"REBALANCED\"'");
        }
    }

    @Test
    void shouldBeReadyWhenHealthSaysKafkaStreamsIsRunning(@TempDir Path dir) throws Exception {
        int port = Ports.freePort();
        Readiness running = Readiness.streamsRunning(port);
        assertThat(running)
                .hasToString("GET http://localhost:" + port + "/health answers 200 with '\"state\":\"RUNNING\"'");
        assertThat(running.port()).isEqualTo(port);
        try (ChildJvm jvm = child(dir, "health", Integer.toString(port), "500")
                .readiness(running)
                .build()
                .start()) {
            assertThat(jvm.awaitReady(Duration.ofSeconds(30))).isGreaterThanOrEqualTo(Duration.ofMillis(500));
        }
    }

    @Test
    void shouldBeReadyOnAWholeOutputLineAndDieWhenKilled(@TempDir Path dir) throws Exception {
        try (ChildJvm jvm = child(dir, "line", "CHILD READY", "300")
                .readiness(Readiness.outputLine("partial CHILD READY"))
                .build()
                .start()) {
            jvm.awaitReady(Duration.ofSeconds(30));
            long pid = jvm.pid();

            assertThat(jvm.kill()).isEqualTo(137);
            assertThat(jvm.isAlive()).isFalse();
            assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))
                    .isFalse();
        }
    }

    @Test
    void shouldFailNamingCommandAndTimeoutWhenNeverReady(@TempDir Path dir) throws Exception {
        try (ChildJvm jvm = child(dir, "silent")
                .readiness(Readiness.outputLine("NEVER PRINTED"))
                .build()
                .start()) {
            assertThatThrownBy(() -> jvm.awaitReady(Duration.ofSeconds(2)))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("not ready (output line containing 'NEVER PRINTED') within PT2S")
                    .hasMessageContaining(ChildJvmTestMain.class.getName() + " silent")
                    .hasMessageContaining("child starting: silent");
            assertThat(jvm.isAlive()).isTrue();
        }
    }

    @Test
    void shouldFailWithTheExitCodeWhenTheChildExitsWhileStarting(@TempDir Path dir) throws Exception {
        try (ChildJvm jvm = child(dir, "exit", "7")
                .readiness(Readiness.outputLine("NEVER PRINTED"))
                .build()
                .start()) {
            assertThatThrownBy(() -> jvm.awaitReady(Duration.ofSeconds(30)))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("exited with 7 before it was ready");
            assertThat(jvm.stop()).isEqualTo(7);
        }
    }

    @Test
    void shouldRunFromAnArgFileAndAppendEachRunToTheSameLog(@TempDir Path dir) throws Exception {
        Path argFile = dir.resolve("args").resolve("jvm.args");
        Path log = dir.resolve("shared.log");
        for (int run = 1; run <= 2; run++) {
            String line = "RUN " + run + " with \"quotes\" and a \\ backslash";
            try (ChildJvm jvm = child(dir, "line", line, "0")
                    .logFile(log)
                    .appendToLog(true)
                    .argFile(argFile)
                    // the child echoes its arguments first; ready once it printed the line itself
                    .readiness(Readiness.outputLine("partial " + line))
                    .build()
                    .start()) {
                assertThat(jvm.command()).hasSize(2).endsWith("@" + argFile.toAbsolutePath());
                jvm.awaitReady(Duration.ofSeconds(30));
            }
        }
        assertThat(Files.readString(log))
                .contains(
                        "partial RUN 1 with \"quotes\" and a \\ backslash",
                        "partial RUN 2 with \"quotes\" and a \\ backslash");
        assertThat(Files.readAllLines(argFile)).contains("\"" + ChildJvmTestMain.class.getName() + "\"");
        // a run appending to the log is ready on its own output only, not on an earlier run's
        try (ChildJvm jvm = child(dir, "silent")
                .logFile(log)
                .appendToLog(true)
                .readiness(Readiness.outputLine("RUN 1"))
                .build()
                .start()) {
            assertThatThrownBy(() -> jvm.awaitReady(Duration.ofSeconds(1)))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("not ready (output line containing 'RUN 1')");
        }
    }

    @Test
    void shouldBeReadyWhenTheCallersCheckSaysSo(@TempDir Path dir) throws Exception {
        AtomicInteger calls = new AtomicInteger();
        try (ChildJvm jvm = child(dir, "silent")
                .readiness(Readiness.check("the third call", () -> calls.incrementAndGet() >= 3))
                .build()
                .start()) {
            jvm.awaitReady(Duration.ofSeconds(30));
            assertThat(calls).hasValue(3);
        }
        try (ChildJvm jvm = child(dir, "silent")
                .readiness(Readiness.check("never", () -> false))
                .build()
                .start()) {
            assertThatThrownBy(() -> jvm.awaitReady(Duration.ofSeconds(1)))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("not ready (never) within PT1S");
        }
        assertThatThrownBy(() -> Readiness.check(" ", () -> true))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("readiness description must not be blank");
    }

    @Test
    void shouldReportTheExitCodeOfAChildThatStopsByItselfWithoutSignallingIt(@TempDir Path dir) throws Exception {
        try (ChildJvm jvm = child(dir, "silent").build().start()) {
            assertThat(jvm.awaitExit(Duration.ofMillis(300))).isEmpty();
            assertThat(jvm.isAlive()).isTrue();
        }
        try (ChildJvm jvm = child(dir, "exit", "7").build().start()) {
            assertThat(jvm.awaitExit(Duration.ofSeconds(30))).hasValue(7);
            assertThatThrownBy(() -> jvm.awaitExit(Duration.ZERO))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("timeout must be positive: PT0S");
        }
    }

    @Test
    void shouldRejectBadOptionsNamingTheValue(@TempDir Path dir) {
        assertThatThrownBy(() -> ChildJvm.builder().build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("set exactly one of mainClass and jar");
        assertThatThrownBy(
                        () -> ChildJvm.builder().jar(dir.resolve("missing.jar")).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("jar not found: " + dir.resolve("missing.jar"));
        assertThatThrownBy(() -> child(dir, "silent").stopTimeout(Duration.ZERO).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("stopTimeout must be positive: PT0S");
        assertThatThrownBy(() -> Readiness.health(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("readiness port must be 1-65535: 0");
        assertThatThrownBy(() -> Readiness.outputLine(""))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ready line must be non-empty");
        assertThatThrownBy(() -> child(dir, "silent").build().pid())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("is not started");
    }
}
