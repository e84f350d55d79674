package dev.rtmstreams.loadgen.internals;

import dev.rtmstreams.testkit.ArchitectureRules;
import org.junit.jupiter.api.Test;

class ArchitectureTest {

    @Test
    void shouldKeepInternalsPrivateAndUseOnlyOtherModulesApiWhenImported() {
        ArchitectureRules.noInternalsAccessFromOutside("dev.rtmstreams.loadgen")
                .check(ArchitectureRules.importProductionClasses("dev.rtmstreams"));
    }
}
