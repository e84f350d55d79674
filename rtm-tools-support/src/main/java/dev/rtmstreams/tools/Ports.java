package dev.rtmstreams.tools;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Free-port lookup. */
public final class Ports {

    private Ports() {}

    /**
     * Returns a TCP port that was free on localhost a moment ago, for a child's HTTP server (and its
     * {@link Readiness#health(int)}).
     *
     * @return the port
     * @throws UncheckedIOException when no port can be bound
     */
    public static int freePort() {
        return freePorts(1)[0];
    }

    /** Returns {@code count} distinct ports that were free on localhost a moment ago. */
    public static int[] freePorts(int count) {
        ServerSocket[] sockets = new ServerSocket[count];
        int[] ports = new int[count];
        try {
            for (int i = 0; i < count; i++) {
                sockets[i] = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                sockets[i].setReuseAddress(true);
                ports[i] = sockets[i].getLocalPort();
            }
            return ports;
        } catch (IOException e) {
            throw new UncheckedIOException("no free port", e);
        } finally {
            for (ServerSocket socket : sockets) {
                if (socket != null) {
                    try {
                        socket.close();
                    } catch (IOException ignored) {
                        // best effort
                    }
                }
            }
        }
    }
}
