package dev.rtmstreams.examples.spring;

import dev.rtmstreams.processor.TimeMode;
import dev.rtmstreams.processor.TransformWithState;
import dev.rtmstreams.topology.Trigger;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.annotation.EnableKafkaStreams;
import org.springframework.kafka.annotation.KafkaStreamsDefaultConfiguration;
import org.springframework.kafka.config.KafkaStreamsConfiguration;
import org.springframework.kafka.config.StreamsBuilderFactoryBeanConfigurer;

/**
 * A Spring application whose Kafka Streams topology (a click count per key with {@code TransformWithState}) runs in
 * real-time mode: the usual {@code @EnableKafkaStreams} configuration plus one {@link StreamsBuilderFactoryBeanConfigurer}
 * bean that installs {@link RealTimeStreamsCustomizer}. Properties (Spring environment): {@code bootstrap.servers}
 * (required), {@code rtm.example.application-id} (default {@code spring-click-counts}), {@code
 * rtm.example.checkpoint-interval} (an ISO-8601 duration, default {@code PT5M}), {@code rtm.example.input} (default
 * {@code clicks}), {@code rtm.example.output} (default {@code click-counts}).
 */
@Configuration
@EnableKafkaStreams
public class SpringRealTimeApplication {

    /** Kafka Streams properties, under the bean name {@code @EnableKafkaStreams} looks for. */
    @Bean(name = KafkaStreamsDefaultConfiguration.DEFAULT_STREAMS_CONFIG_BEAN_NAME)
    KafkaStreamsConfiguration kafkaStreamsConfiguration(
            @Value("${bootstrap.servers}") String bootstrapServers,
            @Value("${rtm.example.application-id:spring-click-counts}") String applicationId,
            @Value("${rtm.example.state-dir:#{null}}") String stateDir) {
        Map<String, Object> props = new java.util.HashMap<>();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 2);
        if (stateDir != null) {
            props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir);
        }
        return new KafkaStreamsConfiguration(props);
    }

    /** The one rtm-streams line: Spring creates the Kafka Streams instance through RtmStreams, in real-time mode. */
    @Bean
    RealTimeStreamsCustomizer realTimeStreamsCustomizer(
            @Value("${rtm.example.checkpoint-interval:PT5M}") String checkpointInterval) {
        Duration interval;
        try {
            interval = Duration.parse(checkpointInterval);
        } catch (java.time.format.DateTimeParseException e) {
            throw new IllegalArgumentException(
                    "rtm.example.checkpoint-interval must be an ISO-8601 duration such as PT5M: " + checkpointInterval,
                    e);
        }
        return new RealTimeStreamsCustomizer(rtm -> rtm.trigger(Trigger.realTime(interval)));
    }

    @Bean
    StreamsBuilderFactoryBeanConfigurer realTimeMode(RealTimeStreamsCustomizer customizer) {
        return factoryBean -> {
            factoryBean.setKafkaStreamsCustomizer(customizer);
            factoryBean.setLeaveGroupOnClose(true); // what RtmStreams#close does for a dynamic member in real time
        };
    }

    /** The topology, declared the Spring way. */
    @Bean
    KStream<String, Long> clickCounts(
            StreamsBuilder builder,
            @Value("${rtm.example.input:clicks}") String input,
            @Value("${rtm.example.output:click-counts}") String output) {
        KStream<String, Long> counts = builder.stream(input, Consumed.with(Serdes.String(), Serdes.String()))
                .process(
                        TransformWithState.<String, String, Long>builder(
                                        ClickCountProcessor::new, TimeMode.PROCESSING_TIME)
                                .keySerde(Serdes.String())
                                .valueSerde(Serdes.String())
                                .build(),
                        Named.as("click-count"));
        counts.to(output, Produced.with(Serdes.String(), Serdes.Long()));
        return counts;
    }

    /**
     * Runs the application until the JVM stops.
     *
     * @param args {@code <bootstrap-servers>}, or {@code --help}
     */
    public static void main(String[] args) {
        if (args.length != 1 || args[0].equals("--help") || args[0].equals("-h")) {
            System.out.println("usage: SpringRealTimeApplication <bootstrap-servers>\n"
                    + "Counts the clicks per key of topic 'clicks' into 'click-counts' in real-time mode, run by"
                    + " Spring for Apache Kafka. Other settings as system properties: rtm.example.application-id,"
                    + " rtm.example.checkpoint-interval (ISO-8601), rtm.example.input, rtm.example.output.");
            System.exit(args.length == 1 ? 0 : 2);
        }
        System.setProperty("bootstrap.servers", args[0]);
        AnnotationConfigApplicationContext context =
                new AnnotationConfigApplicationContext(SpringRealTimeApplication.class);
        Runtime.getRuntime().addShutdownHook(new Thread(context::close, "spring-shutdown"));
    }
}
