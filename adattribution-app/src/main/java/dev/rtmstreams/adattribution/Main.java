package dev.rtmstreams.adattribution;

import dev.rtmstreams.adattribution.cli.DemoPointer;
import dev.rtmstreams.adattribution.cli.RunCommand;
import dev.rtmstreams.adattribution.cli.StateCommand;
import dev.rtmstreams.cli.DurationConverter;
import java.io.PrintWriter;
import java.util.Map;
import java.util.function.Function;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * Entry point of the service jar: {@code java -jar adattribution-app.jar run|state ...}. The demo is its own jar
 * (adattribution-demo, which adds {@code demo} to this command line through {@link #commandLine}); here {@code demo}
 * only says where it is.
 *
 * <p>Exit codes: 0 success (for {@code run}: a clean shutdown after SIGTERM), 1 runtime failure (for {@code run}:
 * Kafka Streams failed or did not close cleanly), 2 invalid command line or configuration (the message names the
 * option and value).
 */
@Command(
        name = "adattribution-app",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        description = "The ad-attribution service on rtm-streams: click attribution and request/ack correlation.",
        subcommands = {RunCommand.class})
public final class Main implements Runnable {

    /** Avro 1.12 deserializes generated classes only from trusted packages. */
    public static final String AVRO_TRUSTED_PACKAGES_PROPERTY = "org.apache.avro.SERIALIZABLE_PACKAGES";

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    /**
     * Runs the command line and exits the JVM with its exit code.
     *
     * @param args the arguments
     */
    public static void main(String[] args) {
        trustAvroPackages();
        System.exit(
                execute(args, System::getenv, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /**
     * Runs the command line without exiting the JVM (for tests and embedding).
     *
     * @param args the arguments
     * @param env environment lookup (returns null when unset)
     * @param out standard output
     * @param err standard error
     * @return the exit code
     */
    public static int execute(String[] args, Function<String, String> env, PrintWriter out, PrintWriter err) {
        return execute(commandLine(env, new DemoPointer()), args, out, err);
    }

    /**
     * Builds the command line: {@code run}, {@code demo} (the given command), {@code state}, {@code help}.
     *
     * @param env environment lookup (returns null when unset)
     * @param demoCommand the picocli command object behind {@code demo} (annotated with {@code @Command})
     * @return the command line, not yet executed
     */
    public static CommandLine commandLine(Function<String, String> env, Object demoCommand) {
        Factory factory = new Factory(env);
        CommandLine cl = new CommandLine(new Main(), factory);
        RunCommand.addServiceOptions(cl.getSubcommands().get("run").getCommandSpec());
        cl.addSubcommand("demo", new CommandLine(demoCommand, factory));
        cl.addSubcommand("state", new CommandLine(StateCommand.class, factory));
        cl.addSubcommand("help", new CommandLine(CommandLine.HelpCommand.class, factory));
        // Duration-typed options anywhere below read PT30S or 30s, as the service's own (string) options do
        return DurationConverter.registerOn(cl);
    }

    /**
     * Runs a command line built by {@link #commandLine} without exiting the JVM.
     *
     * @param cl the command line
     * @param args the arguments
     * @param out standard output
     * @param err standard error
     * @return the exit code
     */
    public static int execute(CommandLine cl, String[] args, PrintWriter out, PrintWriter err) {
        trustAvroPackages();
        cl.setOut(out);
        cl.setErr(err);
        return cl.execute(args);
    }

    /** Adds {@code dev.rtmstreams} to Avro's trusted packages unless the user configured it already. */
    public static void trustAvroPackages() {
        String current = System.getProperty(AVRO_TRUSTED_PACKAGES_PROPERTY);
        if (current == null || current.isBlank()) {
            System.setProperty(AVRO_TRUSTED_PACKAGES_PROPERTY, "dev.rtmstreams");
        } else if (!current.contains("dev.rtmstreams")) {
            System.setProperty(AVRO_TRUSTED_PACKAGES_PROPERTY, current + ",dev.rtmstreams");
        }
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(
                spec.commandLine(), "Missing command: use 'run', 'demo' or 'state read' (see --help)");
    }

    /** Creates commands with the environment injected. */
    private static final class Factory implements CommandLine.IFactory {
        private final Function<String, String> env;

        Factory(Function<String, String> env) {
            this.env = env;
        }

        @Override
        public <K> K create(Class<K> cls) throws Exception {
            if (cls == RunCommand.class) {
                return cls.cast(new RunCommand(env));
            }
            if (cls == StateCommand.Read.class) {
                return cls.cast(new StateCommand.Read(env));
            }
            return CommandLine.defaultFactory().create(cls);
        }
    }

    /** Version from the jar manifest. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = Main.class.getPackage().getImplementationVersion();
            return new String[] {"adattribution-app " + (v == null ? "0.2.0-SNAPSHOT" : v)};
        }
    }

    /** @return an unmodifiable view used by tests: no environment */
    static Function<String, String> noEnv() {
        return Map.<String, String>of()::get;
    }
}
