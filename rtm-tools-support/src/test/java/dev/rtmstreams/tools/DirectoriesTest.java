package dev.rtmstreams.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DirectoriesTest {

    @Test
    void shouldDeleteTheWholeTreeWhenItHasNestedFiles(@TempDir Path dir) throws Exception {
        Path root = dir.resolve("root");
        Files.createDirectories(root.resolve("a/b"));
        Files.writeString(root.resolve("a/b/file"), "x");
        Files.writeString(root.resolve("top"), "y");

        Directories.delete(root);

        assertThat(root).doesNotExist();
        assertThat(dir).exists();
    }

    @Test
    void shouldDoNothingWhenTheTreeIsAbsentOrNull(@TempDir Path dir) {
        assertThatCode(() -> {
                    Directories.delete(dir.resolve("missing"));
                    Directories.deleteUnchecked(null);
                    Directories.deleteQuietly(dir.resolve("missing"));
                })
                .doesNotThrowAnyException();
    }
}
