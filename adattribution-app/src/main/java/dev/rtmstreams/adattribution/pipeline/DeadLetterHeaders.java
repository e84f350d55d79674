package dev.rtmstreams.adattribution.pipeline;

/**
 * Header names of records in the dead-letter topic. Values are UTF-8 strings. The record keeps
 * the original key and value bytes and the original headers.
 */
public final class DeadLetterHeaders {
    /** Fully qualified class name of the error, e.g. {@code org.apache.avro.message.BadHeaderException}. */
    public static final String ERROR_CLASS = "rtm.dlq.error.class";
    /** Stable error code when the error has one, e.g. {@code AVRO_DECODE_BAD_HEADER}, {@code ADATTRIBUTION_MISSING_KEY}. */
    public static final String ERROR_CODE = "rtm.dlq.error.code";
    /** The error message. */
    public static final String ERROR_MESSAGE = "rtm.dlq.error.message";
    /** Topic the record was read from. */
    public static final String SOURCE_TOPIC = "rtm.dlq.source.topic";
    /** Partition the record was read from. */
    public static final String SOURCE_PARTITION = "rtm.dlq.source.partition";
    /** Offset the record was read from. */
    public static final String SOURCE_OFFSET = "rtm.dlq.source.offset";
    /** Kafka timestamp of the source record (ms). */
    public static final String SOURCE_TIMESTAMP = "rtm.dlq.source.timestamp";

    private DeadLetterHeaders() {}
}
