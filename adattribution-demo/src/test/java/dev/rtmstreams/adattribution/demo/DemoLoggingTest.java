package dev.rtmstreams.adattribution.demo;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.util.ContextInitializer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

class DemoLoggingTest {

    @AfterEach
    void restoreLogging() throws Exception {
        LoggerContext ctx = (LoggerContext) LoggerFactory.getILoggerFactory();
        ctx.reset();
        new ContextInitializer(ctx).autoConfig();
    }

    @Test
    void shouldSendLogsAndEpochProgressToTwoFilesOfTheReportDirectory(@TempDir Path dir) throws Exception {
        DemoLogging.LogFiles files = DemoLogging.toFiles(dir.resolve("report")).orElseThrow();

        LoggerFactory.getLogger("org.apache.kafka.clients.NetworkClient").warn("broker may not be available");
        LoggerFactory.getLogger(DemoLogging.PROGRESS_LOGGER).info("{\"epoch\":7}");

        assertThat(files.log()).isEqualTo(dir.resolve("report/demo.log").toAbsolutePath());
        assertThat(Files.readString(files.log(), StandardCharsets.UTF_8))
                .contains("level=WARN", "broker may not be available")
                .doesNotContain("\"epoch\"");
        assertThat(Files.readString(files.epochs(), StandardCharsets.UTF_8)).isEqualTo("{\"epoch\":7}\n");
    }
}
