package dev.rtmstreams.tools;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line of a {@link ChildJvm}: {@code java}, the JVM options, the class path and main class or the jar,
 * the program arguments; with an argument file {@code java @FILE}, the rest written into the file at start.
 *
 * <p>Immutable.
 */
final class JavaCommand {

    private final List<String> command;
    private final Path argFile;
    private final List<String> argFileArgs;

    private JavaCommand(List<String> command, Path argFile, List<String> argFileArgs) {
        this.command = List.copyOf(command);
        this.argFile = argFile;
        this.argFileArgs = List.copyOf(argFileArgs);
    }

    /**
     * Assembles the command line.
     *
     * @param java the {@code java} executable
     * @param jvmOptions JVM options
     * @param jar the jar to run with {@code -jar}, or null for a main class
     * @param classpath the class path of {@code mainClass} (unused with a jar)
     * @param mainClass the main class, or null for a jar
     * @param args the program arguments
     * @param argFile the argument file to hand everything after {@code java} in, or null for none
     * @return the command
     */
    static JavaCommand of(
            Path java,
            List<String> jvmOptions,
            Path jar,
            String classpath,
            String mainClass,
            List<String> args,
            Path argFile) {
        List<String> javaArgs = new ArrayList<>(jvmOptions);
        if (jar != null) {
            javaArgs.add("-jar");
            javaArgs.add(jar.toAbsolutePath().toString());
        } else {
            javaArgs.add("-cp");
            javaArgs.add(classpath);
            javaArgs.add(mainClass);
        }
        javaArgs.addAll(args);
        List<String> cmd = new ArrayList<>();
        cmd.add(java.toString());
        if (argFile != null) {
            cmd.add("@" + argFile.toAbsolutePath());
        } else {
            cmd.addAll(javaArgs);
        }
        return new JavaCommand(cmd, argFile, argFile != null ? javaArgs : List.of());
    }

    /** @return the full command line, {@code java} first (immutable) */
    List<String> command() {
        return command;
    }

    /** @return the command line as one string, for log and error messages */
    String line() {
        return String.join(" ", command);
    }

    /**
     * Writes the argument file, when there is one: one argument a line, quoted, backslashes and quotes escaped
     * (parents created).
     *
     * @throws IOException when it cannot be written
     */
    void writeArgFile() throws IOException {
        if (argFile == null) {
            return;
        }
        List<String> lines = new ArrayList<>();
        for (String arg : argFileArgs) {
            lines.add('"' + arg.replace("\\", "\\\\").replace("\"", "\\\"") + '"');
        }
        Files.createDirectories(argFile.toAbsolutePath().getParent());
        Files.write(argFile, lines, StandardCharsets.UTF_8);
    }
}
