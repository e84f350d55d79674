package dev.rtmstreams.testkit;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.ArchConfiguration;
import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.CompositeArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.util.List;
import java.util.Objects;

/**
 * Reusable ArchUnit rules for the rtm-streams module layout: a public API package
 * {@code dev.rtmstreams.<area>} beside {@code dev.rtmstreams.<area>.internals}, where nothing
 * outside the module touches the internals.
 *
 * <pre>{@code
 * class ArchitectureTest {
 *   @Test
 *   void shouldKeepInternalsPrivateWhenModuleIsImported() {
 *     ArchitectureRules.noInternalsAccessFromOutside("dev.rtmstreams.join")
 *         .check(ArchitectureRules.importProductionClasses("dev.rtmstreams"));
 *   }
 * }
 * }</pre>
 */
public final class ArchitectureRules {

    /** The root package of the project; {@code internals} packages below it are module-private. */
    public static final String PROJECT_ROOT_PACKAGE = "dev.rtmstreams";

    private ArchitectureRules() {}

    /**
     * Returns a rule with two parts, for the module whose API package is {@code modulePackage}:
     * <ol>
     *   <li>no class outside {@code modulePackage..} depends on a class in
     *       {@code modulePackage.internals..};</li>
     *   <li>no class in {@code modulePackage..} depends on the {@code internals} of another
     *       rtm-streams module (a package {@code dev.rtmstreams..internals..} outside
     *       {@code modulePackage.internals..}).</li>
     * </ol>
     * Kafka's own {@code internals} packages are not restricted. Both parts allow an empty
     * selection, so the rule also passes for a module without an {@code internals} package.
     *
     * @param modulePackage the module's API package, e.g. {@code dev.rtmstreams.processor}; not null
     * @return the rule, to {@code check} against imported classes
     * @throws IllegalArgumentException if {@code modulePackage} is blank or not below
     *     {@value #PROJECT_ROOT_PACKAGE}
     */
    public static ArchRule noInternalsAccessFromOutside(String modulePackage) {
        Objects.requireNonNull(modulePackage, "modulePackage");
        if (!modulePackage.startsWith(PROJECT_ROOT_PACKAGE + ".") || modulePackage.endsWith(".")) {
            throw new IllegalArgumentException(
                    "modulePackage must be a package below " + PROJECT_ROOT_PACKAGE + ": " + modulePackage);
        }
        String moduleTree = modulePackage + "..";
        String ownInternals = modulePackage + ".internals..";
        ArchRule outsidersStayOut = noClasses()
                .that()
                .resideOutsideOfPackage(moduleTree)
                .should()
                .dependOnClassesThat()
                .resideInAPackage(ownInternals)
                .as("no class outside " + moduleTree + " should depend on " + ownInternals)
                .allowEmptyShould(true);
        ArchRule moduleStaysOutOfOthers = noClasses()
                .that()
                .resideInAPackage(moduleTree)
                .should()
                .dependOnClassesThat(DescribedPredicate.describe(
                        "reside in another module's internals",
                        (JavaClass target) -> isProjectInternals(target.getPackageName())
                                && !isInPackageTree(target.getPackageName(), modulePackage + ".internals")))
                .as("no class in " + moduleTree + " should depend on another module's " + PROJECT_ROOT_PACKAGE
                        + "..internals..")
                .allowEmptyShould(true);
        return CompositeArchRule.of(outsidersStayOut)
                .and(moduleStaysOutOfOthers)
                .as("internals of " + modulePackage + " are private to the module, and the module uses no other"
                        + " module's internals");
    }

    /**
     * Imports the production classes (no test classes, no jars) under a package from the
     * classpath. Classes outside the import are not resolved from the classpath (their names and
     * packages are all the rules need), which keeps the import fast.
     *
     * @param rootPackage the package to import, e.g. {@code dev.rtmstreams}; not null
     * @return the imported classes
     */
    public static JavaClasses importProductionClasses(String rootPackage) {
        Objects.requireNonNull(rootPackage, "rootPackage");
        return ArchConfiguration.withThreadLocalScope(configuration -> {
            configuration.setResolveMissingDependenciesFromClassPath(false);
            return new ClassFileImporter()
                    .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                    .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
                    .importPackages(rootPackage);
        });
    }

    /** The three stability marks a public type carries, from Kafka's {@code InterfaceStability}. */
    private static final List<String> STABILITY_MARKS = List.of(
            "org.apache.kafka.common.annotation.InterfaceStability$Stable",
            "org.apache.kafka.common.annotation.InterfaceStability$Evolving",
            "org.apache.kafka.common.annotation.InterfaceStability$Unstable");

    /**
     * Returns a rule that every public top-level type of a library's public packages (below
     * {@code rootPackage}, outside {@code internals} packages) carries exactly one of Kafka's
     * stability marks: {@code @InterfaceStability.Stable}, {@code .Evolving} or {@code .Unstable}
     * (docs/modules.md, "API stability"). The API compatibility check skips {@code Unstable} types,
     * so a type without a mark would be neither promised nor knowingly left out.
     *
     * @param rootPackage the library's API package, e.g. {@code dev.rtmstreams.processor}; not null
     * @return the rule, to {@code check} against the library's imported classes
     * @throws IllegalArgumentException if {@code rootPackage} is blank or not below
     *     {@value #PROJECT_ROOT_PACKAGE}
     */
    public static ArchRule publicTypesHaveOneStabilityMark(String rootPackage) {
        Objects.requireNonNull(rootPackage, "rootPackage");
        if (rootPackage.isBlank() || !isInPackageTree(rootPackage, PROJECT_ROOT_PACKAGE)) {
            throw new IllegalArgumentException("rootPackage must be " + PROJECT_ROOT_PACKAGE
                    + " or a package below it, got '" + rootPackage + "'");
        }
        DescribedPredicate<JavaClass> publicApiType = DescribedPredicate.describe(
                "public top-level types of " + rootPackage + " outside internals packages",
                c -> c.getModifiers().contains(JavaModifier.PUBLIC)
                        && c.isTopLevelClass()
                        && !c.getSimpleName().equals("package-info")
                        && isInPackageTree(c.getPackageName(), rootPackage)
                        && !isProjectInternals(c.getPackageName()));
        ArchCondition<JavaClass> oneMark =
                new ArchCondition<>("carry exactly one of @InterfaceStability.Stable, .Evolving or .Unstable") {
                    @Override
                    public void check(JavaClass type, ConditionEvents events) {
                        long marks = STABILITY_MARKS.stream()
                                .filter(type::isAnnotatedWith)
                                .count();
                        if (marks != 1) {
                            events.add(SimpleConditionEvent.violated(
                                    type,
                                    type.getName() + " carries " + marks
                                            + " stability marks; add exactly one of @InterfaceStability.Stable,"
                                            + " .Evolving or .Unstable (docs/modules.md, \"API stability\")"));
                        }
                    }
                };
        return classes().that(publicApiType).should(oneMark).allowEmptyShould(false);
    }

    private static boolean isProjectInternals(String packageName) {
        if (!isInPackageTree(packageName, PROJECT_ROOT_PACKAGE)) {
            return false;
        }
        for (String segment : packageName.split("\\.")) {
            if (segment.equals("internals")) {
                return true;
            }
        }
        return false;
    }

    private static boolean isInPackageTree(String packageName, String root) {
        return packageName.equals(root) || packageName.startsWith(root + ".");
    }
}
