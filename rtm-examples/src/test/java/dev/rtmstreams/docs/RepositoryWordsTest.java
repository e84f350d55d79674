package dev.rtmstreams.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The repository speaks only of the product: no text file names a work session or an issue number, the team's design
 * notes or a directory beside the repository, no result file or folder is named after a session, and no Markdown link
 * leaves the repository (a relative link resolving above its root, or an absolute file path). A measurement is named
 * by its date and commit, a rule by the document of this repository that states it (docs/architecture.md for the
 * design rules). Scanned: every text file outside {@code .git}, {@code target/} and {@code node_modules/} (a file
 * holding a NUL byte or bytes that are not UTF-8 is binary and skipped).
 */
class RepositoryWordsTest {

    /*
     * Each pattern is built from pieces so that this file does not match it itself (and the fixture's words are joined
     * at run time by w(...)).
     */
    private static final Map<String, Pattern> WORDS = words();

    private static Map<String, Pattern> words() {
        Map<String, Pattern> words = new LinkedHashMap<>();
        words.put(
                "a work session", Pattern.compile("\\b" + "sess" + "ions?(\\s+|-)#?[0-9]+", Pattern.CASE_INSENSITIVE));
        words.put("an issue number", Pattern.compile("\\b" + "iss" + "ues?(\\s+|-)#?[0-9]+", Pattern.CASE_INSENSITIVE));
        words.put("the team's design notes", Pattern.compile("DES" + "IGN\\.md", Pattern.CASE_INSENSITIVE));
        words.put("a directory beside the repository", Pattern.compile("(\\.\\.|/wo" + "rk)/sha" + "red\\b"));
        words.put("a session-named result path", Pattern.compile("/s[0-9]{1,2}[-/]|-s[0-9]{1,2}/"));
        return words;
    }

    @Test
    void shouldFindNoSessionIssueOrOutsideReferenceWhenScanningTheRepository() throws IOException {
        Path root = DocsLinksTest.repositoryRoot();

        List<String> findings = findings(root);

        assertThat(findings)
                .as("the repository names only the product (file:line: what: text); say what a session or issue"
                        + " stands for (a date and commit, the target itself, docs/architecture.md)")
                .isEmpty();
    }

    @Test
    void shouldReportEachKindWithItsFileAndLineWhenAFixtureHoldsThem(@TempDir Path dir) throws IOException {
        Files.createDirectories(dir.resolve("docs"));
        Files.createDirectories(dir.resolve("src/main/java"));
        Files.createDirectories(dir.resolve("target"));
        Files.createDirectories(dir.resolve("node_modules/x"));
        String session = w("Sess", "ion 20");
        Files.writeString(
                dir.resolve("README.md"),
                String.join(
                        "\n",
                        "# Title",
                        "Measured in " + session + " on the tuned join.",
                        "A session timeout of 6 s and session.timeout.ms=6000 are settings, not sessions.",
                        w("As the sess", "ion\n12 run showed (wrapped)."),
                        w("See [the notes](../notes/x.md) and [a file](/wo", "rk/notes/y.md); [ok](docs/a.md)."),
                        "`[code](../not-a-link.md)`"));
        Files.writeString(
                dir.resolve("docs/a.md"),
                String.join(
                        "\n",
                        "# A",
                        w("The rule of DES", "IGN.md section 14, copied from ../", "shared/schemas."),
                        w("Report: [run](bench/s", "19-find-max.json), folder results/scale/s", "18/x.json."),
                        w("See [scale-out](../README.md#scale-out-iss", "ue-32-under-load).")));
        Files.writeString(
                dir.resolve("src/main/java/Foo.java"), w("/** Why: see iss", "ue #30 item 4. */\nclass Foo {}\n"));
        Files.writeString(dir.resolve("target/out.txt"), session + "\n");
        Files.writeString(dir.resolve("node_modules/x/readme.md"), session + "\n");
        Files.write(dir.resolve("docs/picture.png"), ("\0PNG " + session).getBytes(StandardCharsets.UTF_8));
        Files.writeString(dir.resolve(".git"), w("gitdir: ../", "shared/.git\n"));

        List<String> findings = findings(dir);

        assertThat(findings)
                .containsExactlyInAnyOrder(
                        "README.md:2: a work session: " + session,
                        w("README.md:4: a work session: sess", "ion\n12"),
                        "README.md:6: a link that leaves the repository: ../notes/x.md",
                        w("README.md:6: a link to an absolute file path: /wo", "rk/notes/y.md"),
                        w("docs/a.md:2: the team's design notes: DES", "IGN.md"),
                        w("docs/a.md:2: a directory beside the repository: ../", "shared"),
                        w("docs/a.md:3: a session-named result path: /s", "19-"),
                        w("docs/a.md:3: a session-named result path: /s", "18/"),
                        w("docs/a.md:4: an issue number: iss", "ue-32"),
                        w("src/main/java/Foo.java:1: an issue number: iss", "ue #30"));
    }

