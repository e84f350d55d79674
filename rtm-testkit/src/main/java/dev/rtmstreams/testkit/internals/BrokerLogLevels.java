package dev.rtmstreams.testkit.internals;

import java.lang.reflect.Method;
import java.util.List;
import org.slf4j.ILoggerFactory;
import org.slf4j.LoggerFactory;

/**
 * Quiets the in-process broker's loggers (they log hundreds of INFO lines per start). Works when
 * logback is the slf4j binding, through reflection so that logback stays optional; a level set
 * explicitly in the application's logback configuration is left alone.
 */
public final class BrokerLogLevels {

    /** Logger names used only by the broker and controller, never by clients or Kafka Streams. */
    static final List<String> BROKER_LOGGERS = List.of(
            "kafka",
            "state.change.logger",
            "org.apache.kafka.server",
            "org.apache.kafka.controller",
            "org.apache.kafka.raft",
            "org.apache.kafka.metadata",
            "org.apache.kafka.image",
            "org.apache.kafka.storage",
            "org.apache.kafka.coordinator",
            "org.apache.kafka.common.test",
            "org.apache.kafka.queue",
            "org.apache.kafka.snapshot",
            "org.apache.kafka.security",
            "org.apache.kafka.network",
            "org.apache.kafka.timeline",
            "org.apache.kafka.deferred",
            "org.apache.kafka.logger");

    private BrokerLogLevels() {}

    /**
     * Sets {@code level} on every broker logger that has no level of its own.
     *
     * @return whether the binding was recognised (logback)
     */
    public static boolean apply(String level) {
        ILoggerFactory factory = LoggerFactory.getILoggerFactory();
        if (!factory.getClass().getName().equals("ch.qos.logback.classic.LoggerContext")) {
            return false;
        }
        try {
            ClassLoader loader = factory.getClass().getClassLoader();
            Class<?> levelClass = Class.forName("ch.qos.logback.classic.Level", true, loader);
            Object target = levelClass.getMethod("toLevel", String.class).invoke(null, level);
            for (String name : BROKER_LOGGERS) {
                Object logger = factory.getLogger(name);
                Method getLevel = logger.getClass().getMethod("getLevel");
                if (getLevel.invoke(logger) == null) {
                    logger.getClass().getMethod("setLevel", levelClass).invoke(logger, target);
                }
            }
            return true;
        } catch (ReflectiveOperationException | RuntimeException e) {
            LoggerFactory.getLogger(BrokerLogLevels.class).debug("cannot set broker log levels", e);
            return false;
        }
    }
}
