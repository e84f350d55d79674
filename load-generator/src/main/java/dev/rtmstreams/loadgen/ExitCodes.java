package dev.rtmstreams.loadgen;

import dev.rtmstreams.adattribution.model.KafkaAccessException;
import dev.rtmstreams.cli.DurationConverter;
import picocli.CommandLine;

/**
 * How the command lines that run a load (the load generator's and the chaos command's) turn an exception of a
 * command into an exit code and a message on standard error.
 */
public final class ExitCodes {

    private ExitCodes() {}

    /**
     * Builds the picocli command line of a command with this error handling: a {@link KafkaAccessException} (a wrong
     * password or a missing ACL) exits 1 with one line naming the principal; an {@link IllegalArgumentException} from
     * validation exits 2 with its message and the usage; anything else exits 1 with the exception and its stack
     * trace. Duration options read {@code PT30S} or {@code 30s} ({@link DurationConverter}).
     *
     * @param command the annotated command
     * @param brokePrefix what stands between {@code "error: "} and an unexpected exception, e.g.
     *     {@code "the chaos run broke: "}; empty for none
     * @return the command line
     */
    public static CommandLine commandLine(Object command, String brokePrefix) {
        CommandLine cl = DurationConverter.registerOn(new CommandLine(command));
        cl.setExecutionExceptionHandler(handler(brokePrefix));
        return cl;
    }

    private static CommandLine.IExecutionExceptionHandler handler(String brokePrefix) {
        return (ex, commandLine, parseResult) -> {
            if (ex instanceof KafkaAccessException) {
                // a wrong password or a missing ACL: one line naming the principal, no retry
                commandLine.getErr().println("error: " + ex.getMessage());
                return 1;
            }
            if (ex instanceof IllegalArgumentException) {
                commandLine.getErr().println("error: " + ex.getMessage());
                commandLine.usage(commandLine.getErr());
                return 2;
            }
            commandLine.getErr().println("error: " + brokePrefix + ex);
            ex.printStackTrace(commandLine.getErr());
            return 1;
        };
    }
}
