package dev.rtmstreams.tools.cli;

import picocli.CommandLine.Option;

/**
 * {@code --seed}: the random seed of a generated workload (default 42), as a picocli mixin shared by the tools that
 * generate one (the demo, the load generator, the chaos runner).
 *
 * <pre>{@code
 * @Mixin SeedOption seed = new SeedOption();
 * ... seed.seed() ...
 * }</pre>
 */
public final class SeedOption {

    @Option(
            names = "--seed",
            description = "Random seed of the workload; same seed, same events. Default: ${DEFAULT-VALUE}.")
    private long seed = 42;

    /** @return the seed given, or 42 */
    public long seed() {
        return seed;
    }
}
