package dev.rtmstreams.loadgen;

import dev.rtmstreams.loadgen.internals.Commands;

/**
 * The command line of the load generator (the fat jar's main class).
 *
 * <pre>{@code
 * java -jar load-generator/target/load-generator.jar bench --rate 30000 --duration PT60S --report-dir bench-out
 * java -jar load-generator/target/load-generator.jar run --bootstrap-servers localhost:9092 --rate 1000 \
 *     --duration PT60S --report-dir out
 * java -jar load-generator/target/load-generator.jar record --file events.jsonl.gz --rate 1000 --duration PT60S
 * java -jar load-generator/target/load-generator.jar replay --file events.jsonl.gz --speed 2 \
 *     --bootstrap-servers localhost:9092 --report-dir out
 * }</pre>
 *
 * <p>Every command has {@code --help}. Exit codes: 0 success; 1 the run found missing, duplicated or
 * unexpected outputs (or failed); 2 bad command-line options (the message names the option).
 */
public final class LoadGenerator {

    /** Avro 1.12 decodes generated classes only from trusted packages (ENVIRONMENT.md). */
    static final String AVRO_SERIALIZABLE_PACKAGES = "org.apache.avro.SERIALIZABLE_PACKAGES";

    private LoadGenerator() {}

    /**
     * Runs the command line and exits the JVM with its exit code.
     *
     * @param args command-line arguments
     */
    public static void main(String[] args) {
        trustAvroPackages();
        System.exit(execute(args));
    }

    /**
     * Lets Avro decode the project's generated classes ({@code org.apache.avro.SERIALIZABLE_PACKAGES}). Without it
     * every output of the service is "undecodable" when a jar that checks outputs is started with plain
     * {@code java -jar}: the oracle then reports all outputs missing and unexpected. Call before any Avro class is
     * loaded (first thing in {@code main}); a value given with {@code -D} wins.
     */
    public static void trustAvroPackages() {
        if (System.getProperty(AVRO_SERIALIZABLE_PACKAGES) == null) {
            System.setProperty(AVRO_SERIALIZABLE_PACKAGES, "dev.rtmstreams");
        }
    }

    /**
     * Runs the command line without exiting the JVM.
     *
     * @param args command-line arguments
     * @return the exit code (0 success, 1 failed or incorrect outputs, 2 usage error)
     */
    public static int execute(String... args) {
        return Commands.commandLine().execute(args);
    }
}
