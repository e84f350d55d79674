package dev.rtmstreams.loadgen.internals;

import dev.rtmstreams.adattribution.workload.LoadRun;
import dev.rtmstreams.adattribution.workload.WorkloadConfig;
import dev.rtmstreams.adattribution.workload.WorkloadGenerator;
import dev.rtmstreams.loadgen.internals.Commands.RunOptions;
import dev.rtmstreams.loadgen.internals.Commands.WorkloadOptions;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code run}: generate, send at a rate, check outputs. */
@Command(
        name = "run",
        mixinStandardHelpOptions = true,
        description = "Send a generated workload to a running service at a target rate and check its outputs.")
final class RunCommand implements Callable<Integer> {
    @Option(names = "--bootstrap-servers", required = true, description = "HOST:PORT of the cluster.")
    String bootstrapServers;

    @Option(names = "--report-dir", required = true, description = "Where the JSON report and picture go.")
    Path reportDir;

    @Mixin
    WorkloadOptions workload = new WorkloadOptions();

    @Mixin
    RunOptions run = new RunOptions();

    @Override
    public Integer call() throws Exception {
        WorkloadConfig config = workload.build(0.1);
        Map<String, Object> clients = run.clientProperties(System::getenv);
        LoadRun.Settings s = run.settings(
                bootstrapServers, clients, config.attributionWindow(), config.watermarkDelay(), 1.0, config.idPrefix());
        Map<String, Object> extra = new LinkedHashMap<>();
        extra.put("workload", RunDescriptions.workloadDescription(config));
        run.verifyAccess(bootstrapServers, clients);
        Map<String, Object> report = LoadRun.execute(
                WorkloadGenerator.generate(config, System.currentTimeMillis()), config.rate(), s, extra);
        return Commands.finish(report, reportDir, "report-" + run.mode);
    }
}
