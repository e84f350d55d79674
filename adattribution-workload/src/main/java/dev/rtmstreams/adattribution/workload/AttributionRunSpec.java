package dev.rtmstreams.adattribution.workload;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The ad-attribution workload as a {@link RunSpec} ({@link LoadRun#attribution}): events on their kind's input topic
 * in Avro, outputs checked by the {@link Oracle} for {@link LoadRun.Settings#outputs()}, outputs whose identity lacks
 * {@link LoadRun.Settings#idPrefix()} foreign.
 */
final class AttributionRunSpec implements RunSpec {

    private final List<Event> events;
    private final LoadRun.Settings settings;
    private final Oracle.Result oracle;
    private final AvroCodec codec;
    private final List<String> outputTopics;

    /**
     * @param events the events in send order (seq = index)
     * @param settings the settings (topics, outputs, wire format, id prefix)
     * @param oracle the oracle's result for these events ({@link LoadRun#expected})
     */
    AttributionRunSpec(List<Event> events, LoadRun.Settings settings, Oracle.Result oracle) {
        this.events = events;
        this.settings = settings;
        this.oracle = oracle;
        this.codec = new AvroCodec(settings.wire(), settings.topics());
        this.outputTopics = settings.outputs() == LoadRun.Outputs.ECHO
                ? List.of(settings.topics().echo())
                : settings.outputs() == LoadRun.Outputs.ATTRIBUTION
                        ? List.of(settings.topics().attributedClicks())
                        : List.of(
                                settings.topics().attributedClicks(),
                                settings.topics().logRecords());
    }

    @Override
    public int size() {
        return events.size();
    }

    @Override
    public long offsetMicros(int i) {
        return events.get(i).offsetMicros();
    }

    @Override
    public ProducerRecord<byte[], byte[]> record(int i) {
        Event e = events.get(i);
        return new ProducerRecord<>(
                settings.topics().inputTopic(e.kind()), null, e.eventTime(), codec.key(e), codec.value(e));
    }

    @Override
    public List<String> outputTopics() {
        return outputTopics;
    }

    @Override
    public Observed decode(ConsumerRecord<byte[], byte[]> r, long received) {
        Observed o;
        if (r.topic().equals(settings.topics().echo()) && settings.outputs() == LoadRun.Outputs.ECHO) {
            o = codec.echo(r.key(), r.value(), received);
        } else if (r.topic().equals(settings.topics().logRecords())) {
            o = codec.logRecord(r.key(), r.value(), received);
        } else {
            o = codec.attributedClick(r.key(), r.value(), received);
        }
        return o.identity().startsWith(settings.idPrefix()) ? o : null;
    }

    @Override
    public Matcher matcher() {
        return new OutputMatcher(oracle.expected());
    }

    @Override
    public Map<String, Long> oracleCounters() {
        Map<String, Long> m = new LinkedHashMap<>();
        m.put("late_inputs_dropped_by_oracle", oracle.lateDropped());
        m.put("duplicate_inputs_dropped_by_oracle", oracle.duplicatesDropped());
        return m;
    }
}
