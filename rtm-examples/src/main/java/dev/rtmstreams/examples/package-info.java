/**
 * The queries of Databricks' real-time-mode examples page as Kafka Streams + rtm-streams programs. Each example class
 * builds a plain Kafka Streams {@link org.apache.kafka.streams.Topology}; running it under
 * {@code Trigger.realTime(...)} or {@code Trigger.microBatch(...)} with {@code RtmStreams} is the only difference
 * between the modes, as in Spark. Keys and values are UTF-8 strings, like Spark's {@code CAST(value AS STRING)}.
 * They use only the libraries' public API; the command line that runs them (module rtm-examples-runner) is
 * {@code java -jar rtm-examples.jar list}.
 */
package dev.rtmstreams.examples;
