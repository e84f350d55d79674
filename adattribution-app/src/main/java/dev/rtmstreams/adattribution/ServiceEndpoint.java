package dev.rtmstreams.adattribution;

import dev.rtmstreams.adattribution.ops.HttpEndpoint;
import dev.rtmstreams.adattribution.ops.JvmHeap;
import dev.rtmstreams.adattribution.ops.StateLookup;
import dev.rtmstreams.adattribution.pipeline.AdAttributionTopology;
import dev.rtmstreams.adattribution.pipeline.DeadLetterCounter;
import dev.rtmstreams.adattribution.pipeline.ReadableOperators;
import dev.rtmstreams.join.JoinStateReader;
import dev.rtmstreams.processor.StateReader;
import dev.rtmstreams.processor.TransformWithState;
import dev.rtmstreams.topology.PrometheusEndpoint;
import dev.rtmstreams.topology.RtmStreams;
import io.prometheus.metrics.config.PrometheusProperties;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * The service's HTTP operations endpoint wired to a running service: {@code /health} from its state, {@code
 * /metrics} from rtm-topology's collector plus the service's own metrics, and {@code /state/{operator}/{key}} from
 * the interactive state queries of its operators.
 */
final class ServiceEndpoint {

    private final AppConfig config;
    private final RtmStreams streams;
    private final Supplier<String> state;
    private final LongSupplier lateRecords;
    private final DeadLetterCounter deadLetters;
    private final ServiceProgress progress;
    private final Map<String, ReadableOperators.ReadableJoin> joins;

    private ServiceEndpoint(
            AppConfig config,
            RtmStreams streams,
            Supplier<String> state,
            LongSupplier lateRecords,
            DeadLetterCounter deadLetters,
            ServiceProgress progress) {
        this.config = config;
        this.streams = streams;
        this.state = state;
        this.lateRecords = lateRecords;
        this.deadLetters = deadLetters;
        this.progress = progress;
        this.joins = ReadableOperators.joins(config);
    }

    /**
     * Starts the endpoint on the configured address and port.
     *
     * @param config the service's configuration (address, port, input topics)
     * @param streams the service's started streams
     * @param state the service's state name ({@link AdAttributionService#state()})
     * @param lateRecords late join inputs so far ({@link AdAttributionService#lateRecords()})
     * @param deadLetters the service's dead-letter counts
     * @param progress the service's epochs and assignment
     * @return the started endpoint
     * @throws IOException when the address cannot be bound
     */
    static HttpEndpoint start(
            AppConfig config,
            RtmStreams streams,
            Supplier<String> state,
            LongSupplier lateRecords,
            DeadLetterCounter deadLetters,
            ServiceProgress progress)
            throws IOException {
        ServiceEndpoint wiring = new ServiceEndpoint(config, streams, state, lateRecords, deadLetters, progress);
        return HttpEndpoint.start(
                new InetSocketAddress(config.httpBindAddress(), config.httpPort()),
                state,
                wiring.metricsRegistry(),
                wiring::readState);
    }

    /**
     * {@code GET /state/{operator}/{key}}: the key's state in a transformWithState operator of this instance, through
     * the interactive query {@code OperatorStateQuery}, or the key's rows per side and the watermarks of the click
     * attribution join, through range queries on the task that owns the key ({@code JoinStateReader}).
     */
    private StateLookup.Response readState(String operator, String key) {
        byte[] k = key.getBytes(StandardCharsets.UTF_8);
        ReadableOperators.ReadableJoin join = joins.get(operator);
        if (join != null) {
            return join.decoders()
                    .apply(JoinStateReader.query(streams.kafkaStreams(), join.join(), k))
                    .read(k)
                    .map(s -> new StateLookup.Response(200, JoinStateReader.toJson(s) + "\n"))
                    .orElseGet(() -> noState(operator, key));
        }
        UnaryOperator<StateReader> decoders = ReadableOperators.all().get(operator);
        if (decoders == null) {
            return new StateLookup.Response(
                    404, "unknown operator " + operator + "; readable: " + ReadableOperators.names() + "\n");
        }
        StateReader reader =
                decoders.apply(StateReader.query(streams.kafkaStreams(), TransformWithState.storeNameOf(operator), k));
        return reader.read(k)
                .map(s -> new StateLookup.Response(200, StateReader.toJson(s) + "\n"))
                .orElseGet(() -> noState(operator, key));
    }

    private static StateLookup.Response noState(String operator, String key) {
        return new StateLookup.Response(404, "no state for key " + key + " in " + operator + " on this instance\n");
    }

