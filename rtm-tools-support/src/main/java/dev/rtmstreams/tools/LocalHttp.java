package dev.rtmstreams.tools;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/**
 * HTTP GETs to a server on this machine (a child's {@code /health} and {@code /metrics}).
 *
 * <pre>{@code
 * String health = LocalHttp.get(port, "/health");   // null unless 200
 * }</pre>
 */
public final class LocalHttp {

    private LocalHttp() {}

    /**
     * {@code GET http://localhost:PORT/PATH} with a 2 s connect and a 10 s read timeout.
     *
     * @param port the port on localhost
     * @param path the path, starting with {@code /}
     * @return the body when the answer is 200; null when it is another status or nothing answers
     */
    public static String get(int port, String path) {
        try {
            HttpURLConnection c = (HttpURLConnection)
                    URI.create("http://localhost:" + port + path).toURL().openConnection();
            c.setConnectTimeout(2000);
            c.setReadTimeout(10000);
            try {
                if (c.getResponseCode() != 200) {
                    return null;
                }
                try (var in = c.getInputStream()) {
                    return new String(in.readAllBytes(), StandardCharsets.UTF_8);
                }
            } finally {
                c.disconnect();
            }
        } catch (IOException e) {
            return null;
        }
    }
}
