package dev.rtmstreams.adattribution.workload;

import dev.rtmstreams.testkit.ArchitectureRules;
import org.junit.jupiter.api.Test;

class ArchitectureTest {

    @Test
    void shouldUseNoOtherModulesInternalsWhenWorkloadIsImported() {
        ArchitectureRules.noInternalsAccessFromOutside("dev.rtmstreams.adattribution.workload")
                .check(ArchitectureRules.importProductionClasses("dev.rtmstreams.adattribution"));
    }
}