    /**
     * The metrics of {@code /metrics}: rtm-topology's collector (Kafka Streams metrics, latency summaries) plus the
     * service's own (state, DLQ, late records, epochs, slot utilization), each read on every scrape.
     */
    private PrometheusRegistry metricsRegistry() {
        PrometheusRegistry registry = new PrometheusRegistry();
        PrometheusProperties props = PrometheusProperties.builder().build();
        registry.register(PrometheusEndpoint.collector(streams));
        GaugeWithCallback.builder(props)
                .name("adattribution_up")
                .help("1 while Kafka Streams is RUNNING or REBALANCING.")
                .labelNames("state")
                .callback(cb -> {
                    String state = this.state.get();
                    cb.call(HttpEndpoint.HEALTHY_STATES.contains(state) ? 1 : 0, state);
                })
                .register(registry);
        GaugeWithCallback.builder(props)
                .name("adattribution_jvm_heap_after_gc_bytes")
                .help("Java heap in use right after the last garbage collection (the live set), summed over pools.")
                .callback(cb -> cb.call(JvmHeap.afterLastGcBytes()))
                .register(registry);
        GaugeWithCallback.builder(props)
                .name("adattribution_jvm_heap_used_bytes")
                .help("Java heap in use now (live and not yet collected objects).")
                .callback(cb -> cb.call(JvmHeap.usedBytes()))
                .register(registry);
        GaugeWithCallback.builder(props)
                .name("adattribution_jvm_heap_committed_bytes")
                .help("Java heap the JVM holds from the operating system (part of the RSS).")
                .callback(cb -> cb.call(JvmHeap.committedBytes()))
                .register(registry);
        CounterWithCallback.builder(props)
                .name("adattribution_dlq_records_total")
                .help("Input records sent to the dead-letter topic.")
                .labelNames("source_topic")
                .callback(cb -> {
                    Map<String, Long> dlq = deadLetters.snapshot();
                    for (String topic : config.topics().inputs()) {
                        cb.call(dlq.getOrDefault(topic, 0L), topic);
                    }
                })
                .register(registry);
        CounterWithCallback.builder(props)
                .name("adattribution_late_records_total")
                .help("Click attribution inputs behind the join's watermark: counted, not joined.")
                .labelNames("join")
                .callback(cb -> cb.call(lateRecords.getAsLong(), AdAttributionTopology.JOIN_NAME))
                .register(registry);
        CounterWithCallback.builder(props)
                .name("adattribution_epochs_total")
                .help("Checkpoint epochs closed by this instance.")
                .callback(cb -> cb.call(progress.epochs()))
                .register(registry);
        GaugeWithCallback.builder(props)
                .name("adattribution_epoch_id")
                .help("Id of the latest checkpoint epoch per stream thread.")
                .labelNames("thread")
                .callback(cb -> progress.latestPerThread().forEach((thread, p) -> cb.call(p.epochId(), thread)))
                .register(registry);
        GaugeWithCallback.builder(props)
                .name("adattribution_epoch_input_rows")
                .help("Input rows of the latest epoch per stream thread.")
                .labelNames("thread")
                .callback(cb -> progress.latestPerThread().forEach((thread, p) -> cb.call(p.numInputRows(), thread)))
                .register(registry);
        GaugeWithCallback.builder(props)
                .name("adattribution_epoch_watermark_ms")
                .help("Lowest operator watermark of the latest epoch.")
                .labelNames("thread")
                .callback(cb -> progress.latestPerThread().forEach((thread, p) -> {
                    if (p.watermarkMs() != null) {
                        cb.call(p.watermarkMs(), thread);
                    }
                }))
                .register(registry);
        GaugeWithCallback.builder(props)
                .name("adattribution_slot_busy_fraction")
                .help("Share of time each slot (stream thread) is busy.")
                .labelNames("thread")
                .callback(cb -> progress.slots(s -> cb.call(s.busyFraction(), s.threadName())))
                .register(registry);
        GaugeWithCallback.builder(props)
                .name("adattribution_slot_active_tasks")
                .help("Active tasks per slot (stream thread).")
                .labelNames("thread")
                .callback(cb -> progress.slots(s -> cb.call(s.activeTasks().size(), s.threadName())))
                .register(registry);
        GaugeWithCallback.builder(props)
                .name("adattribution_slot_violations")
                .help("Slot rule violations in the latest assignment.")
                .callback(cb -> {
                    progress.latestAssignment()
                            .ifPresent(a -> cb.call(a.violations().size()));
                })
                .register(registry);
        return registry;
    }
}
