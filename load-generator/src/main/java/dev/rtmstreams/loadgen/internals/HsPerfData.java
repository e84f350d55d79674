package dev.rtmstreams.loadgen.internals;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Reads a HotSpot JVM's performance counters from its {@code hsperfdata} file ({@code <tmp>/hsperfdata_<user>/<pid>},
 * the memory the JVM publishes its counters in unless started with {@code -XX:-UsePerfData}), the same counters
 * {@code jstat} prints, without starting a JVM: one read of a file of some 32 KiB, so it can be sampled at the exact
 * ends of a measured window while the system under test runs.
 *
 * <p>Layout (HotSpot {@code perfMemory.hpp}): a 32-byte prologue (magic {@code CA FE C0 C0}, byte order, version,
 * accessible flag, used, overflow, modification time, offset and number of entries), then entries of {@code
 * entry_length, name_offset, vector_length} (ints), {@code data_type, flags, data_units, data_variability} (bytes),
 * {@code data_offset} (int), the name NUL-terminated at the name offset, the value at the data offset. Longs
 * ({@code 'J'}) and strings (byte vectors) are read; other entries are skipped.
 */
final class HsPerfData {

    private static final int PROLOGUE_BYTES = 32;

    private HsPerfData() {}

    /**
     * Finds and reads the counters of a local JVM.
     *
     * @param pid the JVM's process id
     * @param tmpDir the directory holding the {@code hsperfdata_<user>} directories (usually {@code /tmp})
     * @return counter name to value (Long or String), or empty when no readable file exists for {@code pid}
     */
    static Optional<Map<String, Object>> read(long pid, Path tmpDir) {
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(tmpDir, "hsperfdata_*")) {
            for (Path dir : dirs) {
                Path f = dir.resolve(Long.toString(pid));
                if (Files.isRegularFile(f)) {
                    return Optional.of(parse(ByteBuffer.wrap(Files.readAllBytes(f))));
                }
            }
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
        return Optional.empty();
    }

    /**
     * Parses the contents of an hsperfdata file.
     *
     * @param b the file's bytes
     * @return counter name to value: Long for long scalars, String for byte vectors (NUL-terminated)
     * @throws IllegalArgumentException when the buffer is not an accessible hsperfdata buffer
     */
    static Map<String, Object> parse(ByteBuffer b) {
        if (b.remaining() < PROLOGUE_BYTES
                || (b.get(0) & 0xff) != 0xca
                || (b.get(1) & 0xff) != 0xfe
                || (b.get(2) & 0xff) != 0xc0
                || (b.get(3) & 0xff) != 0xc0) {
            throw new IllegalArgumentException("not an hsperfdata buffer (magic)");
        }
        b.order(b.get(4) == 0 ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
        if (b.get(7) == 0) {
            throw new IllegalArgumentException("hsperfdata buffer not accessible yet");
        }
        int offset = b.getInt(24);
        int entries = b.getInt(28);
        Map<String, Object> out = new LinkedHashMap<>();
        for (int i = 0; i < entries && offset + 20 <= b.limit(); i++) {
            int length = b.getInt(offset);
            if (length <= 0) {
                break;
            }
            int nameOffset = b.getInt(offset + 4);
            int vectorLength = b.getInt(offset + 8);
            byte type = b.get(offset + 12);
            int dataOffset = b.getInt(offset + 16);
            String name = cString(b, offset + nameOffset, offset + length);
            int data = offset + dataOffset;
            if (type == 'J' && vectorLength == 0) {
                out.put(name, b.getLong(data));
            } else if (type == 'B' && vectorLength > 0) {
                out.put(name, cString(b, data, Math.min(data + vectorLength, b.limit())));
            }
            offset += length;
        }
        return out;
    }

    private static String cString(ByteBuffer b, int from, int limit) {
        int end = from;
        while (end < limit && b.get(end) != 0) {
            end++;
        }
        byte[] bytes = new byte[end - from];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = b.get(from + i);
        }
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
