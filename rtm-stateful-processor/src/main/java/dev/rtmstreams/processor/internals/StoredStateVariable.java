package dev.rtmstreams.processor.internals;

import java.util.function.LongPredicate;

/**
 * What value, list and map state share: the operator's key context, the variable's name and the prefix of its keys in
 * the operator store ({@link Layout#statePrefix}). A plain state stores an expiry with every value (the layout's, see
 * {@link ValueCodec}) but decides nothing about it: it writes {@link #NEVER} and reads every value, and it offers its
 * TTL wrapper ({@link TtlState}) the same operations with a given expiry and a filter of live expiries.
 */
abstract class StoredStateVariable {

    /** The expiry of a value written without time to live. */
    static final long NEVER = Long.MAX_VALUE;

    /** Keeps every stored value, whatever its expiry. */
    static final LongPredicate ALL = expiry -> true;

    final KeyContext keys;
    final String name;
    final byte[] prefix;

    StoredStateVariable(KeyContext keys, String name) {
        this.keys = keys;
        this.name = name;
        this.prefix = Layout.statePrefix(name);
    }
}
