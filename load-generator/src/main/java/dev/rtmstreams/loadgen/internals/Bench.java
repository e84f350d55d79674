package dev.rtmstreams.loadgen.internals;

import dev.rtmstreams.loadgen.WorkloadConfig;
import dev.rtmstreams.testkit.EmbeddedKafkaCluster;
import dev.rtmstreams.testkit.KafkaBrokerProcess;
import dev.rtmstreams.testkit.KafkaCluster;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The benchmark: the same seeded workload against each mode in turn, each on a fresh broker
 * (unless a cluster is given), with a warm-up, a measured run, a drain, and one report per mode
 * plus a combined picture and a console table.
 *
 * <p>Modes: {@code echo} (pass-through floor, {@link EchoPipeline}), {@code kafka-streams-join}
 * ({@link KafkaStreamsJoinPipeline}), {@code real-time} and {@code micro-batch} (the service in a
 * child JVM, {@link ServiceProcess}).
 */
public final class Bench {

  private static final Logger LOG = LoggerFactory.getLogger(Bench.class);

  /** The known modes, in default order. */
  public static final List<String> MODES = List.of("echo", "real-time", "micro-batch", "kafka-streams-join");

  /** Where the broker of a mode runs when no cluster is given. */
  public enum BrokerKind {
    /** In this JVM (KafkaClusterTestKit): starts fastest. */
    IN_PROCESS,
    /** In its own JVM: its GC and threads are apart from the generator's. */
    CHILD_PROCESS
  }

  /**
   * Benchmark options.
   *
   * @param workload the workload (rate and duration of the measured run)
   * @param modes the modes to run, in order
   * @param bootstrapServers an existing cluster, or empty for a fresh broker per mode
   * @param broker where a fresh broker runs
   * @param reportDir where reports go
   * @param appJar the service's fat jar (real-time, micro-batch)
   * @param appJvmOptions JVM options of the service
   * @param appArgs extra arguments to the service's run command
   * @param partitions partitions of every topic the bench creates
   * @param warmup warm-up run length at the same rate (0 to skip)
   * @param drain longest wait for outputs after the last send
   * @param readyTimeout longest wait for a system under test to start
   * @param progress draw the progress bar
   * @param streamThreads stream threads of the service and of the Kafka Streams peer
   * @param peersInChildJvm run echo and kafka-streams-join in their own JVM, like the service (else in
   *     this JVM)
   * @param rates rates to sweep (each mode runs at each rate); empty: the workload's rate only
   */
  public record Options(WorkloadConfig workload, List<String> modes, Optional<String> bootstrapServers,
      BrokerKind broker, Path reportDir, Path appJar, List<String> appJvmOptions, List<String> appArgs,
      int partitions, Duration warmup, Duration drain, Duration readyTimeout, boolean progress, int streamThreads,
      boolean peersInChildJvm, List<Double> rates) {
    /** Validates. */
    public Options {
      Objects.requireNonNull(workload, "workload");
      for (String m : modes) {
        if (!MODES.contains(m)) {
          throw new IllegalArgumentException("unknown mode '" + m + "'; known: " + String.join(",", MODES));
        }
      }
      if (modes.isEmpty()) {
        throw new IllegalArgumentException("modes must not be empty");
      }
      if (streamThreads < 1) {
        throw new IllegalArgumentException("streamThreads must be positive: " + streamThreads);
      }
      if (partitions < 1) {
        throw new IllegalArgumentException("partitions must be positive: " + partitions);
      }
      modes = List.copyOf(modes);
      rates = List.copyOf(rates);
      for (double r : rates) {
        if (!(r > 0)) {
          throw new IllegalArgumentException("rates must be positive: " + r);
        }
      }
    }
  }

  private Bench() {}

  /**
   * Runs every mode and writes the reports.
   *
   * @param o the options
   * @return one report per mode
   * @throws Exception if a mode cannot be set up
   */
  public static List<Map<String, Object>> run(Options o) throws Exception {
    Files.createDirectories(o.reportDir());
    List<Map<String, Object>> reports = new ArrayList<>();
    String nonce = o.bootstrapServers().isPresent()
        ? Long.toString(System.currentTimeMillis() % 100_000_000L, 36) + "-" : "";
    List<Double> rates = o.rates().isEmpty() ? List.of(o.workload().rate()) : o.rates();
    for (double rate : rates) {
      Options atRate = new Options(o.workload().toBuilder().rate(rate).build(), o.modes(), o.bootstrapServers(),
          o.broker(), o.reportDir(), o.appJar(), o.appJvmOptions(), o.appArgs(), o.partitions(), o.warmup(),
          o.drain(), o.readyTimeout(), o.progress(), o.streamThreads(), o.peersInChildJvm(), List.of());
      for (String mode : o.modes()) {
        System.err.printf(Locale.ROOT, "== mode %s at %.0f events/s%n", mode, rate);
        Map<String, Object> report = runMode(atRate, mode, nonce);
        String name = rates.size() == 1 ? "report-" + mode : String.format(Locale.ROOT, "report-%s-%.0f", mode, rate);
        if (rates.size() > 1) {
          report.put("mode", String.format(Locale.ROOT, "%s@%.0f", mode, rate));
        }
        ReportWriter.writeRun(o.reportDir(), name, report);
        reports.add(report);
        ReportWriter.writeCombined(o.reportDir(), reports);
      }
    }
    Path html = ReportWriter.writeCombined(o.reportDir(), reports);
    ReportWriter.printTable(System.out, reports);
    System.out.println("reports: " + o.reportDir().toAbsolutePath() + " (combined picture: " + html.getFileName()
        + ")");
    return reports;
  }

