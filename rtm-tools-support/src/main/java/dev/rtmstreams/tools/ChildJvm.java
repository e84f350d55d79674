package dev.rtmstreams.tools;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A program in a child JVM, run with this JVM's {@code java}: a main class on a class path or a fat jar, its
 * output (stdout and stderr) captured to a log file, ready when its {@link Readiness} says so, stopped
 * gracefully with SIGTERM ({@link #stop()}) or killed with SIGKILL ({@link #kill()}).
 *
 * <pre>{@code
 * int port = Ports.freePort();
 * try (ChildJvm service = ChildJvm.builder()
 *         .jar(Path.of("adattribution-app/target/adattribution-app.jar"))
 *         .args(List.of("run", "--bootstrap-servers", bootstrap, "--http-port", Integer.toString(port)))
 *         .logFile(Path.of("target/service.log"))
 *         .readiness(Readiness.health(port))
 *         .build()
 *         .start()) {
 *     service.awaitReady(Duration.ofSeconds(60));   // GET /health answers 200
 *     service.kill();                                // kill -9
 * }
 * }</pre>
 *
 * <p>One instance runs one process once; to run the program again (a restart after a crash), build another
 * (e.g. with another log file). The log file is truncated at start, unless {@link Builder#appendToLog(boolean)} keeps
 * the output of earlier runs. {@link Builder#argFile(Path)} hands the command to {@code java} in an argument file.
 *
 * <p>Thread-safety: all methods may be called from any thread.
 */
public final class ChildJvm implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ChildJvm.class);

    private final String name;
    private final JavaCommand command;
    private final Map<String, String> environment;
    private final Path workingDir;
    private final ChildLog log;
    private final Readiness readiness;
    private final Duration stopTimeout;

    private final Readiness.Probe probe;

    private ChildProcess process;

    private ChildJvm(Builder b, String name, JavaCommand command, ChildLog log) {
        this.name = name;
        this.command = command;
        this.environment = Map.copyOf(b.environment);
        this.workingDir = b.workingDir;
        this.log = log;
        this.readiness = b.readiness;
        this.probe = readiness.probe(log.file());
        this.stopTimeout = b.stopTimeout;
    }

    /**
     * Returns a builder with defaults: this JVM's class path for a main class, no JVM options, no arguments, this
     * JVM's environment and working directory, a temporary log file, ready as soon as started
     * ({@link Readiness#started()}), stop timeout 30 s.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Launches the process (does not wait for readiness), after writing the {@link Builder#argFile(Path)} when one
     * is set.
     *
     * @return this, for chaining
     * @throws IllegalStateException when already started
     * @throws UncheckedIOException when the argument file cannot be written or the process cannot be started (the
     *     message names the command)
     */
    public synchronized ChildJvm start() {
        if (process != null) {
            throw new IllegalStateException(name + " was already started (pid " + process.pid() + "); build another");
        }
        try {
            log.prepare(probe);
            command.writeArgFile();
            ProcessBuilder pb = new ProcessBuilder(command.command())
                    .redirectErrorStream(true)
                    .redirectOutput(log.redirect());
            if (workingDir != null) {
                pb.directory(workingDir.toFile());
            }
            pb.environment().putAll(environment);
            LOG.info("starting {}: {} (log {})", name, command.line(), log.file());
            process = new ChildProcess(name, pb.start(), stopTimeout);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name + ": " + command.line(), e);
        }
        return this;
    }

    /**
     * Waits until the child is ready by its {@link Readiness}.
     *
     * @param timeout the longest wait; positive
     * @return how long the wait took
     * @throws IllegalArgumentException when the timeout is not positive
     * @throws IllegalStateException when not started, when the process exits while starting, or when the timeout
     *     passes; the message names the command, the readiness check, the timeout and holds the log's tail
     * @throws InterruptedException when interrupted
     */
    public Duration awaitReady(Duration timeout) throws InterruptedException {
        ChildProcess.requirePositive(timeout);
        return process()
                .awaitReady(
                        readiness,
                        probe,
                        timeout,
                        () -> "; command: " + command.line() + "; log " + log.file() + ":\n" + tail(40));
    }

    /**
     * Stops the process gracefully: SIGTERM, then waits up to the stop timeout for it to exit, then SIGKILL.
     *
     * @return the exit code (143 is the JVM's answer to SIGTERM without its own exit code, 137 a SIGKILL)
     * @throws IllegalStateException when not started, or when the process does not die after SIGKILL
     * @throws InterruptedException when interrupted (the process is then killed)
     */
    public int stop() throws InterruptedException {
        return process().stop();
    }

    /**
     * Waits for the process to exit by itself (sends no signal), e.g. a program expected to stop on an error.
     *
     * @param timeout the longest wait; positive
     * @return the exit code, or empty when the process still runs after the timeout
     * @throws IllegalArgumentException when the timeout is not positive
     * @throws IllegalStateException when not started
     * @throws InterruptedException when interrupted
     */
    public OptionalInt awaitExit(Duration timeout) throws InterruptedException {
        ChildProcess.requirePositive(timeout);
        return process().awaitExit(timeout);
    }

    /**
     * Kills the process with SIGKILL ({@code kill -9}: no shutdown hook, no commit, no flush) and waits for it.
     *
     * @return the exit code (137 on Linux)
     * @throws IllegalStateException when not started, or when the process is still alive 30 s after SIGKILL
     * @throws InterruptedException when interrupted
     */
    public int kill() throws InterruptedException {
        return process().kill();
    }

    /** @return whether the process was started and has not exited */
    public synchronized boolean isAlive() {
        return process != null && process.isAlive();
    }

    /**
     * @return the process id
     * @throws IllegalStateException when not started
     */
    public long pid() {
        return process().pid();
    }

    /** @return the label used in log and error messages (never null) */
    public String name() {
        return name;
    }

    /**
     * @return the full command line, {@code java} first (immutable); with an {@link Builder#argFile(Path)}
     *     {@code java @FILE}
     */
    public List<String> command() {
        return command.command();
    }

    /** @return the file that receives the child's stdout and stderr */
    public Path logFile() {
        return log.file();
    }

    /** @return the readiness check */
    public Readiness readiness() {
        return readiness;
    }

    /**
     * Returns the last lines of the child's output.
     *
     * @param lines how many
     * @return the text, or a note when the log cannot be read
     */
    public String tail(int lines) {
        return log.tail(lines);
    }

    /** Stops the process like {@link #stop()} when it runs; does nothing when it was never started or has exited. */
    @Override
    public void close() {
        synchronized (this) {
            if (process == null || !process.isAlive()) {
                return;
            }
        }
        try {
            stop();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private synchronized ChildProcess process() {
        if (process == null) {
            throw new IllegalStateException(name + " is not started");
        }
        return process;
    }

    /**
     * Builds a {@link ChildJvm}; validated in {@link #build()}. Set exactly one of {@link #mainClass(String)} and
     * {@link #jar(Path)}.
     */
    public static final class Builder {

        private String name;
        private String mainClass;
        private String classpath = System.getProperty("java.class.path");
        private Path jar;
        private final List<String> jvmOptions = new ArrayList<>();
        private final List<String> args = new ArrayList<>();
        private final Map<String, String> environment = new LinkedHashMap<>();
        private Path workingDir;
        private Path logFile;
        private boolean appendToLog;
        private Path argFile;
        private Readiness readiness = Readiness.started();
        private Duration stopTimeout = Duration.ofSeconds(30);
        private Path javaExecutable = Path.of(System.getProperty("java.home"), "bin", "java");

        private Builder() {}

        /**
         * @param name a label for log and error messages; default: the main class or the jar's file name
         * @return this
         */
        public Builder name(String name) {
            this.name = Objects.requireNonNull(name, "name");
            return this;
        }

        /**
         * @param mainClass the class whose {@code main} to run, on {@link #classpath(String)}
         * @return this
         */
        public Builder mainClass(String mainClass) {
            this.mainClass = Objects.requireNonNull(mainClass, "mainClass");
            return this;
        }

        /**
         * @param classpath the child's class path for {@link #mainClass(String)}; default this JVM's
         *     {@code java.class.path}
         * @return this
         */
        public Builder classpath(String classpath) {
            this.classpath = Objects.requireNonNull(classpath, "classpath");
            return this;
        }

        /**
         * @param jar a fat jar to run with {@code java -jar}; must exist when built
         * @return this
         */
        public Builder jar(Path jar) {
            this.jar = Objects.requireNonNull(jar, "jar");
            return this;
        }

        /**
         * @param options JVM options, added after the ones given before (e.g. {@code -Xmx1g})
         * @return this
         */
        public Builder jvmOptions(List<String> options) {
            jvmOptions.addAll(List.copyOf(options));
            return this;
        }

        /**
         * @param option one JVM option, added after the ones given before
         * @return this
         */
        public Builder jvmOption(String option) {
            return jvmOptions(List.of(option));
        }

        /**
         * @param arguments program arguments, added after the ones given before
         * @return this
         */
        public Builder args(List<String> arguments) {
            args.addAll(List.copyOf(arguments));
            return this;
        }

        /**
         * @param variable an environment variable of the child (on top of this JVM's environment)
         * @param value its value
         * @return this
         */
        public Builder environment(String variable, String value) {
            Objects.requireNonNull(variable, "variable");
            Objects.requireNonNull(value, "value");
            environment.put(variable, value);
            return this;
        }

        /**
         * @param variables environment variables of the child (on top of this JVM's environment)
         * @return this
         */
        public Builder environment(Map<String, String> variables) {
            variables.forEach(this::environment);
            return this;
        }

        /**
         * @param dir the child's working directory; must exist when built; default this JVM's
         * @return this
         */
        public Builder workingDir(Path dir) {
            this.workingDir = Objects.requireNonNull(dir, "dir");
            return this;
        }

        /**
         * @param file where the child's stdout and stderr go (truncated at start, parents created); default a
         *     temporary file
         * @return this
         */
        public Builder logFile(Path file) {
            this.logFile = Objects.requireNonNull(file, "file");
            return this;
        }

        /**
         * @param append true: the child's output is appended to the log file (e.g. one file across restarts, each
         *     run a new {@link ChildJvm}; {@link Readiness#outputLine(String)} reads this run's output only); default
         *     false: the file is truncated at start
         * @return this
         */
        public Builder appendToLog(boolean append) {
            this.appendToLog = append;
            return this;
        }

        /**
         * @param file a java argument file ({@code java @FILE}) that {@link ChildJvm#start()} writes the JVM options,
         *     class path or jar, main class and arguments into (parents created), so that a long class path stays
         *     clear of the command line's length limit; default none: all on the command line
         * @return this
         */
        public Builder argFile(Path file) {
            this.argFile = Objects.requireNonNull(file, "file");
            return this;
        }

        /**
         * @param check when the child counts as ready; default {@link Readiness#started()}
         * @return this
         */
        public Builder readiness(Readiness check) {
            this.readiness = Objects.requireNonNull(check, "check");
            return this;
        }

        /**
         * @param timeout how long {@link #stop()} waits after SIGTERM before SIGKILL; positive; default 30 s
         * @return this
         */
        public Builder stopTimeout(Duration timeout) {
            this.stopTimeout = Objects.requireNonNull(timeout, "timeout");
            return this;
        }

        /**
         * @param java the {@code java} executable; default this JVM's
         * @return this
         */
        public Builder javaExecutable(Path java) {
            this.javaExecutable = Objects.requireNonNull(java, "java");
            return this;
        }

        /**
         * Validates and builds (does not start).
         *
         * @return the child, not yet started
         * @throws IllegalArgumentException when neither or both of main class and jar are set, the jar or the
         *     working directory does not exist, or the stop timeout is not positive (the message names the value)
         * @throws UncheckedIOException when the default temporary log file cannot be created
         */
        public ChildJvm build() {
            if ((mainClass == null) == (jar == null)) {
                throw new IllegalArgumentException(
                        "set exactly one of mainClass and jar: mainClass=" + mainClass + ", jar=" + jar);
            }
            if (jar != null && !Files.isRegularFile(jar)) {
                throw new IllegalArgumentException("jar not found: " + jar.toAbsolutePath());
            }
            if (workingDir != null && !Files.isDirectory(workingDir)) {
                throw new IllegalArgumentException("working directory not found: " + workingDir.toAbsolutePath());
            }
            if (stopTimeout.isNegative() || stopTimeout.isZero()) {
                throw new IllegalArgumentException("stopTimeout must be positive: " + stopTimeout);
            }
            JavaCommand cmd = JavaCommand.of(javaExecutable, jvmOptions, jar, classpath, mainClass, args, argFile);
            String label = name != null ? name : jar != null ? String.valueOf(jar.getFileName()) : mainClass;
            return new ChildJvm(this, label, cmd, new ChildLog(logFile, appendToLog));
        }
    }
}
