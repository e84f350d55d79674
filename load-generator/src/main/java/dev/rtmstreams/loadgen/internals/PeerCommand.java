package dev.rtmstreams.loadgen.internals;

import dev.rtmstreams.adattribution.workload.TopicNames;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code peer}: a benchmark peer in its own JVM (started by bench). */
@Command(
        name = "peer",
        hidden = true,
        mixinStandardHelpOptions = true,
        description = "Run a benchmark peer (" + PeerCommand.KINDS + ") until SIGTERM; prints PEER READY once it "
                + "processes input.")
final class PeerCommand implements Callable<Integer> {
    static final String KINDS = "echo, kafka-streams-join, kafka-streams-join-tuned, kafka-streams-passthrough,"
            + " kafka-streams-join-eos or kafka-streams-join-eos-tuned";

    @Option(names = "--kind", required = true, description = KINDS + ".")
    String kind;

    @Option(names = "--bootstrap-servers", required = true, description = "HOST:PORT of the cluster.")
    String bootstrapServers;

    @Option(names = "--application-id", required = true, description = "Consumer group / application id.")
    String applicationId;

    @Option(names = "--topic-suffix", defaultValue = "", description = "Suffix of every topic name.")
    String topicSuffix;

    @Option(
            names = "--workload",
            defaultValue = "attribution",
            description = "Whose topics the echo copies (bench's --workload). Default: ${DEFAULT-VALUE}.")
    String benchWorkload;

    @Option(names = "--attribution-window", defaultValue = "PT2M", description = "Default: ${DEFAULT-VALUE}.")
    Duration window;

    @Option(
            names = "--watermark-delay",
            defaultValue = "PT5M",
            description = "Grace period. Default: " + "${DEFAULT-VALUE}.")
    Duration watermarkDelay;

    @Option(names = "--stream-threads", defaultValue = "2", description = "Default: ${DEFAULT-VALUE}.")
    int streamThreads;

    @Option(
            names = "--replication-factor",
            defaultValue = "1",
            description = "Replicas of the cluster's topics: the Kafka Streams peers' internal topics get as many,"
                    + " and above 1 every producer sends with acks=all. Default: ${DEFAULT-VALUE}.")
    int replicationFactor;

    @Override
    public Integer call() throws Exception {
        if (replicationFactor < 1) {
            throw new IllegalArgumentException("--replication-factor must be positive: " + replicationFactor);
        }
        TopicNames topics = TopicNames.DEFAULTS.withSuffix(topicSuffix);
        BenchWorkload bw = BenchWorkload.parse(benchWorkload);
        AutoCloseable pipeline;
        boolean ready;
        KafkaStreamsPeer.Kind kafkaStreams = KafkaStreamsPeer.Kind.ofMode(kind);
        if (kind.equals("echo")) {
            EchoPipeline echo = SystemUnderTest.echo(
                    bootstrapServers,
                    bw,
                    topics,
                    LatencyWorkload.Topics.DEFAULTS.withSuffix(topicSuffix),
                    applicationId,
                    replicationFactor);
            pipeline = echo;
            ready = echo.awaitReady(Duration.ofMinutes(2));
        } else if (kafkaStreams != null) {
            KafkaStreamsPeer ks = new KafkaStreamsPeer(
                    kafkaStreams,
                    bootstrapServers,
                    applicationId,
                    topics,
                    window,
                    watermarkDelay,
                    streamThreads,
                    replicationFactor);
            pipeline = ks;
            ready = ks.awaitRunning(Duration.ofMinutes(2));
        } else {
            throw new IllegalArgumentException("--kind must be " + KINDS + ": " + kind);
        }
        java.util.concurrent.CountDownLatch stopped = new java.util.concurrent.CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            try {
                                pipeline.close();
                            } catch (Exception e) {
                                // exiting anyway
                            }
                            stopped.countDown();
                        },
                        "peer-shutdown"));
        if (!ready) {
            System.out.println("PEER FAILED to start");
            return 1;
        }
        System.out.println("PEER READY");
        System.out.flush();
        stopped.await();
        return 0;
    }
}
