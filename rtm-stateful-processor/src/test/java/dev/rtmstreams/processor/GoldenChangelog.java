package dev.rtmstreams.processor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;

/**
 * A golden changelog fixture: the changelog records of one store as an earlier release wrote them, as text. Lines
 * starting with {@code #} are comments (the first ones name the store and the changelog topic's suffix, the part after
 * {@code <application.id>-}); every other line is one record in write order, {@code <key hex> <value hex>}, with
 * {@code .} as an empty value and {@code -} as the value of a tombstone.
 */
public final class GoldenChangelog {

    private static final HexFormat HEX = HexFormat.of();

    private GoldenChangelog() {}

    /**
     * @param file the fixture
     * @return its records in write order
     */
    public static List<KeyValue<Bytes, byte[]>> read(Path file) {
        List<KeyValue<Bytes, byte[]>> out = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                String l = line.strip();
                if (l.isEmpty() || l.startsWith("#")) {
                    continue;
                }
                String[] kv = l.split(" ");
                if (kv.length != 2) {
                    throw new IllegalArgumentException("not a fixture line of " + file + ": " + line);
                }
                out.add(KeyValue.pair(Bytes.wrap(HEX.parseHex(kv[0])), value(kv[1])));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /** @return the bytes of a fixture's value field: {@code -} a tombstone (null), {@code .} empty, else hex */
    static byte[] value(String field) {
        return field.equals("-") ? null : field.equals(".") ? new byte[0] : HEX.parseHex(field);
    }

    /**
     * @param storeName the store whose changelog the records are
     * @param description what wrote them (one line)
     * @param records the records in write order
     * @return the fixture's text
     */
    public static String format(String storeName, String description, List<KeyValue<Bytes, byte[]>> records) {
        StringBuilder b = new StringBuilder();
        b.append("# store: ").append(storeName).append('\n');
        b.append("# changelog topic suffix: ").append(storeName).append("-changelog\n");
        b.append("# ").append(description).append('\n');
        b.append("# one record per line in write order: <key hex> <value hex, . when empty, - for a tombstone>\n");
        for (KeyValue<Bytes, byte[]> kv : records) {
            b.append(HEX.formatHex(kv.key.get()))
                    .append(' ')
                    .append(kv.value == null ? "-" : kv.value.length == 0 ? "." : HEX.formatHex(kv.value))
                    .append('\n');
        }
        return b.toString();
    }
}
