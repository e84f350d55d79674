package dev.rtmstreams.examples.spring;

import dev.rtmstreams.topology.RtmStreams;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.function.UnaryOperator;
import org.apache.kafka.streams.KafkaClientSupplier;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.Topology;
import org.springframework.kafka.config.KafkaStreamsCustomizer;

/**
 * Runs a Spring for Apache Kafka topology under an rtm-streams trigger. Spring's {@code StreamsBuilderFactoryBean}
 * asks its {@link KafkaStreamsCustomizer} to create the {@link KafkaStreams} ({@link #initKafkaStreams}); this one
 * builds it with {@link RtmStreams}, passing on Spring's topology, properties and client supplier, and hands Spring
 * the instance. Spring keeps the lifecycle (its state listener, exception handler, {@code start}, {@code stop}); the
 * instance runs the slot check when Spring starts it and delivers its last epoch reports when Spring stops it.
 * <pre>{@code
 * @Bean
 * StreamsBuilderFactoryBeanConfigurer realTime() {
 *     return factoryBean -> factoryBean.setKafkaStreamsCustomizer(new RealTimeStreamsCustomizer(
 *             rtm -> rtm.trigger(Trigger.realTime(Duration.ofMinutes(5)))));
 * }
 * }</pre>
 */
public final class RealTimeStreamsCustomizer implements KafkaStreamsCustomizer {

    private final UnaryOperator<RtmStreams.Builder> options;
    private volatile RtmStreams rtmStreams;

    /**
     * @param options sets the {@link RtmStreams} options (trigger, exactly-once, listeners...) on a builder that already
     *     holds Spring's topology, properties and client supplier; returns the builder
     * @throws NullPointerException when options is null
     */
    public RealTimeStreamsCustomizer(UnaryOperator<RtmStreams.Builder> options) {
        this.options = Objects.requireNonNull(options, "options");
    }

    @Override
    public KafkaStreams initKafkaStreams(Topology topology, Properties properties, KafkaClientSupplier clientSupplier) {
        RtmStreams rtm = options.apply(RtmStreams.builder(topology, properties).clientSupplier(clientSupplier))
                .build();
        this.rtmStreams = rtm;
        return rtm.kafkaStreams();
    }

    @Override
    public void customize(KafkaStreams kafkaStreams) {
        // nothing: RtmStreams configured the instance when it created it
    }

    /**
     * @return the application Spring started last (its progress reports, metrics and sizing report), empty before
     *     Spring has created the Kafka Streams instance
     */
    public Optional<RtmStreams> rtmStreams() {
        return Optional.ofNullable(rtmStreams);
    }
}
