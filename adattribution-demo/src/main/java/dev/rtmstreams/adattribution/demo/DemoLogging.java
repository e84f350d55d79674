package dev.rtmstreams.adattribution.demo;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.FileAppender;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.slf4j.LoggerFactory;

/**
 * Keeps the demo's console for its narrative, progress bars and table: the service's logs (Kafka's warnings
 * included) and the epoch progress JSON lines go to two files of the report directory instead of the console.
 */
public final class DemoLogging {

    /** Logger of the epoch progress JSON lines (rtm-topology). */
    static final String PROGRESS_LOGGER = "dev.rtmstreams.topology.progress";

    /** Where the logs went. */
    public record LogFiles(Path log, Path epochs) {}

    private DemoLogging() {}

    /**
     * Sends every log line to {@code dir/demo.log} and the epoch progress to {@code dir/epochs.jsonl}.
     *
     * @param dir the report directory (created if missing)
     * @return the two files, or empty when the logging backend is not logback (a user's own binding: left alone)
     * @throws IOException when the directory cannot be created
     */
    public static Optional<LogFiles> toFiles(Path dir) throws IOException {
        if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext ctx)) {
            return Optional.empty();
        }
        Files.createDirectories(dir);
        Path log = dir.resolve("demo.log").toAbsolutePath();
        Path epochs = dir.resolve("epochs.jsonl").toAbsolutePath();
        redirect(
                ctx,
                ctx.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME),
                log,
                "ts=%d{yyyy-MM-dd'T'HH:mm:ss.SSSXXX,UTC} level=%level thread=%thread logger=%logger{36} %msg%n");
        Logger progress = ctx.getLogger(PROGRESS_LOGGER);
        progress.setAdditive(false);
        redirect(ctx, progress, epochs, "%msg%n");
        return Optional.of(new LogFiles(log, epochs));
    }

    private static void redirect(LoggerContext ctx, Logger logger, Path file, String pattern) {
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(ctx);
        encoder.setPattern(pattern);
        encoder.start();
        FileAppender<ILoggingEvent> appender = new FileAppender<>();
        appender.setContext(ctx);
        appender.setName("demo-file-" + file.getFileName());
        appender.setFile(file.toString());
        appender.setAppend(false);
        appender.setEncoder(encoder);
        appender.start();
        logger.detachAndStopAllAppenders();
        logger.addAppender(appender);
    }
}
