package dev.rtmstreams.loadgen.internals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The temporary state directories of the systems under test: deleted when a system stops. */
final class StateDirectories {

    private static final Logger LOG = LoggerFactory.getLogger(StateDirectories.class);

    private StateDirectories() {}

    /** Deletes a directory tree, deepest entries first; logs instead of throwing (a failed delete fails no run). */
    static void delete(Path root) {
        if (root == null || !Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder())
                    .forEach(path -> path.toFile().delete());
        } catch (IOException | RuntimeException e) {
            LOG.warn("could not delete state directory {}: {}", root, e.toString());
        }
    }
}
