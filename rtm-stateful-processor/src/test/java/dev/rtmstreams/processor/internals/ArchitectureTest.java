package dev.rtmstreams.processor.internals;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import dev.rtmstreams.processor.RtmException;
import java.nio.file.Paths;
import org.junit.jupiter.api.Test;

/**
 * Nothing outside {@code dev.rtmstreams.processor} (this module's packages) may use its internals (inline rule until
 * rtm-testkit's ArchitectureRules exists; tests of other packages here, e.g. the seed ports, count as outside), and
 * inside the module only the two API entry points that must construct internals do (and the module's public test
 * harness, package {@code testing}, which reads the operator store through {@code internals.StoreInspector}, and the
 * SPI package {@code spi}, whose store builder wraps the operator store in {@code internals.QueryableOperatorStore}).
 */
class ArchitectureTest {

    @Test
    void shouldNotAccessInternalsWhenOutsideThisModule() {
        // this module's main and test classes (importing packages from the whole classpath is slow)
        JavaClasses classes =
                new ClassFileImporter().importPaths(Paths.get("target/classes"), Paths.get("target/test-classes"));
        noClasses()
                .that()
                .resideOutsideOfPackages(
                        "dev.rtmstreams.processor",
                        "dev.rtmstreams.processor.internals",
                        "dev.rtmstreams.processor.spi")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("dev.rtmstreams.processor.internals")
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
                .resideInAPackage("dev.rtmstreams.processor.internals")
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
                .resideInAPackage("dev.rtmstreams.processor.internals")
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
}
