package dev.rtmstreams.adattribution.workload;

import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * What one measured run ({@link LoadRun}) sends, reads and checks: the inputs with their schedule, the output topics,
 * how an output record is decoded, and the oracle that checks it. The ad-attribution workload ({@link
 * LoadRun#attribution}) and the load generator's published latency workloads are two implementations; the sending,
 * pacing, draining, latency and report code is shared.
 */
public interface RunSpec {

    /** @return the number of inputs; input {@code i} has {@code seq == i} */
    int size();

    /**
     * @param i the input's index
     * @return when to send it, in microseconds from the start of the run (non-decreasing in {@code i})
     */
    long offsetMicros(int i);

    /**
     * @param i the input's index
     * @return the record to send (topic, key, value and timestamp); built when it is sent
     */
    ProducerRecord<byte[], byte[]> record(int i);

    /** @return the topics the outputs appear on */
    List<String> outputTopics();

    /**
     * Decodes one output record.
     *
     * @param r the record
     * @param receivedNanos when the consumer received it
     * @return the observed output, or null when it belongs to another run (counted as foreign, otherwise ignored)
     * @throws RuntimeException when the record cannot be decoded (counted as undecodable)
     */
    Observed decode(ConsumerRecord<byte[], byte[]> r, long receivedNanos);

    /** @return a fresh oracle for the run's outputs */
    Matcher matcher();

    /**
     * Returns the oracle's own counters for the report, such as inputs it dropped as late. Each workload's oracle has
     * its own (the names are the workload's, not the report's), so they travel as named numbers rather than fields.
     *
     * @return counter name (snake_case, a top-level key of the report) to value, in report order; may be empty
     */
    Map<String, Long> oracleCounters();
}
