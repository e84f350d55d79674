package dev.rtmstreams.archfixture.api;

import dev.rtmstreams.archfixture.api.internals.Hidden;

/** Fixture: a module's API class using its own internals (allowed). */
public class Api {
    /** Returns a value computed by the internals. */
    public int value() {
        return new Hidden().secret();
    }
}
