package dev.rtmstreams.tools;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Starts the ad-attribution service from its jar as an operator would, in a {@link ChildJvm}: the one service launcher
 * of the tools (the load generator's bench, the chaos runner).
 *
 * <pre>{@code
 * int port = Ports.freePort();
 * try (ChildJvm service = ServiceJar.run(jar, bootstrap, "bench-1", stateDir, port)
 *         .name("service").args(List.of("--trigger", "real-time")).logFile(log).build().start()) {
 *     service.awaitReady(Duration.ofSeconds(90));
 * }
 * }</pre>
 */
public final class ServiceJar {

    /** Avro 1.12 deserializes generated classes only from trusted packages. */
    static final String AVRO_TRUSTED_PACKAGES = "-Dorg.apache.avro.SERIALIZABLE_PACKAGES=dev.rtmstreams";

    private ServiceJar() {}

    /**
     * Checks that the service jar exists.
     *
     * @param appJar the service jar
     * @throws IllegalArgumentException when it does not (the message says how to build it)
     */
    public static void requireJar(Path appJar) {
        if (!Files.isRegularFile(appJar)) {
            throw new IllegalArgumentException("service jar not found: " + appJar.toAbsolutePath()
                    + " (build it with: mvn -B -pl adattribution-app -am package -DskipTests, or pass --app-jar)");
        }
    }

    /**
     * A child JVM running {@code java -Dorg.apache.avro.SERIALIZABLE_PACKAGES=dev.rtmstreams -jar JAR run
     * --bootstrap-servers B --application-id ID --state-dir DIR --http-port P}, ready when {@code GET /health} on port
     * P answers 200 with state RUNNING. Add the name, further JVM options and {@code run} arguments, the log file and
     * the environment on the builder.
     *
     * @param appJar the service jar
     * @param bootstrapServers the cluster
     * @param applicationId the Kafka Streams application id
     * @param stateDir the state directory
     * @param httpPort the port of {@code /health} and {@code /metrics}
     * @return the builder
     * @throws IllegalArgumentException when the jar does not exist (the message says how to build it)
     */
    public static ChildJvm.Builder run(
            Path appJar, String bootstrapServers, String applicationId, Path stateDir, int httpPort) {
        requireJar(appJar);
        return ChildJvm.builder()
                .jar(appJar)
                .jvmOption(AVRO_TRUSTED_PACKAGES)
                .args(List.of(
                        "run",
                        "--bootstrap-servers",
                        bootstrapServers,
                        "--application-id",
                        applicationId,
                        "--state-dir",
                        stateDir.toAbsolutePath().toString(),
                        "--http-port",
                        Integer.toString(httpPort)))
                .readiness(Readiness.streamsRunning(httpPort));
    }
}
