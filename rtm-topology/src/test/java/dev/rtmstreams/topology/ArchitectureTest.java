package dev.rtmstreams.topology;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.rtmstreams.testkit.ArchitectureRules;
import dev.rtmstreams.topology.internals.TriggerConfigurer;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * rtm-topology's classes use no other module's internals. That no class outside rtm-topology uses its internals is
 * checked where such classes exist: in each module that depends on rtm-topology (the same shared rule, or the
 * service's public-API-only rule). That the shared rule can fail at all is shown once, on a deliberate violation, in
 * rtm-testkit's ArchitectureRulesTest.
 */
class ArchitectureTest {

    private final JavaClasses classes = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPath(Path.of("target/classes"));

    @Test
    void shouldImportThisModulesClassesSoTheRuleHasSomethingToCheck() {
        assertThat(classes.contain(RtmStreams.class)).isTrue();
        assertThat(classes.contain(TriggerConfigurer.class)).isTrue();
    }

    @Test
    void shouldKeepItsInternalsPrivateAndUseNoOtherModulesInternals() {
        ArchitectureRules.noInternalsAccessFromOutside("dev.rtmstreams.topology")
                .check(classes);
    }

    @Test
    void shouldMarkEveryPublicTypeWithItsStabilityWhenInThePublicPackages() {
        ArchitectureRules.publicTypesHaveOneStabilityMark("dev.rtmstreams.topology")
                .check(classes);
    }
}
