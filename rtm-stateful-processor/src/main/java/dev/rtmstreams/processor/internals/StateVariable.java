package dev.rtmstreams.processor.internals;

/** What the runtime needs of every declared state variable. */
interface StateVariable {

    /**
     * Physically removes what expired at {@code now} under {@code primaryKey} (a STATE key of this variable).
     *
     * @return how many values, list elements or map entries were removed
     */
    int removeExpired(byte[] primaryKey, long now);
}
