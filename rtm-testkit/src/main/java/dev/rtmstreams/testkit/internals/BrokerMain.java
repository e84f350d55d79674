package dev.rtmstreams.testkit.internals;

import java.util.Optional;

/**
 * Entry point of the child broker JVM. It watches the parent JVM and halts when the parent is
 * gone (so a crashed test never leaves a broker behind), formats the log directories when asked
 * ({@code kafka.tools.StorageTool format}, in this JVM to save a JVM start), then runs
 * {@code kafka.Kafka}.
 *
 * <p>Arguments: {@code <parentPid> <server.properties> [<clusterIdToFormatWith>]}.
 */
public final class BrokerMain {

    private BrokerMain() {}

    /**
     * Runs the child.
     *
     * @param args parent pid, config file, optional cluster id for formatting, then SCRAM credentials to add when
     *     formatting ({@code kafka-storage format --add-scram} values)
     */
    public static void main(String[] args) {
        long parentPid = Long.parseLong(args[0]);
        Optional<ProcessHandle> parent = ProcessHandle.of(parentPid);
        if (parent.isEmpty()) {
            Runtime.getRuntime().halt(3);
        }
        parent.get().onExit().thenRun(() -> Runtime.getRuntime().halt(4));
        String config = args[1];
        if (args.length > 2) {
            java.util.List<String> format = new java.util.ArrayList<>(
                    java.util.List.of("format", "-t", args[2], "-c", config, "--ignore-formatted"));
            for (int i = 3; i < args.length; i++) {
                format.add("--add-scram"); // e.g. SCRAM-SHA-512=[name=alice,password=alice-secret]
                format.add(args[i]);
            }
            int code = kafka.tools.StorageTool.execute(format.toArray(new String[0]), System.out);
            if (code != 0) {
                System.out.println("rtm-testkit: formatting failed with exit code " + code);
                System.out.flush();
                Runtime.getRuntime().halt(code);
            }
        }
        kafka.Kafka.main(new String[] {config});
    }
}
