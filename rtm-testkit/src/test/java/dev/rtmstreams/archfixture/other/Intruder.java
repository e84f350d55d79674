package dev.rtmstreams.archfixture.other;

import dev.rtmstreams.archfixture.api.internals.Hidden;

/** Fixture: another module reaching into the first module's internals (forbidden). */
public class Intruder {
    /** Uses a forbidden class. */
    public int steal() {
        return new Hidden().secret();
    }
}
