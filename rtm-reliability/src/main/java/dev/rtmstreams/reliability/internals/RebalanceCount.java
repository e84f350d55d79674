package dev.rtmstreams.reliability.internals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;

/**
 * Counts the rebalances an instance went through, from the service's log: each Kafka Streams client state change
 * {@code event=state-change from=RUNNING to=REBALANCING} (logged by the service's state listener under both group
 * protocols) is one rebalance the instance took part in. A JVM's own start ({@code from=CREATED}) is not one; a static
 * member that rejoins without a rebalance logs none on the other instances.
 */
final class RebalanceCount {

    /** What each counted log line contains. */
    static final String MARKER = "event=state-change from=RUNNING to=REBALANCING";

    /** Where the counts come from, for the report. */
    static final String SOURCE = "service logs: Kafka Streams state changes from=RUNNING to=REBALANCING";

    private RebalanceCount() {}

    /**
     * Counts the rebalance lines stamped at or after an instant.
     *
     * @param lines log lines ({@code ts=<ISO instant> ...})
     * @param from the instant
     * @return how many; a line whose time cannot be read is counted (it is in the log of the run)
     */
    static int count(List<String> lines, Instant from) {
        int n = 0;
        for (String line : lines) {
            if (line.contains(MARKER) && !stamp(line).isBefore(from)) {
                n++;
            }
        }
        return n;
    }

    /**
     * Counts the rebalance lines of several log files (one instance's starts) at or after an instant.
     *
     * @param logs the files; missing ones count nothing
     * @param from the instant
     * @return how many
     * @throws IOException when a file cannot be read
     */
    static int countInLogs(List<Path> logs, Instant from) throws IOException {
        int n = 0;
        for (Path log : logs) {
            if (Files.isRegularFile(log)) {
                n += count(Files.readAllLines(log, StandardCharsets.UTF_8), from);
            }
        }
        return n;
    }

    private static Instant stamp(String line) {
        if (line.startsWith("ts=")) {
            int end = line.indexOf(' ');
            try {
                return Instant.parse(line.substring(3, end < 0 ? line.length() : end));
            } catch (DateTimeParseException e) {
                return Instant.MAX;
            }
        }
        return Instant.MAX;
    }
}
