package dev.rtmstreams.adattribution;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The service is built like a user would build it: only the libraries' public API packages. */
class ArchitectureTest {

    // Only the module's own classes (target/classes): scanning every jar on the classpath is slow.
    private static final JavaClasses APP = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPath(classesDir());

    private static java.nio.file.Path classesDir() {
        try {
            return java.nio.file.Path.of(Main.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void shouldImportTheServiceClassesWhenScanningTheModule() {
        org.assertj.core.api.Assertions.assertThat(APP.contain(AdAttributionService.class))
                .isTrue();
    }

    @Test
    void shouldUseOnlyPublicApiOfRtmStreamsModulesWhenAppClassesDependOnThem() {
        noClasses()
                .that()
                .resideInAPackage("dev.rtmstreams.adattribution..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("dev.rtmstreams..internals..")
                .because("the ad-attribution service uses the rtm-streams libraries through their public API only")
                .check(APP);
    }

    @Test
    void shouldNotDependOnKafkaStreamsInternalsWhenBuildingTheTopology() {
        noClasses()
                .that()
                .resideInAPackage("dev.rtmstreams.adattribution..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("org.apache.kafka.streams..internals..")
                .check(APP);
    }
}
