package dev.rtmstreams.topology;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ArchitectureTest {

    private final JavaClasses classes = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPath(Path.of("target/classes"));

    @Test
    void shouldNotUseOtherModulesInternalsWhenInRtmTopology() {
        noClasses()
                .that()
                .resideInAPackage("dev.rtmstreams.topology..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "dev.rtmstreams.processor.internals..",
                        "dev.rtmstreams.join.internals..",
                        "dev.rtmstreams.testkit.internals..")
                .check(classes);
    }

    @Test
    void shouldNotExposeInternalsWhenOutsideRtmTopology() {
        noClasses()
                .that()
                .resideOutsideOfPackage("dev.rtmstreams.topology..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("dev.rtmstreams.topology.internals..")
                .allowEmptyShould(true)
                .check(classes);
    }
}
