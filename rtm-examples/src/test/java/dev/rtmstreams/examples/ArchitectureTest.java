package dev.rtmstreams.examples;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.net.URISyntaxException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ArchitectureTest {

    private static final JavaClasses EXAMPLES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPath(classesDir());

    private static Path classesDir() {
        try {
            return Path.of(StatelessExample.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void shouldUseOnlyThePublicApiOfOtherModulesWhenBuildingExamples() {
        noClasses()
                .that()
                .resideInAPackage("dev.rtmstreams.examples..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "dev.rtmstreams.topology.internals..",
                        "dev.rtmstreams.join.internals..",
                        "dev.rtmstreams.processor.internals..",
                        "dev.rtmstreams.testkit.internals..",
                        "org.apache.kafka.streams..internals..")
                .check(EXAMPLES);
    }

    @Test
    void shouldKeepTheExamplesFreeOfTheirRunnerWhenUsersReadThem() {
        noClasses()
                .that()
                .resideInAPackage("dev.rtmstreams.examples")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "dev.rtmstreams.examples.internals..",
                        "dev.rtmstreams.examples.cli..",
                        "dev.rtmstreams.testkit..",
                        "dev.rtmstreams.tools..")
                .because("the example programs use only the libraries' public API; the runner (rate source, embedded"
                        + " broker, latency recording, command line) sits apart in module rtm-examples-runner")
                .check(EXAMPLES);
    }
}
