package dev.rtmstreams.reliability.internals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

/**
 * Samples one service instance over time: state store size (the state directory on disk and
 * RocksDB's estimated keys), RocksDB memory (memtables, block cache, table readers) from its
 * {@code /metrics}, Java heap used, after the last GC and committed (the service's {@code /metrics}; heap used from
 * {@code jcmd GC.heap_info} for a service without that gauge) and the process RSS.
 */
public final class MetricsSampler implements AutoCloseable {

    /** Series names, in column order. */
    public static final List<String> SERIES = List.of(
            "t_s",
            "state_dir_bytes",
            "rocksdb_estimated_keys",
            "rocksdb_memtable_bytes",
            "rocksdb_block_cache_bytes",
            "rocksdb_table_readers_bytes",
            "heap_used_bytes",
            "rss_bytes",
            "heap_after_gc_bytes",
            "heap_committed_bytes");

    private static final String STATE = "kafka_streams_stream_state_metrics_";

    private final ServiceInstance instance;
    private final Duration interval;
    private final List<double[]> rows = new ArrayList<>();
    private final AtomicBoolean stop = new AtomicBoolean();
    private final Thread thread;
    private final long t0 = System.nanoTime();

    /**
     * Starts sampling.
     *
     * @param instance the service
     * @param interval time between samples
     */
    public MetricsSampler(ServiceInstance instance, Duration interval) {
        this.instance = instance;
        this.interval = interval;
        thread = new Thread(this::loop, "chaos-metrics-sampler");
        thread.setDaemon(true);
        thread.start();
    }

    private void loop() {
        while (!stop.get()) {
            sample();
            try {
                Thread.sleep(interval.toMillis());
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private void sample() {
        String text = instance.metrics();
        double[] row = new double[SERIES.size()];
        row[0] = (System.nanoTime() - t0) / 1e9;
        row[1] = dirSize(instance.stateDir());
        row[2] = text == null ? -1 : PrometheusSamples.sum(text, STATE + "estimate_num_keys");
        row[3] = text == null ? -1 : PrometheusSamples.sum(text, STATE + "cur_size_all_mem_tables");
        // one block cache may be shared by every store: each store reports the same usage, so take the max
        row[4] = text == null ? -1 : PrometheusSamples.max(text, STATE + "block_cache_usage");
        row[5] = text == null ? -1 : PrometheusSamples.sum(text, STATE + "estimate_table_readers_mem");
        // the service's gauge when it has one (no jcmd, which starts a JVM at every sample), else jcmd
        double heapUsed = text == null ? -1 : PrometheusSamples.sum(text, "adattribution_jvm_heap_used_bytes");
        row[6] = heapUsed >= 0 ? heapUsed : instance.heapUsedBytes();
        row[7] = instance.rssBytes();
        // the service's own gauges: live heap after the last collection, and heap the JVM holds from the OS
        row[8] = text == null ? -1 : PrometheusSamples.sum(text, "adattribution_jvm_heap_after_gc_bytes");
        row[9] = text == null ? -1 : PrometheusSamples.sum(text, "adattribution_jvm_heap_committed_bytes");
        synchronized (rows) {
            rows.add(row);
        }
    }

    private static double dirSize(Path dir) {
        if (!Files.isDirectory(dir)) {
            return 0;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile)
                    .mapToLong(p -> {
                        try {
                            return Files.size(p);
                        } catch (IOException e) {
                            return 0;
                        }
                    })
                    .sum();
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** @return the samples so far, one row per sample in {@link #SERIES} order */
    public List<double[]> rows() {
        synchronized (rows) {
            return List.copyOf(rows);
        }
    }

    /**
     * Summarises each series: first, max, mean of the middle third and of the last third, and
     * whether it is bounded (last third's mean at most 1.25x the middle third's).
     *
     * @return per series name (in {@link #SERIES} order, without {@code t_s}) its summary
     */
    public Map<String, ChaosReport.SeriesSummary> summary() {
        List<double[]> r = rows();
        Map<String, ChaosReport.SeriesSummary> out = new LinkedHashMap<>();
        int n = r.size();
        for (int c = 1; c < SERIES.size(); c++) {
            double max = -1;
            for (double[] row : r) {
                max = Math.max(max, row[c]);
            }
            Double mid = null;
            Double last = null;
            Boolean bounded = null;
            if (n >= 6) {
                mid = mean(r, c, n / 3, 2 * n / 3);
                last = mean(r, c, 2 * n / 3, n);
                bounded = mid <= 0 || last <= 1.25 * mid;
            }
            out.put(
                    SERIES.get(c),
                    new ChaosReport.SeriesSummary(
                            n > 0 ? r.get(0)[c] : -1, n > 0 ? r.get(n - 1)[c] : -1, max, mid, last, bounded));
        }
        return out;
    }

    private static double mean(List<double[]> r, int c, int from, int to) {
        double sum = 0;
        for (int i = from; i < to; i++) {
            sum += r.get(i)[c];
        }
        return to > from ? sum / (to - from) : 0;
    }

    /**
     * Writes {@code <name>.csv} and {@code <name>.html} (one SVG line chart per series).
     *
     * @param dir the directory
     * @param name the file base name
     * @throws IOException when writing fails
     */
    public void write(Path dir, String name) throws IOException {
        List<double[]> r = rows();
        StringBuilder csv = new StringBuilder(String.join(",", SERIES)).append('\n');
        for (double[] row : r) {
            for (int i = 0; i < row.length; i++) {
                csv.append(
                        i == 0
                                ? String.format(Locale.ROOT, "%.1f", row[i])
                                : String.format(Locale.ROOT, "%.0f", row[i]));
                csv.append(i + 1 < row.length ? "," : "\n");
            }
        }
        Files.writeString(dir.resolve(name + ".csv"), csv);
        StringBuilder html = new StringBuilder("<!doctype html><html><head><meta charset=\"utf-8\"><title>soak</title>"
                + "<style>body{font-family:sans-serif}</style></head><body><h1>Soak: state and memory over time</h1>");
        for (int c = 1; c < SERIES.size(); c++) {
            html.append(SvgChart.line(SERIES.get(c), r, 0, c));
        }
        html.append("</body></html>\n");
        Files.writeString(dir.resolve(name + ".html"), html);
    }

    @Override
    public void close() {
        stop.set(true);
        thread.interrupt();
        Threads.joinQuietly(thread, 30_000);
        sample();
    }
}
