package dev.rtmstreams.examples.cli;

import dev.rtmstreams.testkit.ArchitectureRules;
import org.junit.jupiter.api.Test;

class ArchitectureTest {

    @Test
    void shouldUseOnlyThePublicApiOfOtherModulesWhenRunningExamples() {
        ArchitectureRules.noInternalsAccessFromOutside("dev.rtmstreams.examples")
                .check(ArchitectureRules.importProductionClasses("dev.rtmstreams"));
    }
}
