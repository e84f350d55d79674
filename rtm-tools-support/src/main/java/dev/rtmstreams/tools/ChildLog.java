package dev.rtmstreams.tools;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The file a {@link ChildJvm}'s stdout and stderr go to: truncated at start, or appended to across runs.
 *
 * <p>Immutable.
 */
final class ChildLog {

    private final Path file;
    private final boolean append;

    /**
     * @param file the log file, or null for a new temporary file
     * @param append whether each run appends to the file instead of truncating it
     * @throws UncheckedIOException when the temporary file cannot be created
     */
    ChildLog(Path file, boolean append) {
        Path f = file;
        if (f == null) {
            try {
                f = Files.createTempFile("child-jvm-", ".log");
            } catch (IOException e) {
                throw new UncheckedIOException("cannot create a temporary log file", e);
            }
        }
        this.file = f.toAbsolutePath();
        this.append = append;
    }

    /** @return the file (absolute) */
    Path file() {
        return file;
    }

    /**
     * Creates the file's parent directories; when appending to an existing file, has {@code probe} read from its
     * current end, so that an output line readiness reads this run's output only.
     *
     * @param probe the readiness probe of the run
     * @throws IOException when the directories cannot be created or the file's size read
     */
    void prepare(Readiness.Probe probe) throws IOException {
        Files.createDirectories(file.getParent());
        if (append && Files.exists(file)) {
            probe.startAt(Files.size(file));
        }
    }

    /** @return where the child's output goes: appended to, or truncating, the file */
    ProcessBuilder.Redirect redirect() {
        return append ? ProcessBuilder.Redirect.appendTo(file.toFile()) : ProcessBuilder.Redirect.to(file.toFile());
    }

    /**
     * Returns the last lines of the file.
     *
     * @param lines how many
     * @return the text, or a note when the file cannot be read
     */
    String tail(int lines) {
        try {
            List<String> all = Files.readAllLines(file, StandardCharsets.UTF_8);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException | RuntimeException e) {
            return "(no log: " + e + ")";
        }
    }
}
