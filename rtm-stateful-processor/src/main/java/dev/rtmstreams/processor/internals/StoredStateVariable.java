package dev.rtmstreams.processor.internals;

/**
 * What value, list and map state share: the operator's key context, the variable's name, the prefix of its keys in
 * the operator store ({@link Layout#statePrefix}) and its time-to-live layer.
 */
abstract class StoredStateVariable implements StateVariable {

    final KeyContext keys;
    final String name;
    final byte[] prefix;
    /** Every decision about expiry ({@link TtlLayer#NONE} without TTL). */
    final TtlLayer ttl;

    StoredStateVariable(KeyContext keys, String name, TtlLayer ttl) {
        this.keys = keys;
        this.name = name;
        this.prefix = Layout.statePrefix(name);
        this.ttl = ttl;
    }
}
