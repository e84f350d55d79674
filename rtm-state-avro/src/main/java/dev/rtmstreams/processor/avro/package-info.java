/**
 * The Avro state encoding of transformWithState: {@link dev.rtmstreams.processor.avro.AvroStateSerde}, an
 * {@link dev.rtmstreams.processor.EvolvableSerde} whose state variables keep every schema they were declared with and
 * read older values through Avro's schema resolution.
 */
package dev.rtmstreams.processor.avro;
