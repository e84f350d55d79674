package dev.rtmstreams.testkit.internals;

import dev.rtmstreams.testkit.BrokerSecurity;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.Uuid;

/**
 * What a child-process broker is configured with and the files it is started from: its {@code server.properties}
 * (listeners on fixed ports, the {@code SASL_SSL} listener and users when secured, the caller's overrides last), its
 * log configurations, the arguments of {@code BrokerMain} and the system properties naming the log configurations;
 * and the client security settings of its users. The process itself (start, stop, kill, readiness) is
 * {@link BrokerNode}'s.
 *
 * <p>Immutable.
 */
public final class BrokerSetup {

    private final Path logDir;
    private final NodeLayout layout;
    private final int port;
    private final int controllerPort;
    private final Map<String, String> brokerProperties;
    private final String logLevel;
    private final Optional<BrokerSecurity> security;
    private final Optional<SelfSignedTls> tls;

    /**
     * @param logDir the broker's log directory (exists)
     * @param layout the node's place in its cluster
     * @param port the client listener port
     * @param controllerPort the controller listener port
     * @param brokerProperties broker properties overriding the single-node defaults and the security settings
     * @param logLevel the broker's root log level
     * @param security the users, empty for {@code PLAINTEXT} without authorizer
     * @param tls the key and trust stores; present exactly when {@code security} is
     */
    public BrokerSetup(
            Path logDir,
            NodeLayout layout,
            int port,
            int controllerPort,
            Map<String, String> brokerProperties,
            String logLevel,
            Optional<BrokerSecurity> security,
            Optional<SelfSignedTls> tls) {
        this.logDir = logDir;
        this.layout = layout;
        this.port = port;
        this.controllerPort = controllerPort;
        this.brokerProperties = Map.copyOf(brokerProperties);
        this.logLevel = logLevel;
        this.security = security;
        this.tls = tls;
    }

    /**
     * Writes {@code server.properties} and the log configurations into the log directory.
     *
     * @return the arguments of {@code BrokerMain}: this JVM's pid (the child halts when it exits), the config file,
     *     and, when the log directory is not formatted yet, a new cluster id and the users' SCRAM credentials
     * @throws IOException when a file cannot be written
     */
    public List<String> writeFiles() throws IOException {
        Map<String, String> overrides = new LinkedHashMap<>();
        security.ifPresent(s -> overrides.putAll(SaslSslConfigs.broker(s, port, controllerPort, tls.orElseThrow())));
        overrides.putAll(brokerProperties);
        Path config = BrokerProcessFiles.writeConfig(logDir, port, controllerPort, layout, overrides);
        BrokerProcessFiles.writeLogConfigs(logDir, logLevel);
        List<String> args =
                new ArrayList<>(List.of(Long.toString(ProcessHandle.current().pid()), config.toString()));
        if (!BrokerProcessFiles.isFormatted(logDir)) {
            args.add(layout.clusterId().orElseGet(() -> Uuid.randomUuid().toString()));
            security.ifPresent(s -> args.addAll(s.scramCredentials()));
        }
        return args;
    }

    /** @return the child JVM's system properties naming the log configurations and the broker's own log directory */
    public List<String> logJvmOptions() {
        return List.of(
                "-Dlogback.configurationFile=" + BrokerProcessFiles.logbackConfig(logDir),
                "-Dlog4j2.configurationFile=" + BrokerProcessFiles.log4j2Config(logDir),
                "-Dkafka.logs.dir=" + logDir.resolve("logs"));
    }

    /** @return the broker's log directory */
    public Path logDir() {
        return logDir;
    }

    /** @return the node's place in its cluster */
    public NodeLayout layout() {
        return layout;
    }

    /** @return the security configuration, empty for a {@code PLAINTEXT} broker without authorizer */
    public Optional<BrokerSecurity> security() {
        return security;
    }

    /**
     * Returns the client security settings logging in as {@code user} with {@code password} over {@code mechanism}.
     *
     * @param user a user name
     * @param password the password to send
     * @param mechanism {@link BrokerSecurity#MECHANISM} or {@link BrokerSecurity#SCRAM_MECHANISM}
     * @param broker the broker, named in the error
     * @return a fresh map the caller owns
     * @throws IllegalStateException if the broker has no security configured
     * @throws IllegalArgumentException naming an unknown mechanism
     */
    public Map<String, String> clientSecurityConfig(String user, String password, String mechanism, Object broker) {
        requireSecurity(broker);
        return SaslSslConfigs.client(user, password, mechanism, tls.orElseThrow());
    }

    /**
     * @param broker the broker, named in the error
     * @return the security configuration
     * @throws IllegalStateException if the broker has no security configured
     */
    public BrokerSecurity requireSecurity(Object broker) {
        return security.orElseThrow(
                () -> new IllegalStateException("this broker has a PLAINTEXT listener and no users: " + broker));
    }
}