  private static Map<String, Object> runMode(Options o, String mode, String nonce) throws Exception {
    KafkaCluster owned = null;
    AutoCloseable system = null;
    try {
      String bootstrap;
      if (o.bootstrapServers().isPresent()) {
        bootstrap = o.bootstrapServers().get();
      } else if (o.broker() == BrokerKind.CHILD_PROCESS) {
        KafkaBrokerProcess broker = EmbeddedKafkaCluster.childProcess().build();
        owned = broker;
        broker.start();
        bootstrap = broker.bootstrapServers();
      } else {
        EmbeddedKafkaCluster cluster = EmbeddedKafkaCluster.builder().build();
        owned = cluster;
        cluster.start();
        bootstrap = cluster.bootstrapServers();
      }
      boolean service = mode.equals("real-time") || mode.equals("micro-batch");
      TopicNames topics = TopicNames.DEFAULTS;
      String suffix = "";
      if (!nonce.isEmpty()) {
        suffix = "-" + nonce + mode;
        topics = TopicNames.DEFAULTS.withSuffix(suffix);
      }
      createTopics(bootstrap, topics, o.partitions());
      String appId = "loadgen-" + mode + "-" + System.currentTimeMillis();
      Duration window = o.workload().attributionWindow();
      Duration delay = o.workload().watermarkDelay();
      LoadRun.Outputs outputs;
      long t0 = System.nanoTime();
      switch (mode) {
        case "echo":
        case "kafka-streams-join": {
          outputs = mode.equals("echo") ? LoadRun.Outputs.ECHO : LoadRun.Outputs.ATTRIBUTION;
          if (o.peersInChildJvm()) {
            List<String> args = new ArrayList<>(List.of("peer", "--kind", mode, "--bootstrap-servers", bootstrap,
                "--application-id", appId, "--attribution-window", window.toString(), "--watermark-delay",
                delay.toString(), "--stream-threads", Integer.toString(o.streamThreads())));
            if (!suffix.isEmpty()) {
              args.addAll(List.of("--topic-suffix", suffix));
            }
            ServiceProcess peer = new ServiceProcess(ServiceProcess.selfCommand(o.appJvmOptions(), args), bootstrap,
                appId, o.reportDir().resolve("peer-" + mode + ".log"));
            system = peer;
            if (!peer.awaitReady(o.readyTimeout())) {
              throw new IllegalStateException(mode + " peer not ready within " + o.readyTimeout() + "; log tail:\n"
                  + peer.tail(40));
            }
          } else if (mode.equals("echo")) {
            EchoPipeline echo = new EchoPipeline(bootstrap, topics, appId);
            system = echo;
            require(echo.awaitReady(o.readyTimeout()), mode);
          } else {
            KafkaStreamsJoinPipeline ksj = new KafkaStreamsJoinPipeline(bootstrap, appId, topics, window, delay,
                o.streamThreads());
            system = ksj;
            require(ksj.awaitRunning(o.readyTimeout()), mode);
          }
          break;
        }
        default: {
          Path stateDir = Files.createTempDirectory("loadgen-app-state-");
          List<String> args = new ArrayList<>(List.of("--http-port", "0", "--num-stream-threads",
              Integer.toString(o.streamThreads()), "--impressions-topic", topics.impressions(), "--clicks-topic",
              topics.clicks(), "--requests-topic", topics.requests(), "--acks-topic", topics.acks(),
              "--attributed-clicks-topic", topics.attributedClicks(), "--log-records-topic", topics.logRecords()));
          args.addAll(o.appArgs());
          args.addAll(List.of("--attribution-window", window.toString(), "--watermark-delay", delay.toString()));
          ServiceProcess app = new ServiceProcess(o.appJar(), bootstrap, mode, appId, stateDir,
              o.reportDir().resolve("service-" + mode + ".log"), o.appJvmOptions(), args);
          system = app;
          if (!app.awaitReady(o.readyTimeout())) {
            throw new IllegalStateException("service (" + mode + ") not ready within " + o.readyTimeout()
                + "; log tail:\n" + app.tail(40));
          }
          outputs = LoadRun.Outputs.SERVICE;
          break;
        }
      }
      LOG.info("{} ready in {} ms", mode, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
      String prefix = nonce + o.workload().idPrefix();
      if (!o.warmup().isZero()) {
        WorkloadConfig warm = o.workload().toBuilder().idPrefix("w" + prefix).duration(o.warmup()).lateFraction(0)
            .build();
        // the warm-up waits (idle timeout = ready timeout) until the system has really produced its outputs,
        // so the measured run starts on a system that processes input and has no backlog
        LoadRun.Settings ws = settings(o, bootstrap, topics, mode + "-warmup", outputs, "w" + prefix,
            o.readyTimeout());
        Map<String, Object> wr = LoadRun.execute(WorkloadGenerator.generate(warm, System.currentTimeMillis()),
            warm.rate(), ws, Map.of());
        System.err.printf(Locale.ROOT, "   warm-up: %s outputs of %s, missing %s%n", wr.get("matched"),
            wr.get("expected"), wr.get("missing"));
      }
      WorkloadConfig main = o.workload().toBuilder().idPrefix(prefix).build();
      LoadRun.Settings ms = settings(o, bootstrap, topics, mode, outputs, prefix, o.drain());
      Map<String, Object> extra = new LinkedHashMap<>();
      extra.put("workload", workloadDescription(main));
      extra.put("environment", environment(o, bootstrap));
      return LoadRun.execute(WorkloadGenerator.generate(main, System.currentTimeMillis()), main.rate(), ms, extra);
    } finally {
      if (system != null) {
        try {
          system.close();
        } catch (Exception e) {
          LOG.warn("closing {} failed", mode, e);
        }
      }
      if (owned != null) {
        owned.close();
      }
    }
  }

  private static void require(boolean ready, String mode) {
    if (!ready) {
      throw new IllegalStateException(mode + " did not become ready");
    }
  }

  private static LoadRun.Settings settings(Options o, String bootstrap, TopicNames topics, String mode,
      LoadRun.Outputs outputs, String prefix, Duration drain) {
    return new LoadRun.Settings(bootstrap, topics, mode, outputs, o.workload().attributionWindow(),
        o.workload().watermarkDelay(), 1.0, drain, Duration.ofSeconds(2), Duration.ofSeconds(1), o.progress(),
        Map.of(), prefix);
  }

  /**
   * Creates the input and output topics, ignoring those that exist.
   *
   * @param bootstrap the cluster
   * @param topics the names
   * @param partitions partitions per topic
   * @throws InterruptedException if interrupted
   * @throws ExecutionException on a broker error other than "exists"
   */
  public static void createTopics(String bootstrap, TopicNames topics, int partitions)
      throws InterruptedException, ExecutionException {
    try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
      for (String t : List.of(topics.impressions(), topics.clicks(), topics.requests(), topics.acks(),
          topics.attributedClicks(), topics.logRecords(), topics.echo())) {
        try {
          admin.createTopics(List.of(new NewTopic(t, partitions, (short) 1))).all().get();
        } catch (ExecutionException e) {
          if (!(e.getCause() instanceof TopicExistsException)) {
            throw e;
          }
        }
      }
    }
  }

