package dev.rtmstreams.adattribution;

import dev.rtmstreams.tools.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Starts the service from its command line in a child JVM ({@link ChildJvm}) for the end-to-end tests: the shaded jar
 * when it was packaged ({@code adattribution.jar}, set by failsafe), else {@code java -cp <test classpath> ...Main}.
 */
final class ServiceLauncher {

    /** The longest wait for the service to answer {@code /health}. */
    static final Duration READY_TIMEOUT = Duration.ofSeconds(90);

    private ServiceLauncher() {}

    /**
     * @return a builder of {@code java -Xmx512m -jar adattribution-app.jar} or {@code java -Xmx512m -cp ... Main},
     *     stopped gracefully within 60 s; add the arguments, the log file and the readiness check
     */
    static ChildJvm.Builder service() {
        ChildJvm.Builder b = ChildJvm.builder()
                .name("adattribution service")
                .jvmOption("-Xmx512m")
                .stopTimeout(Duration.ofSeconds(60));
        String jar = System.getProperty("adattribution.jar");
        if (jar != null && Files.isRegularFile(Path.of(jar))) {
            b.jar(Path.of(jar));
        } else {
            b.mainClass(Main.class.getName());
        }
        return b;
    }
}
