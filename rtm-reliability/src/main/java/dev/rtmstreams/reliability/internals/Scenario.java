package dev.rtmstreams.reliability.internals;

import java.util.Locale;

/** The chaos scenarios, by their command-line names. */
public enum Scenario {
    /** kill -9 the service under load, restart it with its state directory. */
    SERVICE_CRASH,
    /** kill -9 while request/ack timers are pending; they fire after restart; matches straddling the crash emitted. */
    PENDING_TIMERS,
    /**
     * kill -9 under load, down for twice the correlation window while the load goes on, restart: requests processed
     * before the kill still match their acks produced during the outage (zero missing).
     */
    LONG_OUTAGE,
    /** kill -9, wipe the state directory, restart: restore from changelogs, no expired state, no watermark regress. */
    STATE_WIPE,
    /** stop the broker process under load and start it again. */
    BROKER_RESTART,
    /** 1% undecodable records mixed into the inputs. */
    POISON,
    /** two instances; one is killed; the survivor takes over its tasks. */
    INSTANCE_FAILOVER,
    /** a long steady run, sampling state and memory. */
    SOAK;

    /** @return the command-line name, e.g. {@code service-crash} */
    public String cliName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /**
     * Parses a command-line name.
     *
     * @param name e.g. {@code service-crash}
     * @return the scenario
     * @throws IllegalArgumentException naming the value and the valid names
     */
    public static Scenario parse(String name) {
        for (Scenario s : values()) {
            if (s.cliName().equals(name)) {
                return s;
            }
        }
        StringBuilder valid = new StringBuilder();
        for (Scenario s : values()) {
            valid.append(valid.length() == 0 ? "" : ", ").append(s.cliName());
        }
        throw new IllegalArgumentException("--scenario must be one of " + valid + ": '" + name + "'");
    }
}
