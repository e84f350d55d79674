package dev.rtmstreams.reliability.internals;

import java.time.Duration;
import java.util.Optional;

/**
 * Undecodable records mixed into the inputs over the whole load (poison): sent from before the load starts until it
 * ends, then a wait (up to 60 s) until each has reached the dead-letter topic. {@link #figures()} tells the checker
 * what was sent and dead-lettered.
 */
final class PoisonFault implements Fault {

    private static final Duration DEAD_LETTER_TIMEOUT = Duration.ofSeconds(60);

    private final double rate;
    private PoisonInjector injector;
    private ChaosReport.PoisonFigures figures;

    /** @param rate poison records per second */
    PoisonFault(double rate) {
        this.rate = rate;
    }

    @Override
    public void beforeLoad(RunContext run) {
        injector = new PoisonInjector(run.kafka(), run.topics(), rate);
        injector.start();
    }

    @Override
    public Optional<Strike> strike() {
        return Optional.empty();
    }

    @Override
    public void afterLoad(RunContext run) throws InterruptedException {
        injector.stopSending();
        injector.awaitDeadLettered(DEAD_LETTER_TIMEOUT);
        injector.close();
        figures = injector.figures();
    }

    /**
     * @return the poison records sent and dead-lettered
     * @throws IllegalStateException before {@link #afterLoad(RunContext)}
     */
    ChaosReport.PoisonFigures figures() {
        if (figures == null) {
            throw new IllegalStateException("the poison figures are known after the load");
        }
        return figures;
    }
}
