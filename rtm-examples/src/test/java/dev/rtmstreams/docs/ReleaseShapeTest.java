package dev.rtmstreams.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The release shape of the libraries: the BOM pins exactly the library artifacts at the build's version, and every
 * library builds a sources jar, a javadoc jar and checks its public API against its baseline in api-baseline/.
 */
class ReleaseShapeTest {

    static final List<String> LIBRARIES =
            List.of("rtm-stateful-processor", "rtm-join", "rtm-topology", "rtm-test-utils");

    private static final Pattern VERSION = Pattern.compile("<version>([^<]+)</version>");
    private static final Pattern MANAGED = Pattern.compile("<artifactId>([^<]+)</artifactId><version>");

    @Test
    void shouldPinEveryLibraryAtTheBuildVersionInTheBom() throws IOException {
        Path root = DocsLinksTest.repositoryRoot();
        String parent = Files.readString(root.resolve("pom.xml"));
        String bom = Files.readString(root.resolve("rtm-bom/pom.xml"));

        assertThat(firstVersion(bom)).as("rtm-bom's version").isEqualTo(firstVersion(parent));
        assertThat(parent).contains("<module>rtm-bom</module>");
        List<String> pinned = new ArrayList<>();
        String managed = bom.substring(bom.indexOf("<dependencyManagement>"), bom.indexOf("</dependencyManagement>"));
        Matcher m = MANAGED.matcher(managed);
        while (m.find()) {
            pinned.add(m.group(1));
        }
        assertThat(pinned).containsExactlyElementsOf(LIBRARIES);
        assertThat(bom).doesNotContain("<parent>"); // importing it pins nothing but rtm-streams artifacts
    }

    @Test
    void shouldBuildSourcesAndJavadocAndCheckTheApiOfEveryLibrary() throws IOException {
        Path root = DocsLinksTest.repositoryRoot();
        for (String library : LIBRARIES) {
            String pom = Files.readString(root.resolve(library).resolve("pom.xml"));
            assertThat(pom)
                    .as(library)
                    .contains(
                            "<artifactId>maven-source-plugin</artifactId>",
                            "<artifactId>maven-javadoc-plugin</artifactId>",
                            "<artifactId>japicmp-maven-plugin</artifactId>");
            assertThat(root.resolve("api-baseline").resolve(library + ".jar"))
                    .as("API baseline of %s", library)
                    .isRegularFile();
        }
    }

    /** @return the first {@code <version>} after the project's own artifactId (the parent's, for the root) */
    private static String firstVersion(String pom) {
        String project = pom.replaceAll("(?s)<parent>.*?</parent>", "");
        Matcher m = VERSION.matcher(project);
        assertThat(m.find()).isTrue();
        return m.group(1);
    }
}
