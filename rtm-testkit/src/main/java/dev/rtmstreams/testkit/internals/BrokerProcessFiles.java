package dev.rtmstreams.testkit.internals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/** The files of a child-process broker inside its log directory. */
public final class BrokerProcessFiles {

    private BrokerProcessFiles() {}

    /** The broker's stdout/stderr. */
    public static Path output(Path logDir) {
        return logDir.resolve("broker.out");
    }

    /** The logback configuration given to the child. */
    public static Path logbackConfig(Path logDir) {
        return logDir.resolve("broker-logback.xml");
    }

    /** The log4j2 configuration given to the child. */
    public static Path log4j2Config(Path logDir) {
        return logDir.resolve("broker-log4j2.properties");
    }

    /** Whether the data directory holds a formatted {@code meta.properties}. */
    public static boolean isFormatted(Path logDir) {
        return Files.exists(logDir.resolve("data").resolve("meta.properties"))
                && Files.exists(logDir.resolve("metadata").resolve("meta.properties"));
    }

    /**
     * Writes {@code server.properties} for a combined broker+controller node and returns its path: the single-node
     * defaults, then the layout's (node id, voters, replication defaults of its cluster), then {@code overrides}.
     */
    public static Path writeConfig(
            Path logDir, int port, int controllerPort, NodeLayout layout, Map<String, String> overrides)
            throws IOException {
        Map<String, String> props = new LinkedHashMap<>();
        props.put("process.roles", "broker,controller");
        props.put("node.id", Integer.toString(layout.nodeId()));
        props.put("controller.quorum.voters", layout.quorumVoters());
        String host = layout.host();
        props.put("listeners", "PLAINTEXT://" + host + ":" + port + ",CONTROLLER://" + host + ":" + controllerPort);
        props.put("advertised.listeners", "PLAINTEXT://" + host + ":" + port);
        props.put("controller.listener.names", "CONTROLLER");
        props.put("inter.broker.listener.name", "PLAINTEXT");
        props.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        props.put("log.dirs", logDir.resolve("data").toString());
        props.put("metadata.log.dir", logDir.resolve("metadata").toString());
        props.put("num.partitions", "1");
        props.put("default.replication.factor", "1");
        props.put("min.insync.replicas", "1");
        props.put("offsets.topic.replication.factor", "1");
        props.put("offsets.topic.num.partitions", "5");
        props.put("transaction.state.log.replication.factor", "1");
        props.put("transaction.state.log.min.isr", "1");
        props.put("transaction.state.log.num.partitions", "5");
        props.put("share.coordinator.state.topic.replication.factor", "1");
        props.put("share.coordinator.state.topic.min.isr", "1");
        props.put("group.initial.rebalance.delay.ms", "0");
        props.put("log.cleaner.dedupe.buffer.size", "2097152");
        // records with old or synthetic timestamps must not be deleted by the retention check
        props.put("log.retention.ms", "-1");
        // a killed broker's old registration blocks the restarted one until the session expires
        // (default 9 s); heartbeats stay local, so a short session is safe
        props.put("broker.heartbeat.interval.ms", "500");
        props.put("broker.session.timeout.ms", "3000");
        props.putAll(layout.defaults());
        props.putAll(overrides);
        Files.createDirectories(logDir);
        Path file = logDir.resolve("server.properties");
        String text = props.entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue().replace("\\", "\\\\"))
                .collect(Collectors.joining("\n", "# written by rtm-testkit KafkaBrokerProcess\n", "\n"));
        Files.writeString(file, text, StandardCharsets.UTF_8);
        return file;
    }

    /** Writes logback and log4j2 configurations logging to stdout at {@code level}. */
    public static void writeLogConfigs(Path logDir, String level) throws IOException {
        String upper = level.toUpperCase();
        Files.writeString(logbackConfig(logDir), """
        <configuration>
          <appender name="OUT" class="ch.qos.logback.core.ConsoleAppender">
            <encoder><pattern>%d{HH:mm:ss.SSS} %-5level [%thread] %logger{36} - %msg%n</pattern></encoder>
          </appender>
          <root level="LEVEL"><appender-ref ref="OUT"/></root>
        </configuration>
        """.replace("LEVEL", upper), StandardCharsets.UTF_8);
        Files.writeString(log4j2Config(logDir), """
        status = error
        appender.out.type = Console
        appender.out.name = OUT
        appender.out.layout.type = PatternLayout
        appender.out.layout.pattern = %d{HH:mm:ss.SSS} %-5level [%t] %c{1.} - %msg%n
        rootLogger.level = LEVEL
        rootLogger.appenderRef.out.ref = OUT
        """.replace("LEVEL", upper), StandardCharsets.UTF_8);
    }
}
