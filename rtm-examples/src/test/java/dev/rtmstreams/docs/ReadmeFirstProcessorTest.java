package dev.rtmstreams.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The README's first processor is the consumer project's source, character for character: it/consumer builds and tests
 * it against the published artifacts (docs/releasing.md), so the README shows code that compiles and works. The
 * consumer project stays outside the build and uses the libraries only through the BOM.
 */
class ReadmeFirstProcessorTest {

    static final String SECTION = "## A first processor";
    static final Path CONSUMER = Path.of("it", "consumer");
    static final Path CONSUMER_SOURCE =
            CONSUMER.resolve(Path.of("src", "main", "java", "com", "example", "clicks", "ClickCounts.java"));

    @Test
    void shouldShowTheConsumerProjectsSourceAsTheReadmesFirstProcessor() throws IOException {
        Path root = DocsLinksTest.repositoryRoot();
        String readme = Files.readString(root.resolve("README.md"));

        assertThat(javaBlockUnder(readme, SECTION))
                .as("the java block under '%s' in README.md is %s, exactly", SECTION, CONSUMER_SOURCE)
                .isEqualTo(Files.readString(root.resolve(CONSUMER_SOURCE)));
    }

    @Test
    void shouldBuildTheConsumerProjectOutsideTheReactorThroughTheBom() throws IOException {
        Path root = DocsLinksTest.repositoryRoot();
        assertThat(Files.readString(root.resolve("pom.xml"))).doesNotContain("<module>it");
        String pom = Files.readString(root.resolve(CONSUMER).resolve("pom.xml"));

        assertThat(pom)
                .doesNotContain("<parent>")
                .contains("<artifactId>rtm-bom</artifactId><version>${rtm.version}</version><type>pom</type>"
                        + "<scope>import</scope>");
        for (String library : List.of("rtm-stateful-processor", "rtm-join", "rtm-topology", "rtm-state-avro")) {
            assertThat(pom).contains("<artifactId>" + library + "</artifactId></dependency>");
        }
        assertThat(pom).contains("<artifactId>rtm-test-utils</artifactId><scope>test</scope>");
        assertThat(root.resolve(CONSUMER).resolve("run.sh")).isExecutable();
    }

    @Test
    void shouldReadOnlyTheFirstJavaBlockOfTheNamedSection() {
        String markdown = String.join(
                "\n",
                "# Title",
                "## A",
                "```java",
                "class A {}",
                "```",
                "## B",
                "text",
                "```bash",
                "echo b",
                "```",
                "```java",
                "class B {",
                "}",
                "```",
                "```java",
                "class C {}",
                "```",
                "## D",
                "no code");

        assertThat(javaBlockUnder(markdown, "## B")).isEqualTo("class B {\n}\n");
        assertThatThrownBy(() -> javaBlockUnder(markdown, "## D"))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("## D");
        assertThatThrownBy(() -> javaBlockUnder(markdown, "## E"))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("## E");
    }

    /** @return the first {@code ```java} block between the heading line and the next heading of its level, each line
     *     ending with a newline */
    static String javaBlockUnder(String markdown, String heading) {
        List<String> lines = markdown.lines().toList();
        int start = lines.indexOf(heading);
        if (start < 0) {
            throw new AssertionError("no heading " + heading);
        }
        String level = heading.substring(0, heading.indexOf(' ') + 1);
        StringBuilder block = null;
        for (String line : lines.subList(start + 1, lines.size())) {
            if (block == null && line.startsWith(level)) {
                break;
            }
            if (block == null) {
                if (line.equals("```java")) {
                    block = new StringBuilder();
                }
            } else if (line.equals("```")) {
                return block.toString();
            } else {
                block.append(line).append('\n');
            }
        }
        throw new AssertionError("no ```java block under " + heading);
    }
}
