/**
 * The named errors of the state API, after Spark's {@code StateStoreErrors}: each a subclass of
 * {@link dev.rtmstreams.processor.RtmException} with a stable {@code CODE} (Spark's error class) and parameters, so
 * callers can catch a type or match on {@link dev.rtmstreams.processor.RtmException#errorCode()} and
 * {@link dev.rtmstreams.processor.RtmException#parameters()}.
 */
package dev.rtmstreams.processor.errors;
