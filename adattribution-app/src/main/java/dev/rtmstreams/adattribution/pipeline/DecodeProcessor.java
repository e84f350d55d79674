package dev.rtmstreams.adattribution.pipeline;

import dev.rtmstreams.adattribution.model.AvroDecodeException;
import dev.rtmstreams.adattribution.model.SchemaRegistryException;
import dev.rtmstreams.processor.RtmException;
import dev.rtmstreams.processor.RtmProcessorConfig;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.streams.processor.api.ContextualFixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decodes the raw value bytes of one input topic. A record that does not decode (bad bytes or header,
 * unknown schema fingerprint or registry schema id, wrong schema), has no key or no value, or whose key is not the
 * value's id, keeps its raw bytes and gets the error and its source topic/partition/offset as
 * {@link DeadLetterHeaders}; it is forwarded to the dead-letter child node only. A decoded record
 * is forwarded to the value child node only. Routing by child name (instead of a wrapper type and
 * a {@code split()}) saves two processor nodes per input record on the hot path. Nothing is
 * thrown for a bad record, so one never stops the service (only a Schema Registry that cannot be reached is
 * thrown: that is not the record's fault).
 *
 * @param <T> the decoded type
 * @param <O> the type passed downstream to the value child
 */
final class DecodeProcessor<T, O> extends ContextualFixedKeyProcessor<String, byte[], Object> {

    private static final Logger LOG = LoggerFactory.getLogger(DecodeProcessor.class);

    /** Decodes bytes; may throw anything. */
    @FunctionalInterface
    interface Decoder<T> {
        T decode(byte[] bytes) throws Exception;
    }

    /** Builds the downstream value from the decoded value, the bytes it was decoded from and the record timestamp. */
    @FunctionalInterface
    interface Wrapper<T, O> {
        O wrap(T value, byte[] bytes, long recordTimestamp);
    }

    /** The event time of a decoded value (the watermark guard checks it). */
    @FunctionalInterface
    interface EventTime<T> {
        long of(T value, long recordTimestamp);
    }

    private final Decoder<T> decoder;
    private final java.util.function.Function<T, String> idOf;
    private final String idField;
    private final Wrapper<T, O> wrapper;
    private final EventTime<T> eventTime;
    private final DeadLetterCounter counter;
    private final String valueChild;
    private final String deadLetterChild;
    private long maxSkewMs;

    DecodeProcessor(
            Decoder<T> decoder,
            java.util.function.Function<T, String> idOf,
            String idField,
            Wrapper<T, O> wrapper,
            EventTime<T> eventTime,
            DeadLetterCounter counter,
            String valueChild,
            String deadLetterChild) {
        this.decoder = decoder;
        this.idOf = idOf;
        this.idField = idField;
        this.wrapper = wrapper;
        this.eventTime = eventTime;
        this.counter = counter;
        this.valueChild = valueChild;
        this.deadLetterChild = deadLetterChild;
    }

    @Override
    public void init(org.apache.kafka.streams.processor.api.FixedKeyProcessorContext<String, Object> context) {
        super.init(context);
        maxSkewMs = RtmProcessorConfig.maxEventTimeSkewMs(context.appConfigs());
    }

    @Override
    public void process(FixedKeyRecord<String, byte[]> record) {
        Exception error = null;
        T value = null;
        if (record.key() == null) {
            error = new BadInputException(BadInputException.MISSING_KEY, Map.of(), "record has no key");
        } else if (record.value() == null) {
            error = new BadInputException(
                    BadInputException.MISSING_VALUE, Map.of("key", record.key()), "record has no value");
        } else {
            try {
                value = decoder.decode(record.value());
                String id = idOf.apply(value);
                if (!record.key().equals(id)) {
                    error = new BadInputException(
                            BadInputException.KEY_MISMATCH,
                            Map.of("key", record.key(), idField, String.valueOf(id)),
                            "key '" + record.key() + "' differs from " + idField + " '" + id + "'");
                } else {
                    long t = eventTime.of(value, record.timestamp());
                    long now = context().currentSystemTimeMs();
                    if (RtmProcessorConfig.tooFarAhead(t, now, maxSkewMs)) {
                        error = new BadInputException(
                                BadInputException.EVENT_TIME_TOO_FAR_AHEAD,
                                Map.of(
                                        "eventTime", Long.toString(t),
                                        "wallClock", Long.toString(now),
                                        "maxSkewMs", Long.toString(maxSkewMs)),
                                "event time " + java.time.Instant.ofEpochMilli(t) + " is more than " + maxSkewMs
                                        + " ms ahead of the wall clock " + java.time.Instant.ofEpochMilli(now)
                                        + " (" + RtmProcessorConfig.MAX_EVENT_TIME_SKEW_MS_CONFIG + ")");
                    }
                }
            } catch (SchemaRegistryException e) {
                // The registry could not be reached or failed: nothing is wrong with the record, so it is not
                // dead-lettered; the stream thread fails (the service stops, as on any other infrastructure error).
                // An id the registry does not know is an AvroDecodeException (UNKNOWN_SCHEMA) and is dead-lettered.
                throw e;
            } catch (Exception e) {
                error = e;
            }
        }
        if (error == null) {
            context().forward(record.withValue(wrapper.wrap(value, record.value(), record.timestamp())), valueChild);
            return;
        }
        RecordMetadata meta = context().recordMetadata().orElse(null);
        String topic = meta == null ? "unknown" : meta.topic();
        Headers headers = record.headers();
        put(headers, DeadLetterHeaders.ERROR_CLASS, error.getClass().getName());
        put(headers, DeadLetterHeaders.ERROR_MESSAGE, String.valueOf(error.getMessage()));
        String code = errorCode(error);
        if (code != null) {
            put(headers, DeadLetterHeaders.ERROR_CODE, code);
        }
        put(headers, DeadLetterHeaders.SOURCE_TOPIC, topic);
        put(headers, DeadLetterHeaders.SOURCE_PARTITION, meta == null ? "-1" : Integer.toString(meta.partition()));
        put(headers, DeadLetterHeaders.SOURCE_OFFSET, meta == null ? "-1" : Long.toString(meta.offset()));
        put(headers, DeadLetterHeaders.SOURCE_TIMESTAMP, Long.toString(record.timestamp()));
        counter.increment(topic);
        LOG.warn(
                "event=dead-letter topic={} partition={} offset={} error={}",
                topic,
                meta == null ? -1 : meta.partition(),
                meta == null ? -1 : meta.offset(),
                error.toString());
        context().forward(record.withValue(record.value()), deadLetterChild);
    }

    private static String errorCode(Exception error) {
        if (error instanceof AvroDecodeException e) {
            return e.errorCode();
        }
        if (error instanceof RtmException e) {
            return e.errorCode();
        }
        return null;
    }

    private static void put(Headers headers, String name, String value) {
        headers.remove(name);
        headers.add(name, value.getBytes(StandardCharsets.UTF_8));
    }
}
