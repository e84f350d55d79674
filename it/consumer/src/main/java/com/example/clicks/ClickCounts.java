package com.example.clicks;

import dev.rtmstreams.processor.*;
import dev.rtmstreams.topology.RtmStreams;
import dev.rtmstreams.topology.Trigger;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.*;

/** Counts clicks per key ("clicks" to "click-counts") in real-time mode. */
public class ClickCounts {

    /** A count per key, kept 10 minutes after its last update, reported again a minute after each click. */
    public static class CountProcessor extends StatefulProcessor<String, String, Long> {
        private ValueState<Long> count;

        @Override public void init(OutputMode outputMode, TimeMode timeMode) {
            count = getHandle().getValueState("count", Serdes.Long(), TtlConfig.of(Duration.ofMinutes(10)));
        }

        @Override public Iterator<Long> handleInputRows(String key, Iterator<String> rows, TimerValues timerValues) {
            long n = count.getOption().orElse(0L);
            while (rows.hasNext()) { rows.next(); n++; }
            count.update(n);
            getHandle().registerTimer(timerValues.getCurrentProcessingTimeInMs() + 60_000);   // fires even without input
            return List.of(n).iterator();
        }

        @Override public Iterator<Long> handleExpiredTimer(String key, TimerValues timerValues, ExpiredTimerInfo timer) {
            return count.getOption().stream().iterator();
        }
    }

    public static TransformWithState<String, String, Long> countOperator() {
        return TransformWithState.<String, String, Long>builder(CountProcessor::new, TimeMode.PROCESSING_TIME)
                .keySerde(Serdes.String()).valueSerde(Serdes.String()).build();
    }

    public static Topology topology() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("clicks", Consumed.with(Serdes.String(), Serdes.String()))
                .process(countOperator(), Named.as("count"))
                .to("click-counts", Produced.with(Serdes.String(), Serdes.Long()));
        return builder.build();
    }

    public static void main(String[] args) {
        Properties props = new Properties();
        props.put("application.id", "click-counts");
        props.put("bootstrap.servers", args.length > 0 ? args[0] : "localhost:9092");
        RtmStreams rtm = RtmStreams.builder(topology(), props)
                .trigger(Trigger.realTime(Duration.ofMinutes(5)))   // the only line that changes: Trigger.microBatch(Duration.ofSeconds(1))
                .build();
        Runtime.getRuntime().addShutdownHook(new Thread(rtm::close));
        rtm.start();
    }
}
