package dev.rtmstreams.topology.internals.compat;

import dev.rtmstreams.processor.spi.KafkaInternalHook;
import dev.rtmstreams.processor.spi.KafkaInternalHooks;
import dev.rtmstreams.processor.spi.KafkaStreamsVersion;
import dev.rtmstreams.topology.KafkaStreamsCompatibilityException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.ServiceLoader;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every Kafka Streams internal the rtm-streams libraries on the classpath rely on ({@link KafkaInternalHook}s found
 * through {@link ServiceLoader}), checked when {@code RtmStreams} is built. A hook fails when its probe finds the
 * internal missing or changed ({@link #verify}), or when a hook whose effect can be seen did not take effect once
 * Kafka Streams created its clients ({@link #verifyEffect}). Then, per {@link Mode}: {@link
 * KafkaStreamsCompatibilityException} naming the hook, the version found and the supported range, or a WARN naming
 * the feature that is unavailable.
 *
 * <p>Tests replace a hook's probe ({@link #withProbe}) or effect check ({@link #withEffect}) to show what a missing
 * internal does; the check itself runs the same code.
 */
public final class HookRegistry {

    private static final Logger LOG = LoggerFactory.getLogger(HookRegistry.class);

    /** What a failed hook does, from {@link KafkaStreamsCompatibilityException#CHECK_CONFIG}. */
    public enum Mode {
        /** Throw {@link KafkaStreamsCompatibilityException} (the default). */
        FAIL,
        /** Log a WARN naming the unavailable feature and go on. */
        WARN;

        /**
         * @param value the property's value; null for the default
         * @return the mode
         * @throws IllegalArgumentException when the value is neither {@code fail} nor {@code warn}
         */
        public static Mode parse(Object value) {
            if (value == null) {
                return FAIL;
            }
            String s = value.toString().trim().toLowerCase(Locale.ROOT);
            return switch (s) {
                case "fail" -> FAIL;
                case "warn" -> WARN;
                default ->
                    throw new IllegalArgumentException(
                            KafkaStreamsCompatibilityException.CHECK_CONFIG + " must be fail or warn: " + value);
            };
        }
    }

    private final List<KafkaInternalHook> hooks;
    private final Map<String, KafkaInternalHook.Probe> effects;
    private final Supplier<String> version;

    private HookRegistry(
            List<KafkaInternalHook> hooks, Map<String, KafkaInternalHook.Probe> effects, Supplier<String> version) {
        this.hooks = List.copyOf(hooks);
        this.effects = Map.copyOf(effects);
        this.version = version;
    }

    /** @return the hooks of every rtm-streams module on the classpath, in discovery order */
    public static HookRegistry discover() {
        List<KafkaInternalHook> found = new ArrayList<>();
        for (KafkaInternalHooks provider :
                ServiceLoader.load(KafkaInternalHooks.class, HookRegistry.class.getClassLoader())) {
            found.addAll(provider.hooks());
        }
        return new HookRegistry(found, Map.of(), KafkaStreamsVersion::current);
    }

    /** @return the hooks, unmodifiable */
    public List<KafkaInternalHook> hooks() {
        return hooks;
    }

    /**
     * @param name a hook's name
     * @param probe the probe to run instead of its own
     * @return a registry where that hook has the given probe
     * @throws IllegalArgumentException when no hook has that name
     */
    public HookRegistry withProbe(String name, KafkaInternalHook.Probe probe) {
        hook(name);
        List<KafkaInternalHook> replaced = new ArrayList<>();
        for (KafkaInternalHook h : hooks) {
            replaced.add(h.name().equals(name) ? h.withProbe(probe) : h);
        }
        return new HookRegistry(replaced, effects, version);
    }

    /**
     * @param name a hook's name
     * @param effect the effect check to run instead of the one {@link #verifyEffect} is given
     * @return a registry where that hook's effect is checked with {@code effect}
     * @throws IllegalArgumentException when no hook has that name
     */
    public HookRegistry withEffect(String name, KafkaInternalHook.Probe effect) {
        hook(name);
        Map<String, KafkaInternalHook.Probe> m = new HashMap<>(effects);
        m.put(name, Objects.requireNonNull(effect, "effect"));
        return new HookRegistry(hooks, m, version);
    }

    /**
     * Runs every hook's probe.
     *
     * @param mode what a failed hook does
     * @return the features unavailable (empty when every hook is there; non-empty only in {@link Mode#WARN})
     * @throws KafkaStreamsCompatibilityException in {@link Mode#FAIL} when a probe fails, naming every failed hook
     */
    public List<String> verify(Mode mode) {
        List<KafkaInternalHook> failed = new ArrayList<>();
        List<Throwable> causes = new ArrayList<>();
        for (KafkaInternalHook h : hooks) {
            Throwable t = h.check();
            if (t != null) {
                failed.add(h);
                causes.add(t);
            }
        }
        if (failed.isEmpty()) {
            String v = version.get();
            if (!KafkaStreamsVersion.isSupported(v)) {
                LOG.warn(
                        "Kafka Streams {} is outside the versions rtm-streams is tested with ({}); its {} internal"
                                + " hooks were found",
                        v,
                        KafkaStreamsVersion.SUPPORTED_RANGE,
                        hooks.size());
            }
            return List.of();
        }
        return failed(failed, causes, mode);
    }

    /**
     * Checks that a hook took effect (e.g. Kafka Streams instantiated the consumer wrapper once it created its
     * clients).
     *
     * @param name the hook's name
     * @param effect throws when the hook did not take effect, saying what was seen
     * @param mode what a failed hook does
     * @return the features unavailable (empty when it took effect)
     * @throws KafkaStreamsCompatibilityException in {@link Mode#FAIL} when it did not take effect
     * @throws IllegalArgumentException when no hook has that name
     */
    public List<String> verifyEffect(String name, KafkaInternalHook.Probe effect, Mode mode) {
        KafkaInternalHook h = hook(name).withProbe(effects.getOrDefault(name, effect));
        Throwable t = h.check();
        return t == null ? List.of() : failed(List.of(h), List.of(t), mode);
    }

    private List<String> failed(List<KafkaInternalHook> failed, List<Throwable> causes, Mode mode) {
        String v = version.get();
        List<String> names = new ArrayList<>();
        List<String> features = new ArrayList<>();
        List<String> details = new ArrayList<>();
        for (int i = 0; i < failed.size(); i++) {
            names.add(failed.get(i).name());
            features.add(failed.get(i).feature());
            details.add(String.valueOf(causes.get(i)));
        }
        if (mode == Mode.FAIL) {
            throw new KafkaStreamsCompatibilityException(
                    names, features, v, KafkaStreamsVersion.SUPPORTED_RANGE, details, causes.get(0));
        }
        for (int i = 0; i < failed.size(); i++) {
            LOG.warn(
                    "{}=warn: Kafka Streams {} (supported: {}) lacks the internal hook {} of {}: {} unavailable ({})",
                    KafkaStreamsCompatibilityException.CHECK_CONFIG,
                    v,
                    KafkaStreamsVersion.SUPPORTED_RANGE,
                    names.get(i),
                    failed.get(i).module(),
                    features.get(i),
                    details.get(i));
        }
        return features;
    }

    private KafkaInternalHook hook(String name) {
        return hooks.stream()
                .filter(h -> h.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no Kafka internal hook named " + name + "; known: "
                        + hooks.stream().map(KafkaInternalHook::name).toList()));
    }
}
