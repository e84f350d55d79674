package dev.rtmstreams.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.EvaluationResult;
import org.junit.jupiter.api.Test;

class ArchitectureRulesTest {

    private static final JavaClasses FIXTURE = new ClassFileImporter().importPackages("dev.rtmstreams.archfixture");

    @Test
    void shouldKeepTestkitInternalsPrivateWhenTestkitIsImported() {
        ArchitectureRules.noInternalsAccessFromOutside("dev.rtmstreams.testkit")
                .check(ArchitectureRules.importProductionClasses("dev.rtmstreams"));
    }

    @Test
    void shouldReportOutsiderWhenItUsesModuleInternals() {
        EvaluationResult result = ArchitectureRules.noInternalsAccessFromOutside("dev.rtmstreams.archfixture.api")
                .evaluate(FIXTURE);

        assertThat(result.hasViolation()).isTrue();
        assertThat(result.getFailureReport().getDetails())
                .anySatisfy(line -> assertThat(line).contains("Intruder").contains("Hidden"));
    }

    @Test
    void shouldReportModuleWhenItUsesAnotherModulesInternals() {
        EvaluationResult result = ArchitectureRules.noInternalsAccessFromOutside("dev.rtmstreams.archfixture.other")
                .evaluate(FIXTURE);

        assertThat(result.hasViolation()).isTrue();
        assertThat(result.getFailureReport().getDetails())
                .anySatisfy(line -> assertThat(line).contains("Intruder").contains("Hidden"));
    }

    @Test
    void shouldPassWhenModuleUsesOnlyItsOwnInternals() {
        JavaClasses apiOnly = new ClassFileImporter().importPackages("dev.rtmstreams.archfixture.api");

        EvaluationResult result = ArchitectureRules.noInternalsAccessFromOutside("dev.rtmstreams.archfixture.api")
                .evaluate(apiOnly);

        assertThat(result.hasViolation()).isFalse();
    }

    @Test
    void shouldRejectPackageWhenOutsideProject() {
        assertThatThrownBy(() -> ArchitectureRules.noInternalsAccessFromOutside("org.example"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("org.example");
    }

    @Test
    void shouldReportPublicTypesWithoutExactlyOneStabilityMark() {
        JavaClasses stability = new ClassFileImporter().importPackages("dev.rtmstreams.archfixture.stability");

        EvaluationResult result = ArchitectureRules.publicTypesHaveOneStabilityMark(
                        "dev.rtmstreams.archfixture.stability")
                .evaluate(stability);

        assertThat(result.getFailureReport().getDetails())
                .hasSize(2)
                .anySatisfy(line -> assertThat(line).contains("Unmarked carries 0 stability marks"))
                .anySatisfy(line -> assertThat(line).contains("TwiceMarked carries 2 stability marks"));
    }

    @Test
    void shouldRejectStabilityRootWhenOutsideProject() {
        assertThatThrownBy(() -> ArchitectureRules.publicTypesHaveOneStabilityMark("org.example"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("org.example");
    }
}
