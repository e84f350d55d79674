package dev.rtmstreams.processor.avro;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import org.apache.kafka.common.annotation.InterfaceStability;
import org.junit.jupiter.api.Test;

/** The module's rules: one stability mark per public type; only the public API of the core is used. */
class ArchitectureTest {

    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.rtmstreams.processor.avro");

    @Test
    void shouldMarkEveryPublicTypeWithOneStabilityLevelWhenPublic() {
        classes()
                .that()
                .haveModifier(JavaModifier.PUBLIC)
                .and()
                .areTopLevelClasses()
                .should(new ArchCondition<>("carry exactly one InterfaceStability mark") {
                    @Override
                    public void check(JavaClass c, ConditionEvents events) {
                        long marks = c.getAnnotations().stream()
                                .filter(a ->
                                        a.getRawType().getName().startsWith(InterfaceStability.class.getName() + "$"))
                                .count();
                        if (marks != 1) {
                            events.add(SimpleConditionEvent.violated(c, c.getName() + " has " + marks + " marks"));
                        }
                    }
                })
                .check(CLASSES);
    }

    @Test
    void shouldUseNoInternalsOfTheCoreWhenCompiled() {
        noClasses()
                .should()
                .dependOnClassesThat()
                .resideInAPackage("dev.rtmstreams.processor..internals..")
                .check(CLASSES);
    }
}
