package dev.rtmstreams.reliability.internals;

import dev.rtmstreams.adattribution.model.ServiceTopics;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The service instances of a chaos run, child JVMs started from the service's fat jar: each with its own state
 * directory, the run's configuration file (the group options, and replication on the runner's own cluster), the
 * run's topics and client settings. {@link #close()} stops every instance made, also from a shutdown hook.
 */
final class ServiceInstances implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ServiceInstances.class);

    private final ScenarioRunner.Settings s;
    private final String runId;
    private final String applicationId;
    private final ServiceTopics topics;
    private final List<ServiceInstance> instances = new ArrayList<>();

    /**
     * @param s how the run runs
     * @param runId the run's id, which names the state directories and the configuration file
     * @param applicationId the service's application id
     * @param topics the run's topics
     */
    ServiceInstances(ScenarioRunner.Settings s, String runId, String applicationId, ServiceTopics topics) {
        this.s = s;
        this.runId = runId;
        this.applicationId = applicationId;
        this.topics = topics;
    }

    /**
     * Makes an instance, not started yet.
     *
     * @param name the instance's name ({@code service-a}...)
     * @param bootstrap the cluster
     * @return the instance
     * @throws IOException when the configuration file cannot be written
     */
    synchronized ServiceInstance newInstance(String name, String bootstrap) throws IOException {
        Path stateDir = s.reportDir().resolve("state").resolve(runId + "-" + name);
        Path config = s.reportDir().resolve(runId + "-service.properties");
        // No client overrides unless a group option asks for one: the real-time trigger's defaults (6 s session
        // timeout, 1.5 s heartbeat, one standby) are what a user gets, and what the failover figures measure.
        StringBuilder properties = new StringBuilder();
        s.group()
                .serviceConfig()
                .forEach((k, v) -> properties.append(k).append('=').append(v).append('\n'));
        if (s.replicationFactor() > 1) {
            // Kafka Streams' changelogs and repartition topics as replicated as the inputs; acks=all is the producer's
            // default, set so that nothing weakens it
            properties
                    .append("kafka.replication.factor=")
                    .append(s.replicationFactor())
                    .append('\n');
            properties.append("kafka.producer.acks=all\n");
        }
        Files.writeString(config, properties);
        List<String> args = new ArrayList<>(List.of(
                "--trigger",
                "real-time",
                "--checkpoint-interval",
                s.checkpointInterval().toString(),
                "--correlation-window",
                s.correlationWindow().toString(),
                "--processing-guarantee",
                s.exactlyOnce() ? "exactly_once_v2" : "at_least_once",
                "--num-stream-threads",
                "2",
                "--config",
                config.toAbsolutePath().toString()));
        args.addAll(topics.serviceArgs());
        ServiceInstance i = new ServiceInstance(
                name,
                s.appJar(),
                bootstrap,
                applicationId,
                stateDir,
                s.reportDir().resolve("logs"),
                s.appJvmOptions(),
                args,
                environment(name));
        instances.add(i);
        return i;
    }

    /** @return the client settings of the run plus the instance's own {@code group.instance.id}, if static */
    private Map<String, String> environment(String instance) {
        Map<String, String> env = new LinkedHashMap<>(s.kafkaClient().toEnvironment());
        env.putAll(s.group().instanceEnvironment(applicationId, instance));
        return env;
    }

    /** Stops every instance made; one that cannot be stopped is logged. */
    @Override
    public synchronized void close() {
        for (ServiceInstance i : instances) {
            try {
                i.close();
            } catch (RuntimeException e) {
                LOG.warn("cannot stop {}: {}", i.name(), e.toString());
            }
        }
    }
}
