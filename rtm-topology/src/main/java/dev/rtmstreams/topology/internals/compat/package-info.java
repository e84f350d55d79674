/**
 * Shims over the parts of Kafka Streams that differ between the supported versions (4.1 to 4.4), chosen at run time
 * by class presence ({@link dev.rtmstreams.topology.internals.compat.CloseShim}), this module's list of the Kafka
 * internals it relies on, and the registry that checks every module's list when {@code RtmStreams} is built
 * ({@link dev.rtmstreams.topology.internals.compat.HookRegistry}). Not API.
 */
package dev.rtmstreams.topology.internals.compat;
