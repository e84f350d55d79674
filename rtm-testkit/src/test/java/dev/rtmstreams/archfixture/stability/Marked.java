package dev.rtmstreams.archfixture.stability;

import org.apache.kafka.common.annotation.InterfaceStability;

/** Fixture: a public type with one stability mark. */
@InterfaceStability.Evolving
public final class Marked {}
