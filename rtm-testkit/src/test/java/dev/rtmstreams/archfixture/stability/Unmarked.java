package dev.rtmstreams.archfixture.stability;

/** Fixture: a public type without a stability mark. */
public final class Unmarked {}
