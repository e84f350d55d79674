package dev.rtmstreams.topology.testing;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.rtmstreams.testkit.ArchitectureRules;
import org.junit.jupiter.api.Test;

/**
 * Every public type of rtm-stateful-processor (which cannot depend on the test kit that holds the rule) and of this
 * module carries exactly one stability mark (docs/modules.md, "API stability").
 */
class StabilityMarksTest {

    @Test
    void shouldMarkEveryPublicTypeOfTheProcessorLibraryWithItsStability() {
        JavaClasses processor = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.rtmstreams.processor");

        ArchitectureRules.publicTypesHaveOneStabilityMark("dev.rtmstreams.processor")
                .check(processor);
    }

    @Test
    void shouldMarkEveryPublicTypeOfTheTestUtilitiesWithItsStability() {
        JavaClasses testing = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.rtmstreams.topology.testing", "dev.rtmstreams.processor.testing");

        ArchitectureRules.publicTypesHaveOneStabilityMark("dev.rtmstreams.topology.testing")
                .check(testing);
        ArchitectureRules.publicTypesHaveOneStabilityMark("dev.rtmstreams.processor.testing")
                .check(testing);
    }
}
