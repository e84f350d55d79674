package dev.rtmstreams.adattribution.pipeline;

/**
 * The result of the decode step: either a decoded value or the raw bytes of a record that goes
 * to the dead-letter topic (with the error already in its headers).
 *
 * @param value the decoded value, null on failure
 * @param raw the raw value bytes of a failed record (may be null for a tombstone), null on success
 * @param <T> the decoded type
 */
record Decoded<T>(T value, byte[] raw) {

    static <T> Decoded<T> ok(T value) {
        return new Decoded<>(value, null);
    }

    static <T> Decoded<T> failed(byte[] raw) {
        return new Decoded<>(null, raw);
    }

    boolean isOk() {
        return value != null;
    }
}
