import dev.rtmstreams.testkit.KafkaBrokerProcess;
import java.time.Duration;
import java.util.*;
import java.util.concurrent.atomic.*;
import org.apache.kafka.clients.admin.*;
import org.apache.kafka.clients.consumer.*;
import org.apache.kafka.clients.producer.*;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.*;
import org.HdrHistogram.Histogram;

/**
 * A transactional producer alone against an embedded broker: commits a transaction every INTERVAL ms while sending a
 * record every 0.5 ms, and reports the commit's parts (flush, sendOffsetsToTransaction, commitTransaction) and a
 * read_committed reader's latency (after 5 s of warm-up). Evidence for docs/exactly-once.md "Why the producer lingers".
 *
 * <pre>
 * java -cp load-generator/target/load-generator.jar docs/bench/TransactionProbe.java BACKOFF SECONDS INTERVAL LINGER [CLASSPATH]
 *   BACKOFF    the broker's add.partitions.to.txn.retry.backoff.ms, or "default" (20 ms)
 *   SECONDS    how long to run; INTERVAL transaction interval in ms; LINGER the producer's linger.ms
 *   CLASSPATH  the broker JVM's class path (default: this JVM's), e.g. a Kafka 3.9 broker's (docs/brokers.md)
 * </pre>
 */
public class TransactionProbe {
  public static void main(String[] a) throws Exception {
    if (a.length != 4 && a.length != 5) {
      System.err.println("usage: TransactionProbe BACKOFF|default SECONDS INTERVAL_MS LINGER_MS [BROKER_CLASSPATH]");
      System.exit(2);
    }
    String backoff = a[0]; int seconds = Integer.parseInt(a[1]); long intervalMs = Long.parseLong(a[2]);
    var b = KafkaBrokerProcess.builder();
    if (!backoff.equals("default")) b.brokerProperty("add.partitions.to.txn.retry.backoff.ms", backoff);
    if (a.length == 5) b.classpath(a[4]);
    try (KafkaBrokerProcess broker = b.build().start()) {
      Map<String,Object> c = new HashMap<>(broker.clientConfig());
      try (Admin admin = Admin.create(c)) {
        admin.createTopics(List.of(new NewTopic("out", 4, (short)1), new NewTopic("in", 4, (short)1))).all().get();
      }
      Map<String,Object> pc = new HashMap<>(c);
      pc.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "tx-1"); pc.put(ProducerConfig.LINGER_MS_CONFIG, Integer.parseInt(a[3]));
      Map<String,Object> cc = new HashMap<>(c);
      cc.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"); cc.put(ConsumerConfig.GROUP_ID_CONFIG, "reader");
      cc.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
      Histogram e2e = new Histogram(3), flush = new Histogram(3), offs = new Histogram(3), end = new Histogram(3);
      AtomicBoolean stop = new AtomicBoolean(); AtomicLong warmEnd = new AtomicLong(Long.MAX_VALUE);
      Thread reader = new Thread(() -> {
        try (var cons = new KafkaConsumer<>(cc, new ByteArrayDeserializer(), new LongDeserializer())) {
          cons.subscribe(List.of("out"));
          while (!stop.get()) for (var r : cons.poll(Duration.ofMillis(100))) {
            long now = System.nanoTime(); if (now > warmEnd.get()) e2e.recordValue((now - r.value()) / 1000);
          }
        }
      });
      reader.start();
      try (var p = new KafkaProducer<>(pc, new ByteArraySerializer(), new LongSerializer())) {
        p.initTransactions();
        long startAll = System.nanoTime(); warmEnd.set(startAll + 5_000_000_000L);
        long offset = 0; int i = 0;
        while (System.nanoTime() - startAll < seconds * 1_000_000_000L) {
          p.beginTransaction();
          long txStart = System.nanoTime();
          while (System.nanoTime() - txStart < intervalMs * 1_000_000L) {
            p.send(new ProducerRecord<>("out", i++ % 4, null, System.nanoTime()));
            Thread.sleep(0, 500_000);
          }
          boolean rec = System.nanoTime() > warmEnd.get();
          long t0 = System.nanoTime(); p.flush();
          long t1 = System.nanoTime(); p.sendOffsetsToTransaction(Map.of(new TopicPartition("in", 0), new OffsetAndMetadata(++offset)), new ConsumerGroupMetadata("g"));
          long t2 = System.nanoTime(); p.commitTransaction();
          long t3 = System.nanoTime();
          if (rec) { flush.recordValue((t1-t0)/1000); offs.recordValue((t2-t1)/1000); end.recordValue((t3-t2)/1000); }
        }
      }
      Thread.sleep(500); stop.set(true); reader.join();
      System.out.printf("backoff=%s interval=%dms linger=%sms commits=%d%n", backoff, intervalMs, a[3], flush.getTotalCount());
      for (var e : new Object[][]{{"flush",flush},{"offsets",offs},{"endTxn",end},{"e2e",e2e}}) {
        Histogram h = (Histogram)e[1];
        System.out.printf("  %-8s mean %.2f p50 %.2f p99 %.2f ms%n", e[0], h.getMean()/1000, h.getValueAtPercentile(50)/1000.0, h.getValueAtPercentile(99)/1000.0);
      }
    }
  }
}
