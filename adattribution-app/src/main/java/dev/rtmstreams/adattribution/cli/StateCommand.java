package dev.rtmstreams.adattribution.cli;

import dev.rtmstreams.adattribution.AppConfig;
import dev.rtmstreams.adattribution.model.KafkaClientSettings;
import dev.rtmstreams.adattribution.pipeline.ReadableOperators;
import dev.rtmstreams.join.IntervalJoin;
import dev.rtmstreams.join.JoinStateReader;
import dev.rtmstreams.processor.StateReader;
import dev.rtmstreams.processor.TransformWithState;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.function.Function;
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
 * {@code state read}: prints the state of a transformWithState operator or of the click attribution join of the
 * service, one JSON line per key, read offline from a stopped instance's state directory or from the changelog topics
 * (Spark's state data source; for the join, with {@code joinSide}: each side's rows and the watermarks). A running
 * instance serves the same JSON at {@code GET /state/{operator}/{key}}.
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
            description = "Print an operator's state as one JSON line per key: a transformWithState operator's value,"
                    + " list and map variables with TTL expiry and pending timers; the click-attribution join's rows"
                    + " per side (impressions left, clicks right) with their event times, and its watermarks. From a"
                    + " stopped instance's --state-dir or from the changelog topics on --bootstrap-servers.")
    public static final class Read implements Callable<Integer> {

        @CommandLine.Spec
        private CommandLine.Model.CommandSpec spec;

        @Option(
                names = "--operator",
                paramLabel = "NAME",
                defaultValue = "request-ack-correlation",
                description = "The operator: a transformWithState operator or the join (click-attribution)."
                        + " Default: ${DEFAULT-VALUE}.")
        private String operator;

        @Option(
                names = "--key",
                paramLabel = "KEY",
                description = "Only this key (a transaction id; for the join an impression id). Default: every key.")
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
                description = "Read the changelog topics <application.id>-<store>-changelog from this cluster.")
        private String bootstrapServers;

        @Option(
                names = "--kafka-config",
                paramLabel = "FILE",
                description = "With --bootstrap-servers: Kafka client properties (security.protocol, sasl.*, ssl.*,"
                        + " ...); RTM_KAFKA_<PROPERTY> environment variables (e.g. RTM_KAFKA_SASL_JAAS_CONFIG) win"
                        + " over the file.")
        private Path kafkaConfig;

        @Option(
                names = "--config",
                paramLabel = "FILE",
                description = "For the join: the service's properties file (as for 'run', env RTM_CONFIG), for its"
                        + " watermark delay, attribution window and wire format; RTM_* variables apply as for 'run'.")
        private Path configFile;

        private final Function<String, String> env;

        /** Creates the command reading the process environment. */
        public Read() {
            this(System::getenv);
        }

        /** @param env environment lookup (returns null when unset) */
        public Read(Function<String, String> env) {
            this.env = env;
        }

        @Override
        public Integer call() throws IOException {
            UnaryOperator<StateReader> decoders = ReadableOperators.all().get(operator);
            if (decoders == null && !ReadableOperators.names().contains(operator)) {
                throw new CommandLine.ParameterException(
                        spec.commandLine(),
                        "Invalid value for option '--operator': " + operator + " (readable: "
                                + ReadableOperators.names() + ")");
            }
            if ((stateDir == null) == (bootstrapServers == null)) {
                throw new CommandLine.ParameterException(
                        spec.commandLine(), "Give exactly one of --state-dir and --bootstrap-servers");
            }
            List<String> lines = decoders == null ? readJoin() : readOperator(decoders);
            PrintWriter out = spec.commandLine().getOut();
            lines.forEach(out::println);
            out.flush();
            spec.commandLine().getErr().println("state read: " + lines.size() + " key(s) of " + operator);
            return 0;
        }

        private List<String> readOperator(UnaryOperator<StateReader> decoders) throws IOException {
            List<StateReader> readers = new ArrayList<>();
            if (stateDir != null) {
                String store = TransformWithState.storeNameOf(operator);
                for (Path task : taskDirectories(store)) {
                    readers.add(decoders.apply(StateReader.fromRocksDbDirectory(
                            task.resolve("rocksdb").resolve(store))));
                }
            } else {
                String topic = changelogTopic(TransformWithState.storeNameOf(operator));
                List<KeyValue<Bytes, byte[]>> records = new ArrayList<>();
                changelogs(List.of(topic)).get(topic).values().forEach(records::addAll);
                readers.add(decoders.apply(StateReader.ofEntries(records)));
            }
            List<String> lines = new ArrayList<>();
            for (StateReader r : readers) {
                List<StateReader.KeyState> states = key == null
                        ? r.readAll()
                        : r.read(key.getBytes(StandardCharsets.UTF_8)).stream().toList();
                states.forEach(s -> lines.add(StateReader.toJson(s)));
            }
            return lines;
        }

        /** The join's state: one reader per task (partition), each with its own watermarks. */
        private List<String> readJoin() throws IOException {
            ReadableOperators.ReadableJoin readable =
                    ReadableOperators.joins(config()).get(operator);
            IntervalJoin<String, ?, ?> join = readable.join();
            List<JoinStateReader> readers = new ArrayList<>();
            if (stateDir != null) {
                for (Path task : taskDirectories(join.leftBufferStoreName())) {
                    readers.add(readable.decoders().apply(JoinStateReader.fromRocksDbDirectory(join, task)));
                }
            } else {
                String left = changelogTopic(join.leftBufferStoreName());
                String right = changelogTopic(join.rightBufferStoreName());
                String meta = changelogTopic(join.metaStoreName());
                Map<String, Map<Integer, List<KeyValue<Bytes, byte[]>>>> topics =
                        changelogs(List.of(left, right, meta));
                for (Map.Entry<Integer, List<KeyValue<Bytes, byte[]>>> p :
                        topics.get(left).entrySet()) {
                    readers.add(readable.decoders()
                            .apply(JoinStateReader.ofChangelogs(
                                    join,
                                    p.getKey(),
                                    p.getValue(),
                                    topics.get(right).getOrDefault(p.getKey(), List.of()),
                                    topics.get(meta).getOrDefault(p.getKey(), List.of()))));
                }
            }
            List<String> lines = new ArrayList<>();
            for (JoinStateReader r : readers) {
                List<JoinStateReader.KeyState> states = key == null
                        ? r.readAll()
                        : r.read(key.getBytes(StandardCharsets.UTF_8)).stream().toList();
                states.forEach(s -> lines.add(JoinStateReader.toJson(s)));
            }
            return lines;
        }

        /** @return the service's configuration as 'run' would resolve it here (the join's delays and window) */
        private AppConfig config() {
            Map<ServiceOption, String> cli = new EnumMap<>(ServiceOption.class);
            cli.put(ServiceOption.APPLICATION_ID, applicationId);
            // not used to read state; the configuration needs one (the environment or the file may give it)
            cli.put(ServiceOption.BOOTSTRAP_SERVERS, bootstrapServers != null ? bootstrapServers : "unused:9092");
            try {
                return new ConfigResolver(env).resolve(cli, configFile).config();
            } catch (ConfigResolver.ConfigException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
            }
        }

        /** @return the task directories under the application's state directory holding {@code store} */
        private List<Path> taskDirectories(String store) throws IOException {
            Path app = stateDir.resolve(applicationId);
            if (!Files.isDirectory(app)) {
                throw new CommandLine.ParameterException(
                        spec.commandLine(), "Invalid value for option '--state-dir': no directory " + app);
            }
            try (Stream<Path> tasks = Files.list(app)) {
                return tasks.filter(t -> Files.isDirectory(t.resolve("rocksdb").resolve(store)))
                        .sorted()
                        .toList();
            }
        }

        private String changelogTopic(String store) {
            return applicationId + "-" + store + "-changelog";
        }

        /**
         * @return per topic, per partition, the records from the beginning to the current end in offset order
         *     (committed ones only)
         */
        private Map<String, Map<Integer, List<KeyValue<Bytes, byte[]>>>> changelogs(List<String> topics) {
            Properties p = new Properties();
            KafkaClientSettings.Builder settings = KafkaClientSettings.builder();
            if (kafkaConfig != null) {
                settings.file(kafkaConfig, "");
            }
            p.putAll(settings.environment(env).build().asMap());
            p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
            p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
            p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
            Map<String, Map<Integer, List<KeyValue<Bytes, byte[]>>>> records = new HashMap<>();
            try (KafkaConsumer<Bytes, byte[]> c =
                    new KafkaConsumer<>(p, new BytesDeserializer(), new ByteArrayDeserializer())) {
                List<TopicPartition> parts = new ArrayList<>();
                for (String topic : topics) {
                    List<PartitionInfo> infos = c.partitionsFor(topic, Duration.ofSeconds(30));
                    if (infos == null || infos.isEmpty()) {
                        throw new CommandLine.ParameterException(
                                spec.commandLine(), "No changelog topic " + topic + " on " + bootstrapServers);
                    }
                    records.put(topic, new TreeMap<>());
                    infos.forEach(i -> parts.add(new TopicPartition(topic, i.partition())));
                }
                c.assign(parts);
                c.seekToBeginning(parts);
                Map<TopicPartition, Long> end = c.endOffsets(parts);
                while (parts.stream().anyMatch(tp -> c.position(tp) < end.get(tp))) {
                    for (ConsumerRecord<Bytes, byte[]> r : c.poll(Duration.ofMillis(500))) {
                        records.get(r.topic())
                                .computeIfAbsent(r.partition(), x -> new ArrayList<>())
                                .add(KeyValue.pair(r.key(), r.value()));
                    }
                }
            }
            return records;
        }
    }
}
