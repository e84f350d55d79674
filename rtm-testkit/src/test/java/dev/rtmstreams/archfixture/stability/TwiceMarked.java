package dev.rtmstreams.archfixture.stability;

import org.apache.kafka.common.annotation.InterfaceStability;

/** Fixture: a public type with two stability marks. */
@InterfaceStability.Stable
@InterfaceStability.Unstable
public interface TwiceMarked {}
