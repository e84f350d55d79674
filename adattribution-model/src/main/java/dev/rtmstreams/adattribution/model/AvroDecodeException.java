package dev.rtmstreams.adattribution.model;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.kafka.common.errors.SerializationException;

/**
 * A payload could not be decoded into the expected Avro type. Thrown by {@link AvroSerde}'s
 * deserializer, so a Kafka Streams {@code DeserializationExceptionHandler} (or a consumer loop) can
 * route the record to a dead-letter topic with {@link #errorCode()} and {@link #parameters()} in
 * its headers.
 *
 * <p>It extends Kafka's {@link SerializationException} (what Kafka's clients and Kafka Streams
 * expect from a deserializer) and carries the same shape as rtm-streams' {@code RtmException}: a
 * stable error code and named parameters. Match on those, not on the message text.
 */
public final class AvroDecodeException extends SerializationException {

    private static final long serialVersionUID = 1L;

    /** Why decoding failed. */
    public enum Reason {
        /**
         * The payload does not start with the wire format's header: Avro's single-object header (magic
         * {@code C3 01} + 8-byte fingerprint) or Confluent's (magic {@code 00} + 4-byte schema id).
         */
        BAD_HEADER,
        /**
         * The header's schema fingerprint is not known to the serde (no registered writer schema), or the header's
         * schema id is not known to the Schema Registry.
         */
        UNKNOWN_SCHEMA,
        /** The writer schema is known but cannot be resolved to the reader schema (e.g. a removed field without default). */
        INCOMPATIBLE_SCHEMA,
        /** The header is valid but the body is truncated or not valid Avro for the writer schema. */
        MALFORMED_PAYLOAD
    }

    private final Reason reason;
    private final String targetType;
    private final String topic;
    private final String fingerprint;
    private final int payloadSize;
    private final Integer schemaId;

    /**
     * Creates the exception.
     *
     * @param reason why decoding failed; not null
     * @param targetType the fully qualified name of the expected record type; not null
     * @param topic the topic the payload came from, or null when unknown
     * @param fingerprint the writer-schema fingerprint from the header as 16 hex digits, or null
     *     when the header is bad
     * @param payloadSize the payload length in bytes
     * @param cause the underlying Avro error, or null
     */
    public AvroDecodeException(
            Reason reason, String targetType, String topic, String fingerprint, int payloadSize, Throwable cause) {
        super(message(reason, targetType, topic, fingerprint, payloadSize, cause), cause);
        this.reason = Objects.requireNonNull(reason, "reason");
        this.targetType = Objects.requireNonNull(targetType, "targetType");
        this.topic = topic;
        this.fingerprint = fingerprint;
        this.payloadSize = payloadSize;
        this.schemaId = null;
    }

    /**
     * Creates the exception for a payload in Confluent's framing.
     *
     * @param reason why decoding failed; not null
     * @param targetType the fully qualified name of the expected record type; not null
     * @param topic the topic the payload came from, or null when unknown
     * @param schemaId the Schema Registry id of the writer schema from the header
     * @param payloadSize the payload length in bytes
     * @param cause the underlying error, or null
     */
    public AvroDecodeException(
            Reason reason, String targetType, String topic, int schemaId, int payloadSize, Throwable cause) {
        super(message(reason, targetType, topic, "id " + schemaId, payloadSize, cause), cause);
        this.reason = Objects.requireNonNull(reason, "reason");
        this.targetType = Objects.requireNonNull(targetType, "targetType");
        this.topic = topic;
        this.fingerprint = null;
        this.payloadSize = payloadSize;
        this.schemaId = schemaId;
    }

    private static String message(
            Reason reason, String targetType, String topic, String fingerprint, int size, Throwable cause) {
        return "[" + errorCode(reason) + "] cannot decode " + size + " bytes"
                + (topic == null ? "" : " from topic " + topic)
                + " as " + targetType
                + (fingerprint == null
                        ? ""
                        : fingerprint.startsWith("id ")
                                ? " (writer schema " + fingerprint + ")"
                                : " (writer schema fingerprint " + fingerprint + ")")
                + (cause == null ? "" : ": " + cause.getMessage());
    }

    private static String errorCode(Reason reason) {
        return "AVRO_DECODE_" + reason.name();
    }

    /**
     * Returns why decoding failed.
     *
     * @return the reason; never null
     */
    public Reason reason() {
        return reason;
    }

    /**
     * Returns the stable error code, {@code AVRO_DECODE_<REASON>}, e.g. {@code AVRO_DECODE_BAD_HEADER}.
     *
     * @return the error code; never null
     */
    public String errorCode() {
        return errorCode(reason);
    }

    /**
     * Returns the named parameters: {@code targetType}, {@code payloadSize}, and when known
     * {@code topic} and {@code fingerprint} (single-object) or {@code schemaId} (Confluent).
     *
     * @return an unmodifiable map in that order; never null
     */
    public Map<String, String> parameters() {
        Map<String, String> params = new LinkedHashMap<>();
        params.put("targetType", targetType);
        params.put("payloadSize", Integer.toString(payloadSize));
        if (topic != null) {
            params.put("topic", topic);
        }
        if (fingerprint != null) {
            params.put("fingerprint", fingerprint);
        }
        if (schemaId != null) {
            params.put("schemaId", Integer.toString(schemaId));
        }
        return Collections.unmodifiableMap(params);
    }

    /**
     * Returns the fully qualified name of the expected record type.
     *
     * @return the type name; never null
     */
    public String targetType() {
        return targetType;
    }

    /**
     * Returns the topic the payload came from.
     *
     * @return the topic, or empty when decoding happened outside a Kafka deserializer call
     */
    public Optional<String> topic() {
        return Optional.ofNullable(topic);
    }

    /**
     * Returns the writer-schema fingerprint read from the header, as 16 lower-case hex digits.
     *
     * @return the fingerprint, or empty when the header was bad
     */
    public Optional<String> fingerprint() {
        return Optional.ofNullable(fingerprint);
    }

    /**
     * Returns the Schema Registry id read from a Confluent header.
     *
     * @return the id, or empty for single-object payloads and bad headers
     */
    public Optional<Integer> schemaId() {
        return Optional.ofNullable(schemaId);
    }

    /**
     * Returns the payload length.
     *
     * @return the number of bytes that could not be decoded
     */
    public int payloadSize() {
        return payloadSize;
    }
}
