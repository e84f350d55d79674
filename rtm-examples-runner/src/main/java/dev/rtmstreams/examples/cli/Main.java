package dev.rtmstreams.examples.cli;

import dev.rtmstreams.cli.DurationConverter;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * Entry point of the fat jar: {@code java -jar rtm-examples.jar list | <example> [options]}.
 *
 * <p>Exit codes: 0 success, 1 runtime failure, 2 invalid command line (the message names the option and value).
 */
@Command(
        name = "rtm-examples",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        description = "The queries of Databricks' real-time-mode examples page on Kafka Streams + rtm-streams. Each"
                + " example runs under --trigger real-time and micro-batch against an embedded KRaft broker (or"
                + " --bootstrap-servers), fed by a rate source, and prints end-to-end latency p50/p99 and the output"
                + " count per trigger. 'list' shows them all.",
        subcommands = {Main.ListCommand.class, CommandLine.HelpCommand.class})
public final class Main implements Runnable {

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    /**
     * Runs the command line and exits the JVM with its exit code.
     *
     * @param args the arguments
     */
    public static void main(String[] args) {
        System.exit(execute(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /**
     * Runs the command line without exiting the JVM (for tests).
     *
     * @param args the arguments
     * @param out standard output
     * @param err standard error
     * @return the exit code
     */
    public static int execute(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cl = commandLine();
        cl.setOut(out);
        cl.setErr(err);
        return cl.execute(args);
    }

    static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new Main());
        for (Class<?> c : ExampleCommands.ALL) {
            cl.addSubcommand(c);
        }
        return DurationConverter.registerOn(cl);
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(
                spec.commandLine(), "Missing command: use 'list' or an example name (see --help)");
    }

    /** {@code list}: one line per example. */
    @Command(name = "list", mixinStandardHelpOptions = true, description = "List the examples.")
    static final class ListCommand implements Callable<Integer> {
        @CommandLine.ParentCommand
        private Main parent;

        @Override
        public Integer call() {
            CommandLine root = parent.spec.commandLine();
            PrintWriter out = root.getOut();
            out.println("Examples (java -jar rtm-examples.jar <example> --help for the options):");
            root.getSubcommands().forEach((name, sub) -> {
                if (!name.equals("list") && !name.equals("help")) {
                    String[] d = sub.getCommandSpec().usageMessage().description();
                    out.printf("  %-20s %s%n", name, d.length == 0 ? "" : d[0]);
                }
            });
            out.println("Not ported: the page's Kinesis source (rtm-streams reads Kafka only).");
            out.flush();
            return 0;
        }
    }

    /** Version from the jar manifest. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = Main.class.getPackage().getImplementationVersion();
            return new String[] {"rtm-examples " + (v == null ? "0.2.0-SNAPSHOT" : v)};
        }
    }
}
