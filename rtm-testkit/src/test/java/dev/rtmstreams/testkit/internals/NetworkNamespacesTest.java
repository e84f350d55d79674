package dev.rtmstreams.testkit.internals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The network namespaces of a cluster, without Kafka: a node's address answers from this namespace (a connection to a
 * port nobody listens on is refused by the node's own kernel) until the node is disconnected (the attempt times out),
 * and again once reconnected; everything is gone after close. Needs root and iproute2 (skipped otherwise).
 */
class NetworkNamespacesTest {

    @BeforeAll
    static void needsRootAndIp() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "needs root");
        assumeTrue(exec("ip", "netns", "list") == 0, "needs ip netns");
    }

    @Test
    void shouldCutANodeOffUntilReconnectedAndDeleteEverythingOnClose(@TempDir Path dir) throws Exception {
        String namespace;
        try (NetworkNamespaces network = NetworkNamespaces.create("10.213.250", 2)) {
            namespace = network.namespace(2);
            assertThat(network.address(2)).isEqualTo("10.213.250.12");
            assertThat(reach(network.address(2))).isEqualTo("refused");

            network.disconnect(2);
            assertThat(reach(network.address(2))).isEqualTo("timed out");
            assertThat(reach(network.address(1))).isEqualTo("refused");

            network.reconnect(2);
            assertThat(reach(network.address(2))).isEqualTo("refused");

            Path launcher = network.javaLauncher(2, dir, Path.of("/usr/bin/java"));
            assertThat(Files.readString(launcher, StandardCharsets.UTF_8))
                    .contains("exec ip netns exec " + namespace + " '/usr/bin/java' \"$@\"");
            assertThat(Files.isExecutable(launcher)).isTrue();
        }
        assertThat(output("ip", "netns", "list")).doesNotContain(namespace);
        assertThat(output("ip", "-br", "link"))
                .doesNotContain(namespace.replace("-", "").substring(0, 7));
    }

    @Test
    void shouldRejectAPrefixThatIsNotThreeOctets() {
        assertThatThrownBy(() -> NetworkNamespaces.create("10.213", 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("10.213");
    }

    /** @return "refused" when the address answered, "timed out" when nothing came back within 1 s */
    private static String reach(String address) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(address, 9), 1_000);
            return "connected";
        } catch (ConnectException e) {
            return "refused";
        } catch (SocketTimeoutException e) {
            return "timed out";
        }
    }

    private static int exec(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        return p.waitFor();
    }

    private static String output(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor();
        return out;
    }
}
