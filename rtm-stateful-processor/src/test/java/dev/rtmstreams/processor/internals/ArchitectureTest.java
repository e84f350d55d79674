package dev.rtmstreams.processor.internals;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import dev.rtmstreams.processor.RtmException;
import java.nio.file.Paths;
import org.junit.jupiter.api.Test;

/**
 * The module's layers: the public API ({@code dev.rtmstreams.processor}, {@code errors}), the SPI ({@code spi}) with
 * its implementation ({@code spi.internals}), and the operator's implementation ({@code internals}), which builds on
 * the SPI and never the other way round.
 *
 * <p>Nothing outside {@code dev.rtmstreams.processor} (this module's packages) may use its internals (inline rule until
 * rtm-testkit's ArchitectureRules exists; tests of other packages here, e.g. the seed ports, count as outside), and
 * inside the module only the two API entry points that must construct internals do (and the module's public test
 * harness, package {@code testing}, which reads the operator store through {@code internals.StoreInspector}). The
 * SPI's implementation is used by the SPI itself and by the operator's internals.
 */
class ArchitectureTest {

    private static final String INTERNALS = "dev.rtmstreams.processor.internals";
    private static final String SPI_INTERNALS = "dev.rtmstreams.processor.spi.internals";

    @Test
    void shouldNotAccessInternalsWhenOutsideThisModule() {
        // this module's main and test classes (importing packages from the whole classpath is slow)
        JavaClasses classes =
                new ClassFileImporter().importPaths(Paths.get("target/classes"), Paths.get("target/test-classes"));
        noClasses()
                .that()
                .resideOutsideOfPackages("dev.rtmstreams.processor", INTERNALS)
                .should()
                .dependOnClassesThat()
                .resideInAPackage(INTERNALS)
                .allowEmptyShould(true)
                .check(classes);
        noClasses()
                .that()
                .resideOutsideOfPackages("dev.rtmstreams.processor", INTERNALS, "dev.rtmstreams.processor.spi..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage(SPI_INTERNALS)
                .allowEmptyShould(true)
                .check(classes);
    }

    @Test
    void shouldUseInternalsOnlyFromTheApiEntryPointsWhenInsideThisModule() {
        JavaClasses classes = new ClassFileImporter().importPaths(Paths.get("target/classes"));
        noClasses()
                .that()
                .resideInAPackage("dev.rtmstreams.processor")
                .and()
                .haveNameNotMatching("dev\\.rtmstreams\\.processor\\.(TransformWithState|StateReader)(\\$.*)?")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(INTERNALS, SPI_INTERNALS)
                .check(classes);
    }

    @Test
    void shouldKeepTheNamedErrorsPublicAndFreeOfInternalsWhenUsersCatchThem() {
        JavaClasses classes = new ClassFileImporter().importPaths(Paths.get("target/classes"));
        noClasses()
                .that()
                .resideInAPackage("dev.rtmstreams.processor.errors")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(INTERNALS, SPI_INTERNALS)
                .check(classes);
        classes()
                .that()
                .resideInAPackage("dev.rtmstreams.processor.errors")
                .and()
                .haveSimpleNameEndingWith("Exception")
                .should()
                .bePublic()
                .andShould()
                .beAssignableTo(RtmException.class)
                .check(classes);
    }

    @Test
    void shouldKeepTheSpiFreeOfTheOperatorInternalsWhenOperatorsBuildOnIt() {
        // the SPI and its implementation (spi.internals); the operator's internals build on them
        JavaClasses classes = new ClassFileImporter().importPaths(Paths.get("target/classes"));
        noClasses()
                .that()
                .resideInAPackage("dev.rtmstreams.processor.spi..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage(INTERNALS + "..")
                .check(classes);
    }

    @Test
    void shouldHaveNoCycleBetweenTheSubPackagesWhenTheirLayersAreChecked() {
        // one slice per sub-package tree: errors, internals, spi (with spi.internals); the API package itself is the
        // entry point that constructs internals, which implement its interfaces, so it is no slice
        JavaClasses classes = new ClassFileImporter().importPaths(Paths.get("target/classes"));
        slices().matching("dev.rtmstreams.processor.(*)..")
                .should()
                .beFreeOfCycles()
                .check(classes);
    }
}
