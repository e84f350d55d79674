package dev.rtmstreams.tools.cli;

import picocli.CommandLine.Option;

/**
 * {@code --rate}: events per second of a paced load, as a picocli mixin; each command gives its own default.
 *
 * <pre>{@code
 * @Mixin RateOption rate = new RateOption(2000);
 * }</pre>
 */
public final class RateOption {

    @Option(
            names = "--rate",
            paramLabel = "EVENTS_PER_S",
            description = "Events per second of the load (all kinds together). Default: ${DEFAULT-VALUE}.")
    private double rate;

    /** With the default 1000 events per second. */
    public RateOption() {
        this(1000);
    }

    /** @param defaultRate the rate when the option is not given */
    public RateOption(double defaultRate) {
        this.rate = defaultRate;
    }

    /** @return the rate given, or the default (not validated: the command checks it is positive) */
    public double rate() {
        return rate;
    }
}