  /**
   * Describes a workload for the report.
   *
   * @param w the workload
   * @return a JSON-ready map
   */
  public static Map<String, Object> workloadDescription(WorkloadConfig w) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("seed", w.seed());
    m.put("rate", w.rate());
    m.put("duration", w.duration().toString());
    m.put("events", w.eventCount());
    m.put("id_prefix", w.idPrefix());
    m.put("clicks_per_impression", w.clicksPerImpression());
    m.put("request_share", w.requestShare());
    m.put("click_delay", w.clickDelay().toString());
    m.put("outside_window_fraction", w.outsideWindowFraction());
    m.put("edge_fraction", w.edgeFraction());
    m.put("orphan_fraction", w.orphanFraction());
    m.put("duplicate_fraction", w.duplicateFraction());
    m.put("out_of_order_fraction", w.outOfOrderFraction());
    m.put("late_fraction", w.lateFraction());
    m.put("ack_first_fraction", w.ackFirstFraction());
    m.put("attribution_window", w.attributionWindow().toString());
    m.put("watermark_delay", w.watermarkDelay().toString());
    return m;
  }

  private static Map<String, Object> environment(Options o, String bootstrap) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("cores", Runtime.getRuntime().availableProcessors());
    m.put("java", System.getProperty("java.version"));
    m.put("broker", o.bootstrapServers().isPresent() ? "external " + bootstrap : o.broker().name().toLowerCase(
        Locale.ROOT));
    m.put("partitions", o.partitions());
    m.put("stream_threads", o.streamThreads());
    m.put("peers_in_child_jvm", o.peersInChildJvm());
    m.put("warmup", o.warmup().toString());
    try {
      m.put("load_average", Files.readString(Path.of("/proc/loadavg")).trim());
    } catch (IOException | RuntimeException e) {
      // not on Linux
    }
    return m;
  }
}
