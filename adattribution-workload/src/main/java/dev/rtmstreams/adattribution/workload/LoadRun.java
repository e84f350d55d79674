package dev.rtmstreams.adattribution.workload;

import dev.rtmstreams.adattribution.model.AvroWire;
import dev.rtmstreams.tools.LatencyRecorder;
import dev.rtmstreams.tools.Pacer;
import dev.rtmstreams.tools.ProgressBar;
import java.time.Duration;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.LongUnaryOperator;
import org.HdrHistogram.Histogram;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * One measured run against a cluster: computes the expected outputs, starts a consumer on the
 * output topics (positioned at their end), sends the events on schedule, drains, and returns the
 * {@link RunReport} or, from {@link #run}, an {@link Outcome} that also carries the figures per output kind.
 * Used by the load generator's commands and bench, and by the service's demo.
 *
 * <p>Latency of an output = the consumer's receive time (right after {@code poll} returns) minus the
 * time the generator called {@code send} for the input event that completed the match, both on
 * {@link System#nanoTime()} of this JVM.
 *
 * <p>This class computes the expected outputs, paces the sends and drains; {@link AttributionRunSpec} holds the
 * ad-attribution workload's inputs and oracle, the {@link OutputCollector} consumes and matches the outputs, and
 * {@link RunReport} builds the report.
 */
public final class LoadRun {

    /** Which outputs the system under test produces. */
    public enum Outputs {
        /** attributed-clicks and ad-log-records (the service). */
        SERVICE,
        /** attributed-clicks only (the Kafka Streams join peer). */
        ATTRIBUTION,
        /** the echo topic (the pass-through floor). */
        ECHO
    }

    /**
     * How to run.
     *
     * @param bootstrapServers the cluster
     * @param topics topic names
     * @param mode the label in the report
     * @param outputs which outputs to expect
     * @param window attribution window for the oracle
     * @param watermarkDelay watermark delay for the oracle
     * @param speed replay speed factor (1 = the recorded schedule)
     * @param drain how long to keep waiting after the last send while no new output arrives (an idle
     *     timeout: a backlogged system that still emits outputs is waited for, up to 10 minutes or
     *     10 x drain, whichever is longer)
     * @param settle how long to keep listening for duplicates once all expected outputs arrived
     * @param behindTolerance lag behind schedule that counts as not keeping up
     * @param progress whether to draw the progress bar
     * @param clientOverrides extra producer/consumer properties
     * @param idPrefix outputs whose identity does not start with it belong to another run: counted as
     *     foreign and otherwise ignored (empty: every output counts)
     * @param wire how the Avro records are framed ({@link AvroWire#singleObject()} unless the service runs with
     *     a schema registry)
     */
    public record Settings(
            String bootstrapServers,
            TopicNames topics,
            String mode,
            Outputs outputs,
            Duration window,
            Duration watermarkDelay,
            double speed,
            Duration drain,
            Duration settle,
            Duration behindTolerance,
            boolean progress,
            Map<String, Object> clientOverrides,
            String idPrefix,
            AvroWire wire) {
        /** Validates. */
        public Settings {
            Objects.requireNonNull(wire, "wire");
            Objects.requireNonNull(bootstrapServers, "bootstrapServers");
            Objects.requireNonNull(topics, "topics");
            Objects.requireNonNull(mode, "mode");
            Objects.requireNonNull(outputs, "outputs");
            if (!(speed > 0)) {
                throw new IllegalArgumentException("speed must be positive: " + speed);
            }
            clientOverrides = Map.copyOf(clientOverrides);
            Objects.requireNonNull(idPrefix, "idPrefix");
        }
    }

    /**
     * Told where the measured window of a run starts and ends (cost measurement). Both calls come from the thread
     * that called {@link #execute}, each at most once, start before end.
     */
    public interface WindowListener {
        /** Does nothing. */
        WindowListener NONE = new WindowListener() {
            @Override
            public void windowStart() {}

            @Override
            public void windowEnd() {}
        };

        /** The first measured event is about to be sent (the first event, or the first after the warm-up). */
        void windowStart();

        /**
         * Every expected output arrived (checked every 20 ms), or the drain ended without them; the settle time that
         * follows (listening for duplicates) is not part of the window.
         */
        void windowEnd();
    }

    /**
     * What a run found: the report and the figures a caller reads without going through the report's keys.
     *
     * @param report the report, as {@link #execute} returns it
     * @param sent inputs sent
     * @param achievedRate inputs per second achieved
     * @param sendSpan from the first send to the last
     * @param outputs per output kind: the oracle's counts and the latency distribution of the matched outputs
     */
    public record Outcome(
            RunReport report, long sent, double achievedRate, Duration sendSpan, Map<OutputKind, KindOutcome> outputs) {

        /**
         * Returns the figures of one output kind.
         *
         * @param kind an output kind; not null
         * @return its figures; zeros and an empty distribution for a kind the run does not expect
         */
        public KindOutcome of(OutputKind kind) {
            return outputs.get(kind);
        }
    }

    /**
     * The outputs of one kind in a run.
     *
     * @param counts expected, matched and duplicated outputs
     * @param latencyMicros end-to-end latency of the matched outputs in microseconds (send of the input that
     *     completed the match to receipt of the output); do not modify
     */
    public record KindOutcome(Matcher.KindCounts counts, Histogram latencyMicros) {}

    private LoadRun() {}

    /**
     * Computes the expected outputs for a run.
     *
     * @param events the events
     * @param settings the settings (outputs, window, delay)
     * @return the oracle's result
     */
    public static Oracle.Result expected(List<Event> events, Settings settings) {
        Oracle oracle = new Oracle(settings.window(), settings.watermarkDelay());
        switch (settings.outputs()) {
            case SERVICE:
                return oracle.service(events);
            case ATTRIBUTION:
                return oracle.attributionOnly(events);
            default:
                return Oracle.echo(events);
        }
    }

    /**
     * Executes the run.
     *
     * @param events the events in send order (seq = index)
     * @param targetRate the nominal rate in events/s (for the report)
     * @param settings how to run
     * @return the report
     * @throws InterruptedException if interrupted while draining
     */
    public static RunReport execute(List<Event> events, double targetRate, Settings settings)
            throws InterruptedException {
        return execute(events, targetRate, settings, WindowListener.NONE);
    }

    /**
     * Executes the run and tells {@code window} where its measured window starts and ends.
     *
     * @param events the events in send order (seq = index)
     * @param targetRate the nominal rate in events/s (for the report)
     * @param settings how to run
     * @param window told when sending starts and when all outputs arrived or the drain ended
     * @return the report
     * @throws InterruptedException if interrupted while draining
     */
    public static RunReport execute(List<Event> events, double targetRate, Settings settings, WindowListener window)
            throws InterruptedException {
        return execute(attribution(events, settings), targetRate, settings, window);
    }

    /**
     * The ad-attribution workload as a {@link RunSpec}: events on their kind's input topic in Avro, outputs checked by
     * the {@link Oracle} for {@link Settings#outputs()}, outputs whose identity lacks {@link Settings#idPrefix()}
     * foreign.
     *
     * @param events the events in send order (seq = index)
     * @param settings the settings (topics, outputs, window, delay, wire format, id prefix)
     * @return the run's inputs, outputs and oracle
     */
    public static RunSpec attribution(List<Event> events, Settings settings) {
        return new AttributionRunSpec(events, settings, expected(events, settings));
    }

    /**
     * Executes a run of any workload and tells {@code window} where its measured window starts and ends.
     *
     * @param spec the inputs, outputs and oracle
     * @param targetRate the nominal rate in inputs/s (for the report)
     * @param settings how to run (of its fields, only the bootstrap servers, mode, speed, drain, settle, tolerance,
     *     progress and client overrides are used; the rest describe the attribution workload)
     * @param window told when sending starts and when all outputs arrived or the drain ended
     * @return the report
     * @throws InterruptedException if interrupted while draining
     */
    public static RunReport execute(RunSpec spec, double targetRate, Settings settings, WindowListener window)
            throws InterruptedException {
        return run(spec, targetRate, settings, window).report();
    }

    /**
     * Executes a run of any workload, like {@link #execute(RunSpec, double, Settings, WindowListener)}, and
     * returns the report with the figures per output kind.
     *
     * @param spec the inputs, outputs and oracle
     * @param targetRate the nominal rate in inputs/s (for the report)
     * @param settings how to run (see {@link #execute(RunSpec, double, Settings, WindowListener)})
     * @param window told when sending starts and when all outputs arrived or the drain ended
     * @return what the run found
     * @throws InterruptedException if interrupted while draining
     */
    public static Outcome run(RunSpec spec, double targetRate, Settings settings, WindowListener window)
            throws InterruptedException {
        return run(spec, targetRate, settings, window, 0);
    }

    /**
     * Executes a run whose first inputs are a warm-up: inputs {@code 0 .. firstMeasured - 1} are sent first, by the
     * same producer and on the same schedule, and the measured inputs follow without a pause, so the system under
     * test goes from warm-up to measurement in steady state (as a run with its first minutes left out). Every output
     * is checked by the oracle (warm-up included: {@code expected}, {@code missing} and the other counts cover the
     * whole run), but latency (overall, per second, per kind), {@code events_sent}, the achieved rate, the send lag and
     * {@code window} cover only the measured inputs; the report adds {@code warmup_events_sent},
     * {@code warmup_kept_up} and {@code warmup_max_send_lag_ms} when there is a warm-up.
     *
     * @param spec the inputs, outputs and oracle
     * @param targetRate the nominal rate in inputs/s (for the report)
     * @param settings how to run (see {@link #execute(RunSpec, double, Settings, WindowListener)})
     * @param window told when the first measured input is sent and when all outputs arrived or the drain ended
     * @param firstMeasured index of the first measured input; 0 = no warm-up; below {@code spec.size()} unless the
     *     spec is empty
     * @return what the run found
     * @throws IllegalArgumentException if {@code firstMeasured} is out of range
     * @throws InterruptedException if interrupted while draining
     */
    public static Outcome run(
            RunSpec spec, double targetRate, Settings settings, WindowListener window, int firstMeasured)
            throws InterruptedException {
        if (firstMeasured < 0 || (firstMeasured > 0 && firstMeasured >= spec.size())) {
            throw new IllegalArgumentException("firstMeasured must be in [0, " + spec.size() + "): " + firstMeasured);
        }
        Matcher matcher = spec.matcher();
        AtomicLongArray sendNanos = new AtomicLongArray(spec.size());
        AtomicLong sent = new AtomicLong();
        AtomicLong sendErrors = new AtomicLong();
        AtomicReference<Exception> firstSendError = new AtomicReference<>();

        // input i is due this long after the first input (its offset at the run's speed)
        double speed = settings.speed();
        LongUnaryOperator dueNanos = i -> (long) (spec.offsetMicros((int) i) * 1000.0 / speed);
        long startNanos = System.nanoTime() + 200_000_000L;
        long measuredDueNanos = firstMeasured == 0 ? 0 : dueNanos.applyAsLong(firstMeasured);
        long windowStartNanos = startNanos + measuredDueNanos;
        LatencyRecorder recorder = new LatencyRecorder(windowStartNanos);
        OutputCollector outputs = new OutputCollector(spec, settings, matcher, sendNanos, firstMeasured, recorder);
        outputs.start();

        String[] phase = {"sending"};
        long total = spec.size();
        ProgressBar bar = new ProgressBar(
                System.err,
                () -> new ProgressBar.State(
                        phase[0] + " " + settings.mode(),
                        sent.get(),
                        total,
                        Math.max(0, (System.nanoTime() - startNanos) / 1e9),
                        matcher.observed(),
                        matcher.expected(),
                        recorder.lastSecondP99Millis()),
                settings.progress());
        Pacer.Result warm = null;
        Pacer.Result paced;
        long sendEndNanos;
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(producerConfig(settings))) {
            while (System.nanoTime() < startNanos) {
                Thread.sleep(1);
            }
            Pacer pacer = new Pacer(Pacer.Ticker.SYSTEM, settings.behindTolerance(), Duration.ofMillis(1));
            Pacer.Sink sink = (i, now) -> {
                sendNanos.set((int) i, System.nanoTime());
                producer.send(spec.record((int) i), (md, ex) -> {
                    if (ex != null) {
                        sendErrors.incrementAndGet();
                        firstSendError.compareAndSet(null, ex);
                    }
                });
                sent.incrementAndGet();
            };
            BooleanSupplier interrupted = () -> Thread.currentThread().isInterrupted();
            if (firstMeasured > 0) {
                warm = pacer.run(firstMeasured, dueNanos, sink, interrupted);
            }
            // the measured inputs continue the warm-up's schedule from where it ended
            window.windowStart();
            paced = pacer.run(
                    total - firstMeasured,
                    j -> dueNanos.applyAsLong(firstMeasured + j) - measuredDueNanos,
                    (j, now) -> sink.send(firstMeasured + j, now),
                    interrupted);
            producer.flush();
            sendEndNanos = System.nanoTime();
        }
        phase[0] = "draining";
        long hardDeadline = sendEndNanos
                + Math.max(
                        Duration.ofMinutes(10).toNanos(), 10 * settings.drain().toNanos());
        long allSeenAt = 0;
        while (System.nanoTime() < hardDeadline) {
            long idleSince = Math.max(sendEndNanos, outputs.lastOutputNanos());
            if (matcher.missing() != 0
                    && System.nanoTime() - idleSince > settings.drain().toNanos()) {
                break;
            }
            if (matcher.missing() == 0) {
                if (allSeenAt == 0) {
                    allSeenAt = System.nanoTime();
                    window.windowEnd();
                }
                if (System.nanoTime() - allSeenAt >= settings.settle().toNanos()) {
                    break;
                }
            }
            Thread.sleep(20);
        }
        if (allSeenAt == 0) {
            window.windowEnd();
        }
        outputs.stop();
        bar.close();

        double spanSeconds =
                Math.max(paced.elapsedNanos(), total == 0 ? 0 : dueNanos.applyAsLong(total - 1) - measuredDueNanos)
                        / 1e9;
        double achieved = spanSeconds > 0 ? paced.sent() / Math.max(spanSeconds, (paced.sent() - 1) / targetRate) : 0;
        RunReport.SendLog sending =
                new RunReport.SendLog(warm, paced, sendErrors.get(), firstSendError.get(), sendNanos, sendEndNanos);
        RunReport report = RunReport.build(
                settings,
                targetRate,
                achieved,
                sending,
                matcher,
                outputs,
                spec.oracleCounters(),
                recorder,
                firstMeasured,
                windowStartNanos);
        Map<OutputKind, KindOutcome> byKind = new EnumMap<>(OutputKind.class);
        outputs.latencyByKind().forEach((kind, h) -> byKind.put(kind, new KindOutcome(matcher.counts(kind), h)));
        return new Outcome(report, paced.sent(), achieved, Duration.ofNanos(paced.elapsedNanos()), Map.copyOf(byKind));
    }

    /**
     * The producer settings of the generator: acks=1, linger 1 ms, 64 KiB batches, no idempotence
     * (latency-oriented; overridable).
     *
     * @param settings the run settings
     * @return the producer config
     */
    static Map<String, Object> producerConfig(Settings settings) {
        Map<String, Object> p = latencyProducerConfig(settings.bootstrapServers());
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "loadgen-producer");
        settings.clientOverrides().forEach((k, v) -> {
            if (ProducerConfig.configNames().contains(k)) {
                p.put(k, v);
            }
        });
        return p;
    }

    /**
     * The latency-oriented settings of a producer of raw bytes, as the generator sends: acks=1, linger 1 ms, 64 KiB
     * batches, no idempotence.
     *
     * @param bootstrapServers the cluster
     * @return a new mutable producer config
     */
    public static Map<String, Object> latencyProducerConfig(String bootstrapServers) {
        Map<String, Object> p = new HashMap<>();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        p.put(ProducerConfig.ACKS_CONFIG, "1");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false);
        p.put(ProducerConfig.LINGER_MS_CONFIG, 1);
        p.put(ProducerConfig.BATCH_SIZE_CONFIG, 65536);
        return p;
    }
}
