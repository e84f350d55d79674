package dev.rtmstreams.adattribution.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code demo} in the service jar: the demo (an embedded broker, the workload and the service in both modes) is its
 * own jar, which the service jar does not contain; this command names it and fails. Any demo option is accepted and
 * ignored, so a demo command line run against the wrong jar gets this message rather than an option error.
 */
@Command(
        name = "demo",
        mixinStandardHelpOptions = true,
        description = "The demo is its own jar: java -jar " + DemoPointer.DEMO_JAR + " demo")
public final class DemoPointer implements Callable<Integer> {

    /** Where the build puts the demo jar, relative to the repository root. */
    public static final String DEMO_JAR = "adattribution-demo/target/adattribution-demo.jar";

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @CommandLine.Unmatched
    private List<String> ignored = new ArrayList<>();

    @Override
    public Integer call() {
        spec.commandLine()
                .getErr()
                .println("demo needs the embedded Kafka broker, which the service jar leaves out: run java -jar "
                        + DEMO_JAR + " demo");
        return 1;
    }
}
