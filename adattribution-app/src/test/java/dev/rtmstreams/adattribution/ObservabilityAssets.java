package dev.rtmstreams.adattribution;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The metric names the repository's observability assets use (ops/: Prometheus alert rules, Grafana dashboards), and
 * which of them a {@code /metrics} scrape does not serve; AdAttributionServiceIT checks the running service serves
 * them all.
 */
final class ObservabilityAssets {

    private static final Pattern METRIC = Pattern.compile("\\b(?:rtm|kafka_streams|adattribution)_[A-Za-z0-9_]+");

    private ObservabilityAssets() {}

    /** @return the repository root (the directory holding docker-compose.yml), from a module's working directory */
    static Path repoRoot() {
        Path dir = Path.of(System.getProperty("user.dir")).toAbsolutePath();
        return Files.exists(dir.resolve("docker-compose.yml")) ? dir : dir.getParent();
    }

    /** @return the alert rules and dashboards of {@code root}/ops */
    static List<Path> files(Path root) {
        try (Stream<Path> s = Files.walk(root.resolve("ops"))) {
            return s.filter(p -> p.toString().endsWith("alerts.yml")
                            || p.getParent().endsWith("dashboards")
                                    && p.toString().endsWith(".json"))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return every metric family name used in {@code files} */
    static Set<String> metricNames(List<Path> files) {
        Set<String> names = new TreeSet<>();
        for (Path f : files) {
            try {
                Matcher m = METRIC.matcher(Files.readString(f));
                while (m.find()) {
                    names.add(m.group());
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return names;
    }

    /** @return the names of {@code names} that have no sample in {@code scrape} (Prometheus text format) */
    static Set<String> missing(Set<String> names, String scrape) {
        Set<String> missing = new TreeSet<>();
        for (String name : names) {
            Pattern sample = Pattern.compile("(?m)^" + Pattern.quote(name) + "[{ ]");
            if (!sample.matcher(scrape).find()) {
                missing.add(name);
            }
        }
        return missing;
    }
}
