package dev.rtmstreams.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README is the front door and the manual lives in {@code docs/}: every relative link of README.md, of
 * every {@code docs/**}{@code /*.md} and of the repository's other Markdown files resolves to a file or directory of
 * the repository, every {@code #anchor} into a Markdown file names one of its headings (GitHub's slugs), and the README
 * stays at most {@value #README_MAX_LINES} lines. Links inside fenced code blocks and code spans are not links;
 * {@code http(s):} and {@code mailto:} links are not checked.
 */
class DocsLinksTest {

    static final int README_MAX_LINES = 250;

    private static final Pattern INLINE_LINK =
            Pattern.compile("!?\\[(?:[^\\[\\]]|\\[[^\\[\\]]*])*]\\(\\s*<?([^)\\s>]+)>?(?:\\s+\"[^\"]*\")?\\s*\\)");
    private static final Pattern REFERENCE_DEFINITION =
            Pattern.compile("(?m)^ {0,3}\\[[^\\]]+]:\\s*<?(\\S+?)>?(?:\\s+\"[^\"]*\")?\\s*$");
    private static final Pattern HEADING = Pattern.compile("^ {0,3}(#{1,6})\\s+(.*?)(?:\\s+#+)?\\s*$");
    private static final Pattern HTML_ANCHOR = Pattern.compile("<a\\s+(?:name|id)=\"([^\"]+)\"");
    static final Pattern SCHEME = Pattern.compile("^[a-zA-Z][a-zA-Z0-9+.-]*:");

    @Test
    void shouldResolveEveryRelativeLinkWhenReadingTheReadmeAndTheDocs() throws IOException {
        Path root = repositoryRoot();

        List<String> broken = brokenLinks(root, documentedFiles(root));

        assertThat(broken)
                .as("broken relative links (file: line: link -> problem)")
                .isEmpty();
    }

    @Test
    void shouldKeepTheReadmeShortWhenItIsTheFrontDoor() throws IOException {
        List<String> lines = Files.readAllLines(repositoryRoot().resolve("README.md"), StandardCharsets.UTF_8);

        assertThat(lines)
                .as("README.md lines (the manual belongs in docs/)")
                .hasSizeLessThanOrEqualTo(README_MAX_LINES);
    }

    @Test
    void shouldReportTheLinkWhenItsFileOrAnchorIsMissing(@TempDir Path dir) throws IOException {
        Files.createDirectories(dir.resolve("docs"));
        Files.writeString(
                dir.resolve("README.md"),
                String.join(
                        "\n",
                        "# Title",
                        "## The `two` commands / here",
                        "See [ok](docs/a.md#part-one), [self](#the-two-commands--here),",
                        "[gone](docs/missing.md), [bad anchor](docs/a.md#nowhere), [web](https://example.com/x.md)",
                        "`[code span](docs/nothing.md)`",
                        "```",
                        "[fenced](docs/nothing.md)",
                        "```",
                        "[ref]: docs/also-missing.md"));
        Files.writeString(dir.resolve("docs/a.md"), "# A\n\n## Part one\n\n[up](../README.md#title) [dir](../docs/)\n");

        List<String> broken = brokenLinks(dir, List.of(dir.resolve("README.md"), dir.resolve("docs/a.md")));

        assertThat(broken)
                .containsExactlyInAnyOrder(
                        "README.md:4: docs/missing.md -> no such file",
                        "README.md:4: docs/a.md#nowhere -> no heading 'nowhere' in docs/a.md",
                        "README.md:9: docs/also-missing.md -> no such file");
    }

    @Test
    void shouldSlugHeadingsAsGitHubDoesWhenTheyHoldPunctuationCodeAndRepeats() {
        Map<String, Integer> seen = new HashMap<>();

        assertThat(slug("Migrating from Spark / behaviour changes", seen))
                .isEqualTo("migrating-from-spark--behaviour-changes");
        assertThat(slug("StatefulProcessor (rtm-stateful-processor)", seen))
                .isEqualTo("statefulprocessor-rtm-stateful-processor");
        assertThat(slug("Reliability: chaos scenarios (`rtm-reliability`)", seen))
                .isEqualTo("reliability-chaos-scenarios-rtm-reliability");
        assertThat(slug("See [the docs](docs/README.md)", seen)).isEqualTo("see-the-docs");
        assertThat(slug("Security", seen)).isEqualTo("security");
        assertThat(slug("Security", seen)).isEqualTo("security-1");
    }

    /**
     * README.md, every Markdown file under docs/, and the repository's other Markdown files (BENCHMARKS.md,
     * RELIABILITY.md, module READMEs): every {@code *.md} outside build output ({@code target}), {@code node_modules}
     * and hidden directories.
     */
    static List<Path> documentedFiles(Path root) throws IOException {
        List<Path> files = repositoryFiles(
                root,
                name -> name.startsWith("."),
                file -> file.getFileName().toString().endsWith(".md"));
        assertThat(files)
                .as("Markdown files checked")
                .contains(root.resolve("README.md"), root.resolve("docs/README.md"));
        return files;
    }

    /**
     * Every file under {@code root} that {@code kept} accepts, sorted; directories named {@code target} or
     * {@code node_modules}, or whose name {@code skippedDirectory} accepts, are not entered (nor are files of that
     * name, such as a worktree's {@code .git} file).
     */
    static List<Path> repositoryFiles(Path root, Predicate<String> skippedDirectory, Predicate<Path> kept)
            throws IOException {
        List<Path> files = new ArrayList<>();
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                return !dir.equals(root) && skipped(dir) ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                if (attrs.isRegularFile() && !skipped(file) && kept.test(file)) {
                    files.add(file);
                }
                return FileVisitResult.CONTINUE;
            }

            private boolean skipped(Path path) {
                String name =
                        path.getFileName() == null ? "" : path.getFileName().toString();
                return name.equals("target") || name.equals("node_modules") || skippedDirectory.test(name);
            }
        });
        files.sort(null);
        return files;
    }

    /** A link of a Markdown file: its 1-based line and its target as written. */
    record Link(Path file, int line, String target) {}

    /**
     * The links of Markdown files: inline links and images, and reference definitions; links inside fenced code
     * blocks and code spans are not links.
     */
    static List<Link> links(List<Path> files) throws IOException {
        List<Link> links = new ArrayList<>();
        for (Path file : files) {
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            boolean fenced = false;
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                if (line.stripLeading().startsWith("```") || line.stripLeading().startsWith("~~~")) {
                    fenced = !fenced;
                    continue;
                }
                if (fenced) {
                    continue;
                }
                String text = line.replaceAll("`[^`]*`", "``");
                Matcher inline = INLINE_LINK.matcher(text);
                while (inline.find()) {
                    links.add(new Link(file, i + 1, inline.group(1)));
                }
                Matcher reference = REFERENCE_DEFINITION.matcher(text);
                while (reference.find()) {
                    links.add(new Link(file, i + 1, reference.group(1)));
                }
            }
        }
        return links;
    }

    /** {@code file}'s path relative to {@code root}, with forward slashes. */
    static String relative(Path root, Path file) {
        return root.relativize(file).toString().replace('\\', '/');
    }

    private static List<String> brokenLinks(Path root, List<Path> files) throws IOException {
        Map<Path, Set<String>> anchorsByFile = new HashMap<>();
        List<String> broken = new ArrayList<>();
        for (Link link : links(files)) {
            String problem = problem(root, link.file(), link.target(), anchorsByFile);
            if (problem != null) {
                broken.add(relative(root, link.file()) + ":" + link.line() + ": " + link.target() + " -> " + problem);
            }
        }
        return broken;
    }

    /** @return what is wrong with the link, or null when it resolves (or is not relative) */
    private static String problem(Path root, Path file, String target, Map<Path, Set<String>> anchorsByFile) {
        if (SCHEME.matcher(target).find() || target.startsWith("//")) {
            return null;
        }
        int hash = target.indexOf('#');
        String pathPart = hash < 0 ? target : target.substring(0, hash);
        String anchor = hash < 0 ? null : URLDecoder.decode(target.substring(hash + 1), StandardCharsets.UTF_8);
        int query = pathPart.indexOf('?');
        if (query >= 0) {
            pathPart = pathPart.substring(0, query);
        }
        Path resolved = pathPart.isEmpty()
                ? file
                : (pathPart.startsWith("/")
                                ? root.resolve(pathPart.substring(1))
                                : file.getParent().resolve(URLDecoder.decode(pathPart, StandardCharsets.UTF_8)))
                        .normalize();
        if (!resolved.startsWith(root)) {
            return "outside the repository";
        }
        if (!Files.exists(resolved)) {
            return "no such file";
        }
        if (anchor == null
                || anchor.isEmpty()
                || !resolved.getFileName().toString().endsWith(".md")) {
            return null;
        }
        Set<String> anchors = anchorsByFile.computeIfAbsent(resolved, DocsLinksTest::anchors);
        return anchors.contains(anchor.toLowerCase(Locale.ROOT))
                ? null
                : "no heading '" + anchor + "' in " + relative(root, resolved);
    }

    /** The anchors GitHub generates for a Markdown file's headings, plus explicit {@code <a name|id="...">}. */
    private static Set<String> anchors(Path markdown) {
        List<String> lines;
        try {
            lines = Files.readAllLines(markdown, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Set<String> anchors = new HashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        boolean fenced = false;
        for (String line : lines) {
            if (line.stripLeading().startsWith("```") || line.stripLeading().startsWith("~~~")) {
                fenced = !fenced;
                continue;
            }
            if (fenced) {
                continue;
            }
            Matcher heading = HEADING.matcher(line);
            if (heading.matches()) {
                anchors.add(slug(heading.group(2), seen));
            }
            Matcher html = HTML_ANCHOR.matcher(line);
            while (html.find()) {
                anchors.add(html.group(1).toLowerCase(Locale.ROOT));
            }
        }
        return anchors;
    }

    /**
     * GitHub's heading anchor: the heading's text (link targets and markup dropped), lower case, every character that
     * is not a letter, digit, space, hyphen or underscore removed, each space a hyphen; a repeated slug gets
     * {@code -1}, {@code -2}, ...
     */
    static String slug(String heading, Map<String, Integer> seen) {
        String text = heading.replaceAll("!?\\[([^\\]]*)]\\([^)]*\\)", "$1")
                .replaceAll("<[^>]+>", "")
                .toLowerCase(Locale.ROOT)
                .replaceAll("[^\\p{L}\\p{N}\\p{Mn}\\p{Pc} -]", "")
                .replace(' ', '-');
        int n = seen.merge(text, 1, Integer::sum) - 1;
        return n == 0 ? text : text + "-" + n;
    }

    /** The repository root: the first directory above this module's basedir that holds README.md and docs/. */
    static Path repositoryRoot() {
        Path dir = Path.of(System.getProperty("basedir", System.getProperty("user.dir")))
                .toAbsolutePath();
        for (Path d = dir; d != null; d = d.getParent()) {
            if (Files.isRegularFile(d.resolve("README.md"))
                    && Files.isDirectory(d.resolve("docs"))
                    && Files.isRegularFile(d.resolve("pom.xml"))) {
                return d;
            }
        }
        throw new IllegalStateException("no repository root (README.md, docs/, pom.xml) above " + dir);
    }
}