    /**
     * Joins the pieces at run time: a word split across pieces is neither in this source file nor, as a folded
     * constant, in its class file.
     */
    private static String w(String... pieces) {
        return String.join("", pieces);
    }

    /**
     * What names something other than the product, as {@code file:line: what: text}: the words of {@link #WORDS} in
     * every text file, and Markdown links leaving the repository.
     */
    static List<String> findings(Path root) throws IOException {
        List<String> findings = new ArrayList<>();
        for (Path file : DocsLinksTest.repositoryFiles(root, name -> name.equals(".git"), file -> true)) {
            String text = text(file);
            if (text == null) {
                continue;
            }
            for (Map.Entry<String, Pattern> word : WORDS.entrySet()) {
                Matcher matcher = word.getValue().matcher(text);
                while (matcher.find()) {
                    findings.add(DocsLinksTest.relative(root, file) + ":" + lineOf(text, matcher.start()) + ": "
                            + word.getKey() + ": " + matcher.group());
                }
            }
        }
        List<Path> markdown = DocsLinksTest.repositoryFiles(
                root,
                name -> name.equals(".git"),
                file -> file.getFileName().toString().endsWith(".md"));
        for (DocsLinksTest.Link link : DocsLinksTest.links(markdown)) {
            String problem = leaves(root, link);
            if (problem != null) {
                findings.add(DocsLinksTest.relative(root, link.file()) + ":" + link.line() + ": " + problem + ": "
                        + link.target());
            }
        }
        return findings;
    }

    /** @return why the link leaves the repository, or null when it stays in it (or is a web or mail link) */
    private static String leaves(Path root, DocsLinksTest.Link link) {
        String target = link.target();
        if (target.startsWith("file:") || target.startsWith("~")) {
            return "a link to an absolute file path";
        }
        if (DocsLinksTest.SCHEME.matcher(target).find() || target.startsWith("//") || target.startsWith("#")) {
            return null;
        }
        String pathPart = target.replaceFirst("[#?].*$", "");
        if (pathPart.startsWith("/")) {
            // GitHub reads /x as the repository's x: an absolute file path names no top-level entry of the repository
            String first = pathPart.substring(1).split("/", 2)[0];
            return first.isEmpty() || Files.exists(root.resolve(first)) ? null : "a link to an absolute file path";
        }
        Path resolved = link.file().getParent().resolve(pathPart).normalize();
        return resolved.startsWith(root) ? null : "a link that leaves the repository";
    }

    /** The file's text, or null when it is binary (a NUL byte, or not UTF-8). */
    private static String text(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        for (byte b : bytes) {
            if (b == 0) {
                return null;
            }
        }
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    private static int lineOf(String text, int offset) {
        int line = 1;
        for (int i = 0; i < offset; i++) {
            if (text.charAt(i) == '\n') {
                line++;
            }
        }
        return line;
    }
}
