package dev.rtmstreams.loadgen.internals;

import dev.rtmstreams.adattribution.workload.Event;
import dev.rtmstreams.adattribution.workload.LoadRun;
import dev.rtmstreams.loadgen.internals.Commands.RunOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code replay}: send a recorded file at a chosen speed and check the outputs. */
@Command(
        name = "replay",
        mixinStandardHelpOptions = true,
        description = "Send a recorded events file at a chosen speed and check the outputs.")
final class ReplayCommand implements Callable<Integer> {
    @Option(names = "--file", required = true, description = "The events file to send.")
    Path file;

    @Option(
            names = "--speed",
            description = "Speed factor relative to the recorded schedule. Default: " + "${DEFAULT-VALUE}.",
            defaultValue = "1.0")
    double speed;

    @Option(names = "--bootstrap-servers", required = true, description = "HOST:PORT of the cluster.")
    String bootstrapServers;

    @Option(names = "--report-dir", required = true, description = "Where the JSON report and picture go.")
    Path reportDir;

    @Option(
            names = "--no-rebase",
            description = "Keep the recorded event times (default: shift them so the first " + "slot is now).")
    boolean noRebase;

    @Mixin
    RunOptions run = new RunOptions();

    @Override
    public Integer call() throws Exception {
        if (!(speed > 0)) {
            throw new IllegalArgumentException("--speed must be positive: " + speed);
        }
        EventFile.Contents contents = EventFile.read(file);
        RunDescriptions.AttributionWorkload recorded = contents.header().workload();
        OptionalLong startTime = contents.header().startTime();
        List<Event> events = contents.events();
        if (!noRebase && startTime.isPresent()) {
            long shift = System.currentTimeMillis() - startTime.getAsLong();
            List<Event> shifted = new ArrayList<>(events.size());
            for (Event e : events) {
                shifted.add(e.shifted(shift));
            }
            events = shifted;
        }
        double rate = Objects.requireNonNullElse(recorded.rate(), 1000.0) * speed;
        Duration window = Duration.parse(Objects.requireNonNullElse(recorded.attributionWindow(), "PT2M"));
        Duration delay = Duration.parse(Objects.requireNonNullElse(recorded.watermarkDelay(), "PT5M"));
        String prefix = Objects.requireNonNullElse(recorded.idPrefix(), "");
        Map<String, Object> clients = run.clientProperties(System::getenv);
        LoadRun.Settings s = run.settings(bootstrapServers, clients, window, delay, speed, prefix);
        run.verifyAccess(bootstrapServers, clients);
        LoadReport report = LoadReport.of(
                LoadRun.execute(events, rate, s),
                new LoadReport.Setting(null, recorded, null, null, new LoadReport.Replay(file.toString(), speed)),
                null,
                null);
        return Commands.finish(report, reportDir, "report-" + run.mode);
    }
}
