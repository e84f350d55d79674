package dev.rtmstreams.processor.spi.internals.compat;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.List;

/**
 * Reads Kafka's version from its {@code AppInfoParser}, which is {@code org.apache.kafka.common.utils.AppInfoParser}
 * up to Kafka 4.3 and {@code org.apache.kafka.common.utils.internals.AppInfoParser} from 4.4 on. One shim per
 * location; the first whose class is present is used. A Kafka with neither gives {@link #UNKNOWN} (the
 * {@code kafka-streams.version} hook then fails, so the user learns of it when {@code RtmStreams} is built).
 */
public final class AppInfoShim {

    /** The version said when Kafka's version record cannot be read. */
    public static final String UNKNOWN = "unknown";

    /** Where {@code AppInfoParser} lives, newest Kafka first. */
    static final List<String> LOCATIONS = List.of(
            "org.apache.kafka.common.utils.internals.AppInfoParser", // Kafka 4.4
            "org.apache.kafka.common.utils.AppInfoParser"); // Kafka 4.1 to 4.3

    private static final AppInfoShim CURRENT = select(LOCATIONS);

    private final String className;
    private final MethodHandle getVersion;

    private AppInfoShim(String className, MethodHandle getVersion) {
        this.className = className;
        this.getVersion = getVersion;
    }

    /** @return the shim for the Kafka on the classpath */
    public static AppInfoShim current() {
        return CURRENT;
    }

    /**
     * @param locations class names to try, in order
     * @return the shim of the first present class with a static {@code String getVersion()}, or one that knows no
     *     class
     */
    static AppInfoShim select(List<String> locations) {
        for (String name : locations) {
            try {
                Class<?> c = Class.forName(name, false, AppInfoShim.class.getClassLoader());
                MethodHandle h =
                        MethodHandles.publicLookup().findStatic(c, "getVersion", MethodType.methodType(String.class));
                return new AppInfoShim(name, h);
            } catch (ReflectiveOperationException | LinkageError e) {
                // not this Kafka version's location: try the next
            }
        }
        return new AppInfoShim(null, null);
    }

    /** @return the class the version is read from, or null when none of {@link #LOCATIONS} is present */
    public String className() {
        return className;
    }

    /** @return Kafka's version, or {@link #UNKNOWN} */
    public String version() {
        if (getVersion == null) {
            return UNKNOWN;
        }
        try {
            Object v = getVersion.invoke();
            return v == null ? UNKNOWN : v.toString();
        } catch (Throwable e) {
            return UNKNOWN;
        }
    }

    /**
     * @throws IllegalStateException when no {@code AppInfoParser} was found
     */
    public void verify() {
        if (className == null) {
            throw new IllegalStateException("no AppInfoParser among " + LOCATIONS);
        }
    }
}
