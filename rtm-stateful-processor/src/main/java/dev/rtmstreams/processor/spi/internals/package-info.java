/**
 * The implementation behind {@link dev.rtmstreams.processor.spi}'s operator stores and store copies: the innermost
 * store layer ({@link dev.rtmstreams.processor.spi.internals.QueryableOperatorStore}: position tracking, restore
 * observers, pre-commit actions, changelog-only keys) and the in-memory read-only store. Not public API (as every
 * {@code internals} package): it depends only on the public API and Kafka, never on the SPI it implements (which
 * calls into it: a restore observer arrives as a {@link dev.rtmstreams.processor.spi.internals.RestoreHook}) nor on
 * {@code dev.rtmstreams.processor.internals}, which builds {@code transformWithState} on top of both.
 */
package dev.rtmstreams.processor.spi.internals;
