package dev.rtmstreams.join.internals;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Cost of one probe of {@link BufferKeyFilter} as the attribution join makes it: a click asks whether the impressions'
 * buffer may hold its key within the 2-minute window. The filter holds the default horizon (7 minutes) of impressions
 * at {@code keysPerSecond} (one task's share of the input: 4 500 at 10k events/s on two partitions, 22 500 at 50k),
 * 30-second segments; probes cycle through precomputed hashes of absent keys (an impression's probe of the clicks, and
 * most clicks' probes of segments that do not hold their key) and of present ones. Not a CI test. Run:
 * <pre>
 * cd rtm-join
 * mvn -B -q test-compile dependency:build-classpath -Dmdep.outputFile=target/bench.cp -Dmdep.includeScope=test
 * java -cp target/test-classes:target/classes:$(cat target/bench.cp) org.openjdk.jmh.Main BufferKeyFilterBenchmark \
 *     -f 1 -wi 3 -i 5 -w 2s -r 2s
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class BufferKeyFilterBenchmark {

    private static final int PROBES = 1 << 20;
    private static final long WINDOW_MS = 120_000;
    private static final long HORIZON_MS = 420_000;

    @Param({"4500", "22500"})
    int keysPerSecond;

    private BufferKeyFilter filter;
    private final long[] absent = new long[PROBES];
    private final long[] present = new long[PROBES];
    private final long[] absentTimes = new long[PROBES];
    private final long[] presentTimes = new long[PROBES];
    private int next;

    @Setup
    public void setUp() {
        filter = new BufferKeyFilter(BufferKeyFilter.segmentMsFor(0, WINDOW_MS));
        SplittableRandom random = new SplittableRandom(42);
        long keys = HORIZON_MS * keysPerSecond / 1000;
        for (long i = 0; i < keys; i++) {
            filter.add(key("imp-" + i), i * 1000 / keysPerSecond);
        }
        for (int i = 0; i < PROBES; i++) {
            absent[i] = BufferKeyFilter.hash(key("click-" + i));
            absentTimes[i] = WINDOW_MS + random.nextLong(HORIZON_MS - WINDOW_MS);
            long k = random.nextLong(keys);
            present[i] = BufferKeyFilter.hash(key("imp-" + k));
            // the click comes up to the window after its impression
            presentTimes[i] = k * 1000 / keysPerSecond + random.nextLong(WINDOW_MS);
        }
    }

    /** @return whether a key that is in no segment might be held */
    @Benchmark
    public boolean probeAbsent() {
        int i = next++ & (PROBES - 1);
        long t = absentTimes[i];
        return filter.mightContain(absent[i], t - WINDOW_MS, t);
    }

    /** @return whether a key held in one of the probed segments might be held (always true) */
    @Benchmark
    public boolean probePresent() {
        int i = next++ & (PROBES - 1);
        long t = presentTimes[i];
        return filter.mightContain(present[i], t - WINDOW_MS, t);
    }

    private static byte[] key(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
