package dev.rtmstreams.loadgen.internals;

import dev.rtmstreams.adattribution.workload.Event;
import dev.rtmstreams.adattribution.workload.WorkloadConfig;
import dev.rtmstreams.adattribution.workload.WorkloadGenerator;
import dev.rtmstreams.loadgen.internals.Commands.WorkloadOptions;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code record}: write a generated workload to a file. */
@Command(
        name = "record",
        mixinStandardHelpOptions = true,
        description = "Write a generated workload to a file (JSON lines, gzip if the name ends in .gz).")
final class RecordCommand implements Callable<Integer> {
    @Option(names = "--file", required = true, description = "The events file to write.")
    Path file;

    @Option(names = "--start-time", description = "Event time of the first slot (ISO-8601 instant). Default: now.")
    Instant startTime;

    @Mixin
    WorkloadOptions workload = new WorkloadOptions();

    @Override
    public Integer call() throws Exception {
        WorkloadConfig config = workload.build(0.1);
        long start = startTime != null ? startTime.toEpochMilli() : System.currentTimeMillis();
        List<Event> events = WorkloadGenerator.generate(config, start);
        // the file's header: the workload's description and the start, read back by the replay
        EventFile.write(
                file,
                new EventFile.Header(RunDescriptions.workloadDescription(config), OptionalLong.of(start)),
                events);
        System.out.println("wrote " + events.size() + " events to " + file.toAbsolutePath());
        return 0;
    }
}
