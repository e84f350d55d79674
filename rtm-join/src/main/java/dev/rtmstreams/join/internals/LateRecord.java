package dev.rtmstreams.join.internals;

/** A late input record on its way to the late-records topic: the value serialized with its side's serde. */
record LateRecord(boolean left, byte[] value) {}
