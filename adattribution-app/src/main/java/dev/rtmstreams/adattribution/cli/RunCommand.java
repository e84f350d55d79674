package dev.rtmstreams.adattribution.cli;

import dev.rtmstreams.adattribution.AdAttributionService;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * {@code run}: runs the service until SIGTERM / SIGINT, then shuts down gracefully (stops the
 * HTTP server, closes Kafka Streams so that offsets are committed and state is flushed).
 *
 * <p>Options are generated from {@link ServiceOption}; each is also read from the environment
 * ({@code RTM_*}) and from the {@code --config} file. Precedence: command line &gt; environment &gt;
 * file &gt; default.
 */
@Command(
        name = "run",
        mixinStandardHelpOptions = true,
        description = {
            "Run the ad-attribution service until SIGTERM.",
            "Every option can also be set as an environment variable (RTM_<OPTION>, e.g. RTM_BOOTSTRAP_SERVERS)"
                    + " or as a key of the --config properties file (e.g. bootstrap-servers=...; kafka.<prop>=... is"
                    + " passed to Kafka Streams). Precedence: command line > environment > config file > default.",
            "A DURATION is ISO-8601 or a whole number with a unit: PT30S or 30s (also 500ms, 2m, 1h)."
        },
        sortOptions = false)
public final class RunCommand implements Callable<Integer> {

    private static final Logger LOG = LoggerFactory.getLogger(RunCommand.class);

    @CommandLine.Spec
    private CommandSpec spec;

    @CommandLine.Option(
            names = "--config",
            paramLabel = "FILE",
            description = "Properties file with options (keys without dashes). Env RTM_CONFIG.")
    private Path configFile;

    private final Function<String, String> env;

    /** Creates the command reading the process environment. */
    public RunCommand() {
        this(System::getenv);
    }

    /** @param env environment lookup */
    public RunCommand(Function<String, String> env) {
        this.env = env;
    }

    /**
     * Adds one option per {@link ServiceOption} to the {@code run} command spec.
     *
     * @param spec the spec of the run command
     */
    public static void addServiceOptions(CommandSpec spec) {
        for (ServiceOption option : ServiceOption.values()) {
            OptionSpec.Builder b = OptionSpec.builder(option.cliName()).description(option.helpText());
            if (option.isFlag()) {
                b.type(boolean.class).arity("0..1").paramLabel("BOOLEAN");
            } else {
                b.type(String.class).paramLabel(option.paramLabel());
            }
            spec.addOption(b.build());
        }
    }

    /**
     * Resolves the configuration from the parsed command line, the environment and the file.
     *
     * @return the resolved configuration
     * @throws CommandLine.ParameterException naming the bad option
     */
    ConfigResolver.Resolved resolve() {
        Map<ServiceOption, String> cli = new EnumMap<>(ServiceOption.class);
        CommandLine.ParseResult pr = spec.commandLine().getParseResult();
        for (ServiceOption option : ServiceOption.values()) {
            if (pr.hasMatchedOption(option.cliName())) {
                Object value = pr.matchedOptionValue(option.cliName(), null);
                cli.put(option, String.valueOf(value));
            }
        }
        try {
            return new ConfigResolver(env).resolve(cli, configFile);
        } catch (ConfigResolver.ConfigException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    /** Stops the logging backend so that buffered lines reach their appenders before {@code halt}. */
    private static void flushLogs() {
        System.out.flush();
        System.err.flush();
        if (org.slf4j.LoggerFactory.getILoggerFactory() instanceof ch.qos.logback.classic.LoggerContext ctx) {
            ctx.stop();
        }
    }

    private static String httpHost(java.net.InetAddress address) {
        if (address.isAnyLocalAddress()) {
            return "localhost";
        }
        String host = address.getHostAddress();
        return host.contains(":") ? "[" + host + "]" : host;
    }

    @Override
    public Integer call() throws Exception {
        ConfigResolver.Resolved resolved = resolve();
        LOG.info("event=config {} sources={}", resolved.config(), resolved.sources());
        AdAttributionService service = new AdAttributionService(resolved.config());
        Thread hook = new Thread(
                () -> {
                    LOG.info("event=shutdown-requested");
                    service.close();
                    // SIGTERM would otherwise end the JVM with 143: report how the close went instead
                    int status = service.closedCleanly() ? 0 : 1;
                    LOG.info("event=exit status={}", status);
                    flushLogs();
                    Runtime.getRuntime().halt(status);
                },
                "adattribution-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            service.start();
        } catch (RuntimeException e) {
            // One line naming what to fix (a wrong password, a missing ACL, too few slots, a port in use...), on
            // stderr and in the log; the stack trace only at DEBUG, so the console does not show it twice.
            LOG.error("event=start-failed error={}", e.getMessage() != null ? e.getMessage() : e.toString());
            LOG.debug("event=start-failed", e);
            service.close();
            Runtime.getRuntime().removeShutdownHook(hook);
            spec.commandLine().getErr().println("Failed to start: " + e.getMessage());
            return 1;
        }
        spec.commandLine()
                .getOut()
                .println("adattribution-app running: application.id="
                        + resolved.config().applicationId()
                        + " trigger=" + resolved.config().trigger().configValue()
                        + (service.httpPort() > 0
                                ? " http=http://" + httpHost(resolved.config().httpBindAddress()) + ":"
                                        + service.httpPort() + "/health"
                                : ""));
        spec.commandLine().getOut().flush();
        // Returns when the hook has closed the service (0) or Kafka Streams failed (1).
        int code = service.awaitTermination();
        if (code != 0) {
            service.failure().ifPresent(reason -> {
                spec.commandLine().getErr().println("Failed: " + reason);
                spec.commandLine().getErr().flush();
            });
            service.close();
            try {
                Runtime.getRuntime().removeShutdownHook(hook); // main's own exit status (1) stands
            } catch (IllegalStateException shuttingDown) {
                // the hook is running already and reports the status itself
            }
        }
        return code;
    }
}
