package dev.rtmstreams.adattribution.pipeline;

import dev.rtmstreams.adattribution.AppConfig;
import dev.rtmstreams.adattribution.avro.AttributedClick;
import dev.rtmstreams.adattribution.avro.LogRecord;
import dev.rtmstreams.adattribution.model.ServiceTopics;
import dev.rtmstreams.processor.RtmProcessorConfig;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Properties;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;

/** A TopologyTestDriver over the service topology, with typed input and output topics. */
final class DriverFixture implements AutoCloseable {
    static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

    final AppConfig config;
    final DeadLetterCounter deadLetters = new DeadLetterCounter();
    final TopologyTestDriver driver;
    final TestInputTopic<String, byte[]> impressions;
    final TestInputTopic<String, byte[]> clicks;
    final TestInputTopic<String, byte[]> requests;
    final TestInputTopic<String, byte[]> acks;
    final TestOutputTopic<String, AttributedClick> attributed;
    final TestOutputTopic<String, LogRecord> logRecords;
    final TestOutputTopic<String, byte[]> dlq;

    DriverFixture(AppConfig config, String executionMode, Path stateDir) {
        this.config = config;
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "adattribution-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "dummy:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
        props.put(RtmProcessorConfig.EXECUTION_MODE_CONFIG, executionMode);
        props.put(RtmProcessorConfig.MICRO_BATCH_INTERVAL_MS_CONFIG, 1000L);
        driver = new TopologyTestDriver(AdAttributionTopology.build(config, deadLetters), props, START);
        ServiceTopics t = config.topics();
        StringSerializer ks = new StringSerializer();
        ByteArraySerializer vs = new ByteArraySerializer();
        impressions = driver.createInputTopic(t.impressions(), ks, vs, START, java.time.Duration.ZERO);
        clicks = driver.createInputTopic(t.clicks(), ks, vs, START, java.time.Duration.ZERO);
        requests = driver.createInputTopic(t.requests(), ks, vs, START, java.time.Duration.ZERO);
        acks = driver.createInputTopic(t.acks(), ks, vs, START, java.time.Duration.ZERO);
        attributed = driver.createOutputTopic(
                t.attributedClicks(),
                new StringDeserializer(),
                AdAttributionTopology.wire(config)
                        .serde(AttributedClick.class, t.attributedClicks())
                        .deserializer());
        logRecords = driver.createOutputTopic(
                t.logRecords(),
                new StringDeserializer(),
                AdAttributionTopology.wire(config)
                        .serde(LogRecord.class, t.logRecords())
                        .deserializer());
        dlq = driver.createOutputTopic(t.dlq(), new StringDeserializer(), new ByteArrayDeserializer());
    }

    static AppConfig defaults() {
        return AppConfig.builder().bootstrapServers("dummy:9092").build();
    }

    /** Current wall-clock time of the driver. */
    long now() {
        return wallClock;
    }

    private long wallClock = START.toEpochMilli();

    void advance(java.time.Duration d) {
        driver.advanceWallClockTime(d);
        wallClock += d.toMillis();
    }

    @Override
    public void close() {
        driver.close();
    }
}
