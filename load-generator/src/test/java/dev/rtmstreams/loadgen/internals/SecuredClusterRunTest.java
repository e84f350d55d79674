package dev.rtmstreams.loadgen.internals;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.testkit.BrokerSecurity;
import dev.rtmstreams.testkit.EmbeddedKafkaCluster;
import dev.rtmstreams.testkit.KafkaBrokerProcess;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code run} against a SASL_SSL broker with ACLs: a wrong password or a missing ACL stops it at once, clearly. */
class SecuredClusterRunTest {

    private static final String PASSWORD = "loadgen-Pa55-93ab";

    @Test
    void shouldExitOneNamingThePrincipalWhenThePasswordIsWrongOrAnAclIsMissing(@TempDir Path dir) throws Exception {
        try (KafkaBrokerProcess broker = EmbeddedKafkaCluster.childProcess()
                .security(
                        BrokerSecurity.saslSslPlain().user("loadgen", PASSWORD).build())
                .build()
                .start()) {
            broker.createTopics(1, "ad-impressions", "ad-clicks", "ad-requests", "ad-acks");
            broker.createAcls(List.of(new AclBinding(
                    new ResourcePattern(ResourceType.TOPIC, "ad-impressions", PatternType.LITERAL),
                    new AccessControlEntry("User:loadgen", "*", AclOperation.WRITE, AclPermissionType.ALLOW))));

            StringWriter err = new StringWriter();
            int wrong = run(broker, dir, broker.clientSecurityConfig("loadgen", "not-" + PASSWORD), err);
            assertThat(wrong).isEqualTo(1);
            assertThat(err.toString())
                    .contains("error: Kafka login failed at " + broker.bootstrapServers() + " as User:loadgen")
                    .doesNotContain(PASSWORD);

            err = new StringWriter();
            int denied = run(broker, dir, broker.clientSecurityConfig("loadgen"), err);
            assertThat(denied).isEqualTo(1);
            assertThat(err.toString())
                    .contains(
                            "error: Kafka denied access: User:loadgen (SASL_SSL/PLAIN) may not WRITE topic 'ad-clicks'")
                    .doesNotContain(PASSWORD);
        }
    }

    private static int run(KafkaBrokerProcess broker, Path dir, Map<String, String> security, StringWriter err)
            throws Exception {
        Path config = dir.resolve("client.properties");
        StringBuilder text = new StringBuilder();
        security.forEach((k, v) ->
                text.append(k).append('=').append(v.replace("\\", "\\\\")).append('\n'));
        Files.writeString(config, text.toString(), StandardCharsets.UTF_8);
        CommandLine cl = Commands.commandLine();
        cl.setOut(new PrintWriter(new StringWriter(), true));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(
                "run",
                "--bootstrap-servers",
                broker.bootstrapServers(),
                "--kafka-config",
                config.toString(),
                "--report-dir",
                dir.resolve("out").toString(),
                "--rate",
                "10",
                "--duration",
                "PT1S",
                "--no-progress");
    }
}
