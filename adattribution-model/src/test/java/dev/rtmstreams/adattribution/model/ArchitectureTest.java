package dev.rtmstreams.adattribution.model;

import dev.rtmstreams.testkit.ArchitectureRules;
import org.junit.jupiter.api.Test;

class ArchitectureTest {

    @Test
    void shouldUseNoOtherModulesInternalsWhenModelIsImported() {
        ArchitectureRules.noInternalsAccessFromOutside("dev.rtmstreams.adattribution.model")
                .check(ArchitectureRules.importProductionClasses("dev.rtmstreams.adattribution"));
    }
}
