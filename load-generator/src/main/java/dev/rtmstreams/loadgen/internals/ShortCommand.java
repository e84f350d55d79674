package dev.rtmstreams.loadgen.internals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A short command run to its end with a timeout ({@code getconf}, {@code jstat}), its output read from a file. */
final class ShortCommand {

    private ShortCommand() {}

    /**
     * Runs a short command and returns its output (stdout and stderr).
     *
     * @param command the command and its arguments
     * @param timeoutSeconds how long it may take
     * @return its output
     * @throws IOException when it cannot start, takes longer or exits with another code than 0 (named in the message)
     * @throws InterruptedException when interrupted while waiting
     */
    static String run(List<String> command, int timeoutSeconds) throws IOException, InterruptedException {
        Path out = Files.createTempFile("loadgen-cmd-", ".out");
        try {
            Process p = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(out.toFile())
                    .start();
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(String.join(" ", command) + " did not finish within " + timeoutSeconds + " s");
            }
            String text = Files.readString(out, StandardCharsets.UTF_8);
            if (p.exitValue() != 0) {
                throw new IOException(String.join(" ", command) + " exited with " + p.exitValue() + ": " + text.trim());
            }
            return text;
        } finally {
            Files.deleteIfExists(out);
        }
    }
}
