package dev.rtmstreams.processor.internals;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import com.tngtech.archunit.library.dependencies.syntax.GivenSlices;
import dev.rtmstreams.processor.RtmException;
import dev.rtmstreams.processor.StateReader;
import dev.rtmstreams.processor.TransformWithState;
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
 * SPI's implementation is used by the SPI itself, by the operator's internals and by the test utilities of package
 * {@code testing} (rtm-test-utils' {@code ChangelogRestore} writes a restore below the change-logging layer). The five layers (API package,
 * errors, spi, spi.internals, internals) have no dependency cycle but the API entry points' construction of internals.
 */
class ArchitectureTest {

    private static final String INTERNALS = "dev.rtmstreams.processor.internals";
    private static final String SPI_INTERNALS = "dev.rtmstreams.processor.spi.internals";
    /** rtm-test-utils' package; its ChangelogRestore is compiled into these tests too. */
    private static final String TESTING = "dev.rtmstreams.processor.testing";

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
                .resideOutsideOfPackages(
                        "dev.rtmstreams.processor", INTERNALS, "dev.rtmstreams.processor.spi..", TESTING)
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
    void shouldHaveNoCycleBetweenTheLayersWhenTheirPackagesAreChecked() {
        // one slice per layer: the API package itself, errors, the SPI, the SPI's implementation (spi.internals, with
        // compat) and the operator's internals. The one allowed back edge: the two API entry points that construct
        // the internals (TransformWithState, StateReader) while the internals implement the API's interfaces.
        JavaClasses classes = new ClassFileImporter().importPaths(Paths.get("target/classes"));
        layerSlices()
                .should()
                .beFreeOfCycles()
                .ignoreDependency(
                        JavaClass.Predicates.belongToAnyOf(TransformWithState.class, StateReader.class),
                        JavaClass.Predicates.resideInAnyPackage(INTERNALS, SPI_INTERNALS + ".."))
                .check(classes);
    }

    @Test
    void shouldSeeTheApiPackageAndTheSpiImplementationWhenSlicing() {
        // the slicing itself can fail: the API package and spi.internals are layers of their own
        JavaClasses classes = new ClassFileImporter().importPaths(Paths.get("target/classes"));
        assertThat(layerOf(classes.get(RtmException.class))).isEqualTo("api");
        assertThat(layerOf(classes.get("dev.rtmstreams.processor.spi.OperatorStores")))
                .isEqualTo("spi");
        assertThat(layerOf(classes.get("dev.rtmstreams.processor.spi.internals.QueryableOperatorStore")))
                .isEqualTo("spi.internals");
        assertThat(layerOf(classes.get("dev.rtmstreams.processor.spi.internals.compat.AppInfoShim")))
                .isEqualTo("spi.internals");
        assertThat(layerOf(classes.get("dev.rtmstreams.processor.internals.OperatorTask")))
                .isEqualTo("internals");
    }

    /** The layer of a class of this module: api, errors, spi, spi.internals (with compat), internals; else null. */
    private static String layerOf(JavaClass javaClass) {
        String root = "dev.rtmstreams.processor";
        String pkg = javaClass.getPackageName();
        if (pkg.equals(root)) {
            return "api";
        }
        if (pkg.equals(SPI_INTERNALS) || pkg.startsWith(SPI_INTERNALS + ".")) {
            return "spi.internals";
        }
        if (pkg.startsWith(root + ".")) {
            String rest = pkg.substring(root.length() + 1);
            int dot = rest.indexOf('.');
            return dot < 0 ? rest : rest.substring(0, dot);
        }
        return null;
    }

    private static GivenSlices layerSlices() {
        return slices().assignedFrom(new SliceAssignment() {
            @Override
            public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
                String layer = layerOf(javaClass);
                return layer == null ? SliceIdentifier.ignore() : SliceIdentifier.of(layer);
            }

            @Override
            public String getDescription() {
                return "the layers of dev.rtmstreams.processor (api, errors, spi, spi.internals, internals)";
            }
        });
    }
}
