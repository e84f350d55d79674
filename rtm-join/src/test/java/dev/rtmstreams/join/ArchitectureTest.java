package dev.rtmstreams.join;

import dev.rtmstreams.testkit.ArchitectureRules;
import org.junit.jupiter.api.Test;

class ArchitectureTest {

    @Test
    void shouldKeepJoinInternalsPrivateWhenProductionClassesAreImported() {
        ArchitectureRules.noInternalsAccessFromOutside("dev.rtmstreams.join")
                .check(ArchitectureRules.importProductionClasses("dev.rtmstreams"));
    }

    @Test
    void shouldMarkEveryPublicTypeWithItsStabilityWhenInThePublicPackages() {
        ArchitectureRules.publicTypesHaveOneStabilityMark("dev.rtmstreams.join")
                .check(ArchitectureRules.importProductionClasses("dev.rtmstreams.join"));
    }
}
