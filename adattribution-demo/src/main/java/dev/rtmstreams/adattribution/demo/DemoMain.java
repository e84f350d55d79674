package dev.rtmstreams.adattribution.demo;

import dev.rtmstreams.adattribution.Main;
import java.io.PrintWriter;
import java.util.function.Function;

/**
 * Entry point of the demo jar: {@code java -jar adattribution-demo.jar demo|run|state ...}; the service's command
 * line ({@link Main}) with the real {@code demo} ({@link DemoCommand}). Same exit codes as {@link Main}.
 */
public final class DemoMain {

    private DemoMain() {}

    /**
     * Runs the command line and exits the JVM with its exit code.
     *
     * @param args the arguments
     */
    public static void main(String[] args) {
        System.exit(
                execute(args, System::getenv, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /**
     * Runs the command line without exiting the JVM (for tests).
     *
     * @param args the arguments
     * @param env environment lookup (returns null when unset)
     * @param out standard output
     * @param err standard error
     * @return the exit code
     */
    public static int execute(String[] args, Function<String, String> env, PrintWriter out, PrintWriter err) {
        return Main.execute(Main.commandLine(env, new DemoCommand()), args, out, err);
    }
}
