package dev.rtmstreams.loadgen.internals;

import dev.rtmstreams.adattribution.workload.Event;
import dev.rtmstreams.adattribution.workload.LoadRun;
import dev.rtmstreams.loadgen.internals.Commands.RunOptions;
import dev.rtmstreams.tools.ReportJson;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
        Map<String, Object> h = contents.header();
        List<Event> events = contents.events();
        if (!noRebase && h.get("start_time") instanceof Number) {
            long shift = System.currentTimeMillis() - ((Number) h.get("start_time")).longValue();
            List<Event> shifted = new ArrayList<>(events.size());
            for (Event e : events) {
                shifted.add(e.shifted(shift));
            }
            events = shifted;
        }
        double rate = ((Number) h.getOrDefault("rate", 1000.0)).doubleValue() * speed;
        Duration window = Duration.parse(String.valueOf(h.getOrDefault("attribution_window", "PT2M")));
        Duration delay = Duration.parse(String.valueOf(h.getOrDefault("watermark_delay", "PT5M")));
        String prefix = String.valueOf(h.getOrDefault("id_prefix", ""));
        Map<String, Object> clients = run.clientProperties(System::getenv);
        LoadRun.Settings s = run.settings(bootstrapServers, clients, window, delay, speed, prefix);
        RunDescriptions.AttributionWorkload recorded = ReportJson.convert(h, RunDescriptions.AttributionWorkload.class);
        run.verifyAccess(bootstrapServers, clients);
        LoadReport report = LoadReport.of(
                LoadRun.execute(events, rate, s),
                new LoadReport.Setting(null, recorded, null, null, new LoadReport.Replay(file.toString(), speed)),
                null,
                null);
        return Commands.finish(report, reportDir, "report-" + run.mode);
    }
}
