package dev.rtmstreams.adattribution.cli;

import dev.rtmstreams.adattribution.model.KafkaClientSettings;
import dev.rtmstreams.adattribution.pipeline.ReadableOperators;
import dev.rtmstreams.processor.StateReader;
import dev.rtmstreams.processor.TransformWithState;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.BytesDeserializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code state read}: prints the state of a transformWithState operator of the service, one JSON line per key, read
 * offline from a stopped instance's state directory or from the operator's changelog topic (Spark's state data
 * source). A running instance serves the same JSON at {@code GET /state/{operator}/{key}}.
 */
@Command(
        name = "state",
        mixinStandardHelpOptions = true,
        description = "Read the service's operator state offline (see 'state read --help').",
        subcommands = {StateCommand.Read.class})
public final class StateCommand implements Runnable {

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "Missing command: use 'state read' (see --help)");
    }

    /** {@code state read}. */
    @Command(
            name = "read",
            mixinStandardHelpOptions = true,
            sortOptions = false,
            description = "Print an operator's state (value, list and map variables with TTL expiry, pending timers)"
                    + " as one JSON line per key, from a stopped instance's --state-dir or from the operator's"
                    + " changelog topic on --bootstrap-servers.")
    public static final class Read implements Callable<Integer> {

        @CommandLine.Spec
        private CommandLine.Model.CommandSpec spec;

        @Option(
                names = "--operator",
                paramLabel = "NAME",
                defaultValue = "request-ack-correlation",
                description = "The transformWithState operator. Default: ${DEFAULT-VALUE}.")
        private String operator;

        @Option(
                names = "--key",
                paramLabel = "KEY",
                description = "Only this grouping key (a transaction id). Default: every key.")
        private String key;

        @Option(
                names = "--application-id",
                paramLabel = "ID",
                defaultValue = "adattribution",
                description = "The service's application.id. Default: ${DEFAULT-VALUE}.")
        private String applicationId;

        @Option(
                names = "--state-dir",
                paramLabel = "DIR",
                description = "Read the RocksDB stores under DIR/<application.id>/<task>/rocksdb/ (the instance must"
                        + " be stopped).")
        private Path stateDir;

        @Option(
                names = "--bootstrap-servers",
                paramLabel = "HOST:PORT",
                description = "Read the changelog topic <application.id>-<operator>-state-changelog from this cluster.")
        private String bootstrapServers;

        @Option(
                names = "--kafka-config",
                paramLabel = "FILE",
                description = "With --bootstrap-servers: Kafka client properties (security.protocol, sasl.*, ssl.*,"
                        + " ...); RTM_KAFKA_<PROPERTY> environment variables (e.g. RTM_KAFKA_SASL_JAAS_CONFIG) win"
                        + " over the file.")
        private Path kafkaConfig;

        @Override
        public Integer call() throws IOException {
            UnaryOperator<StateReader> decoders = ReadableOperators.all().get(operator);
            if (decoders == null) {
                throw new CommandLine.ParameterException(
                        spec.commandLine(),
                        "Invalid value for option '--operator': " + operator + " (readable: "
                                + ReadableOperators.all().keySet() + ")");
            }
            if ((stateDir == null) == (bootstrapServers == null)) {
                throw new CommandLine.ParameterException(
                        spec.commandLine(), "Give exactly one of --state-dir and --bootstrap-servers");
            }
            PrintWriter out = spec.commandLine().getOut();
            List<StateReader> readers = new ArrayList<>();
            if (stateDir != null) {
                for (Path store : storeDirectories()) {
                    readers.add(decoders.apply(StateReader.fromRocksDbDirectory(store)));
                }
            } else {
                readers.add(decoders.apply(StateReader.ofEntries(changelog())));
            }
            int keys = 0;
            for (StateReader r : readers) {
                List<StateReader.KeyState> states = key == null
                        ? r.readAll()
                        : r.read(key.getBytes(StandardCharsets.UTF_8)).stream().toList();
                for (StateReader.KeyState s : states) {
                    out.println(StateReader.toJson(s));
                    keys++;
                }
            }
            out.flush();
            spec.commandLine().getErr().println("state read: " + keys + " key(s) of " + operator);
            return 0;
        }

        private List<Path> storeDirectories() throws IOException {
            Path app = stateDir.resolve(applicationId);
            if (!Files.isDirectory(app)) {
                throw new CommandLine.ParameterException(
                        spec.commandLine(), "Invalid value for option '--state-dir': no directory " + app);
            }
            String store = TransformWithState.storeNameOf(operator);
            try (Stream<Path> tasks = Files.list(app)) {
                return tasks.map(t -> t.resolve("rocksdb").resolve(store))
                        .filter(Files::isDirectory)
                        .sorted()
                        .toList();
            }
        }

        private List<KeyValue<Bytes, byte[]>> changelog() {
            String topic = applicationId + "-" + TransformWithState.storeNameOf(operator) + "-changelog";
            Properties p = new Properties();
            KafkaClientSettings.Builder settings = KafkaClientSettings.builder();
            if (kafkaConfig != null) {
                settings.file(kafkaConfig, "");
            }
            p.putAll(settings.environment(System::getenv).build().asMap());
            p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
            p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
            p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
            List<KeyValue<Bytes, byte[]>> records = new ArrayList<>();
            try (KafkaConsumer<Bytes, byte[]> c =
                    new KafkaConsumer<>(p, new BytesDeserializer(), new ByteArrayDeserializer())) {
                List<PartitionInfo> infos = c.partitionsFor(topic, Duration.ofSeconds(30));
                if (infos == null || infos.isEmpty()) {
                    throw new CommandLine.ParameterException(
                            spec.commandLine(), "No changelog topic " + topic + " on " + bootstrapServers);
                }
                List<TopicPartition> parts = infos.stream()
                        .map(i -> new TopicPartition(topic, i.partition()))
                        .toList();
                c.assign(parts);
                c.seekToBeginning(parts);
                Map<TopicPartition, Long> end = c.endOffsets(parts);
                while (parts.stream().anyMatch(tp -> c.position(tp) < end.get(tp))) {
                    for (ConsumerRecord<Bytes, byte[]> r : c.poll(Duration.ofMillis(500))) {
                        records.add(KeyValue.pair(r.key(), r.value()));
                    }
                }
            }
            return records;
        }
    }
}
