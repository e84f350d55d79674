import dev.rtmstreams.testkit.KafkaBrokerProcess;

/**
 * Starts one broker in its own JVM (on another Kafka version's class path if given), prints its bootstrap address and
 * keeps it running until this JVM is stopped (Ctrl-C or SIGTERM). For running the chaos scenarios against a broker of
 * another version than the service's clients (docs/brokers.md):
 *
 * <pre>
 * java -cp load-generator/target/load-generator.jar docs/bench/BrokerHold.java PORT [CLASSPATH]
 *   PORT       the broker's listener port
 *   CLASSPATH  the broker JVM's class path (default: this JVM's), e.g. a Kafka 3.9 broker's
 * </pre>
 */
public class BrokerHold {
  public static void main(String[] a) throws Exception {
    if (a.length != 1 && a.length != 2) {
      System.err.println("usage: BrokerHold PORT [BROKER_CLASSPATH]");
      System.exit(2);
    }
    var b = KafkaBrokerProcess.builder().port(Integer.parseInt(a[0]));
    if (a.length == 2) b.classpath(a[1]);
    KafkaBrokerProcess broker = b.build().start();
    Runtime.getRuntime().addShutdownHook(new Thread(broker::close));
    System.out.println("broker ready: " + broker.bootstrapServers());
    Thread.currentThread().join();
  }
}
