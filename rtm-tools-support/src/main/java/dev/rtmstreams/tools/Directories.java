package dev.rtmstreams.tools;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes directory trees (state directories, broker log directories, report scratch space): the one recursive delete
 * of the tools.
 */
public final class Directories {

    private static final Logger LOG = LoggerFactory.getLogger(Directories.class);

    private Directories() {}

    /**
     * Deletes a directory tree, files before their directories; nothing when {@code root} is null or absent.
     *
     * @param root the tree to delete, or null
     * @throws IOException when an entry cannot be deleted (what was deleted before stays deleted)
     */
    public static void delete(Path root) throws IOException {
        if (root == null || !Files.exists(root)) {
            return;
        }
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.deleteIfExists(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException exc) throws IOException {
                Files.deleteIfExists(dir);
                return FileVisitResult.CONTINUE;
            }
        });
    }

    /**
     * Deletes a directory tree like {@link #delete(Path)}, with failures as {@link UncheckedIOException}.
     *
     * @param root the tree to delete, or null
     * @throws UncheckedIOException when an entry cannot be deleted
     */
    public static void deleteUnchecked(Path root) {
        try {
            delete(root);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + root, e);
        }
    }

    /**
     * Deletes a directory tree like {@link #delete(Path)}; logs a warning instead of throwing (a failed cleanup fails
     * nothing).
     *
     * @param root the tree to delete, or null
     */
    public static void deleteQuietly(Path root) {
        try {
            delete(root);
        } catch (IOException | RuntimeException e) {
            LOG.warn("Could not delete {}: {}", root, e.toString());
        }
    }
}
