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
 * The release shape of the libraries: the BOM pins exactly the library artifacts at the build's version, every
 * library builds a sources jar, a javadoc jar and checks its public API against its baseline in api-baseline/, only
 * the libraries and the BOM are deployed, the release profile flattens their POMs (the BOM keeping its
 * dependencyManagement), and the licence travels with the sources. {@code .ci/stage-release} checks the staged files
 * themselves (docs/releasing.md).
 */
class ReleaseShapeTest {

    static final List<String> LIBRARIES =
            List.of("rtm-stateful-processor", "rtm-state-avro", "rtm-join", "rtm-topology", "rtm-test-utils");

    static final List<String> PUBLISHED = List.of(
            "rtm-stateful-processor", "rtm-state-avro", "rtm-join", "rtm-topology", "rtm-test-utils", "rtm-bom");

    private static final Pattern MODULE = Pattern.compile("<module>([^<]+)</module>");
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

    @Test
    void shouldDeployOnlyTheLibrariesAndTheBom() throws IOException {
        Path root = DocsLinksTest.repositoryRoot();
        String parent = Files.readString(root.resolve("pom.xml"));
        assertThat(parent).contains("<maven.deploy.skip>true</maven.deploy.skip>");

        List<String> deployed = new ArrayList<>();
        Matcher m = MODULE.matcher(parent);
        while (m.find()) {
            String pom = Files.readString(root.resolve(m.group(1)).resolve("pom.xml"));
            if (pom.contains("<maven.deploy.skip>false</maven.deploy.skip>")) {
                deployed.add(m.group(1));
            }
        }
        assertThat(deployed).containsExactlyInAnyOrderElementsOf(PUBLISHED);
    }

    @Test
    void shouldFlattenThePublishedPomsAndKeepTheBomsDependencyManagementWhenReleasing() throws IOException {
        Path root = DocsLinksTest.repositoryRoot();
        String release = profile(Files.readString(root.resolve("pom.xml")), "release");
        assertThat(release)
                .contains(
                        "<artifactId>flatten-maven-plugin</artifactId>",
                        "<flattenMode>ossrh</flattenMode>",
                        "<updatePomFile>true</updatePomFile>",
                        "<artifactId>maven-source-plugin</artifactId>",
                        "<artifactId>maven-javadoc-plugin</artifactId>",
                        "gpg signing skipped: no -Dgpg.keyname given");
        String bomRelease = profile(Files.readString(root.resolve("rtm-bom/pom.xml")), "release");
        assertThat(bomRelease)
                .contains(
                        "<flattenMode>bom</flattenMode>",
                        "<dependencyManagement>interpolate</dependencyManagement>",
                        "<updatePomFile>true</updatePomFile>");
        for (String pom : List.of("pom.xml", "rtm-bom/pom.xml")) {
            String signing = profile(Files.readString(root.resolve(pom)), "release-signing");
            assertThat(signing)
                    .as("%s signs only when a key is named", pom)
                    .contains("<name>gpg.keyname</name>", "<artifactId>maven-gpg-plugin</artifactId>");
        }
    }

    @Test
    void shouldShipTheApacheLicenceAndANoticeAtTheRoot() throws IOException {
        Path root = DocsLinksTest.repositoryRoot();
        assertThat(Files.readString(root.resolve("LICENSE")))
                .contains("Apache License", "Version 2.0, January 2004", "END OF TERMS AND CONDITIONS");
        assertThat(Files.readString(root.resolve("NOTICE"))).startsWith("rtm-streams\nCopyright ");
        for (String pom : List.of("pom.xml", "rtm-bom/pom.xml")) {
            assertThat(Files.readString(root.resolve(pom)))
                    .as(pom)
                    .contains(
                            "<name>Apache-2.0</name>",
                            "<url>https://github.com/rtm-streams/rtm-streams</url>",
                            "<developerConnection>",
                            "<id>rtm-streams</id>");
        }
    }

    @Test
    void shouldConfigureTheExecutableJarsOnceInTheRootPom() throws IOException {
        Path root = DocsLinksTest.repositoryRoot();
        String parent = Files.readString(root.resolve("pom.xml"));
        assertThat(parent)
                .contains(
                        "ApacheLicenseResourceTransformer",
                        "ApacheNoticeResourceTransformer",
                        "ServicesResourceTransformer",
                        "<resource>META-INF/THIRD-PARTY.txt</resource>",
                        "<goal>add-third-party</goal>");

        List<String> shaded = new ArrayList<>();
        Matcher m = MODULE.matcher(parent);
        while (m.find()) {
            String pom = Files.readString(root.resolve(m.group(1)).resolve("pom.xml"));
            if (pom.contains("<artifactId>maven-shade-plugin</artifactId>")) {
                shaded.add(m.group(1));
                assertThat(pom)
                        .as("%s uses the root's shade configuration instead of its own", m.group(1))
                        .doesNotContain("<transformers>", "<filters>")
                        .contains(
                                "<rtm.fatjar.name>",
                                "<rtm.fatjar.mainClass>",
                                "<artifactId>license-maven-plugin</artifactId>");
            }
        }
        assertThat(shaded)
                .containsExactlyInAnyOrder(
                        "adattribution-app",
                        "adattribution-demo",
                        "load-generator",
                        "rtm-reliability",
                        "rtm-examples-runner");
    }

    /** @return the text of the profile with that id, failing when the POM has none */
    private static String profile(String pom, String id) {
        Matcher m = Pattern.compile("(?s)<profile>\\s*<id>" + Pattern.quote(id) + "</id>(.*?)</profile>")
                .matcher(pom);
        assertThat(m.find()).as("profile %s", id).isTrue();
        return m.group(1);
    }

    /** @return the first {@code <version>} after the project's own artifactId (the parent's, for the root) */
    private static String firstVersion(String pom) {
        String project = pom.replaceAll("(?s)<parent>.*?</parent>", "");
        Matcher m = VERSION.matcher(project);
        assertThat(m.find()).isTrue();
        return m.group(1);
    }
}
