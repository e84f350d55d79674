package dev.rtmstreams.processor.internals;

/**
 * What value, list and map state share: the operator's key context, the variable's name, the prefix of its keys in
 * the operator store ({@link Layout#statePrefix}) and its time to live.
 */
abstract class StoredStateVariable implements StateVariable {

    final KeyContext keys;
    final String name;
    final byte[] prefix;
    /** Time to live of what is written, in milliseconds; not positive: no expiry. */
    final long ttlMs;

    StoredStateVariable(KeyContext keys, String name, long ttlMs) {
        this.keys = keys;
        this.name = name;
        this.prefix = Layout.statePrefix(name);
        this.ttlMs = ttlMs;
    }
}
