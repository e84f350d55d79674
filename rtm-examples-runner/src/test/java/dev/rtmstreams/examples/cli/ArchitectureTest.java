package dev.rtmstreams.examples.cli;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.net.URISyntaxException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ArchitectureTest {

    /** The runner's own classes (examples.cli and examples.internals), not the example programs it runs. */
    private static final JavaClasses RUNNER = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPath(classesDir());

    private static Path classesDir() {
        try {
            return Path.of(Main.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void shouldUseOnlyThePublicApiOfOtherModulesWhenRunningExamples() {
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
                .check(RUNNER);
    }
}
