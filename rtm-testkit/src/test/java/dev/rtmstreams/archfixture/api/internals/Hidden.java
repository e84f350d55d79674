package dev.rtmstreams.archfixture.api.internals;

/** Fixture: a module-private class. */
public class Hidden {
    /** Returns 42. */
    public int secret() {
        return 42;
    }
}
