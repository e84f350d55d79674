package dev.rtmstreams.reliability;

import dev.rtmstreams.testkit.ArchitectureRules;
import org.junit.jupiter.api.Test;

class ArchitectureTest {

    @Test
    void shouldKeepInternalsPrivateAndUseOnlyOtherModulesApiWhenImported() {
        ArchitectureRules.noInternalsAccessFromOutside("dev.rtmstreams.reliability")
                .check(ArchitectureRules.importProductionClasses("dev.rtmstreams"));
    }
}
