/**
 * Shims over the parts of Kafka Streams that differ between the supported versions (4.1 to 4.4), chosen at run time
 * by class presence, and this module's list of the Kafka internals it relies on. Not API.
 */
package dev.rtmstreams.processor.spi.internals.compat;
