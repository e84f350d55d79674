package dev.rtmstreams.processor.spark;

import static dev.rtmstreams.processor.spark.SparkTwsPort.microBatch;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.processor.OutputMode;
import dev.rtmstreams.processor.StatefulProcessor;
import dev.rtmstreams.processor.TimeMode;
import dev.rtmstreams.processor.TimerValues;
import dev.rtmstreams.processor.TransformWithState;
import dev.rtmstreams.processor.TtlConfig;
import dev.rtmstreams.processor.ValueState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.kafka.common.serialization.Serdes;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Port of Spark's {@code TransformWithValueStateTTLSuite}
 * (sql/core/src/test/scala/org/apache/spark/sql/streaming/TransformWithValueStateTTLSuite.scala): the TTL scenarios of
 * {@link SparkTtlSuiteBase} (Spark's {@code TransformWithStateTTLTest}) on value state, and the suite's own tests.
 *
 * <p>Skipped:
 * <ul>
 *   <li>"verify StateSchemaV3 writes correct SQL schema of key/value and with TTL": Spark's state schema file (column
 *       families and SQL schemas of case-class encoders).</li>
 * </ul>
 */
@DisplayName("TransformWithValueStateTTLSuite")
class SparkTransformWithValueStateTTLSuiteTest extends SparkTtlSuiteBase {

    @Override
    Kind kind() {
        return Kind.VALUE;
    }

    @Override
    String stateTtlMetricName() {
        return "numValueStateWithTTLVars";
    }

    /** Spark's {@code MultipleValueStatesTTLProcessor}: key {@code ttlKey} uses a TTL value state, others not. */
    static final class MultipleValueStatesTtlProcessor extends StatefulProcessor<String, String, String> {
        private ValueState<Integer> withTtl;
        private ValueState<Integer> withoutTtl;

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            withTtl = getHandle().getValueState(STATE, Serdes.Integer(), TtlConfig.of(Duration.ofMinutes(1)));
            withoutTtl = getHandle().getValueState("valueState", Serdes.Integer());
        }

        @Override
        public Iterator<String> handleInputRows(String key, Iterator<String> rows, TimerValues timerValues) {
            ValueState<Integer> state = key.equals("k1") ? withTtl : withoutTtl;
            List<String> out = new ArrayList<>();
            while (rows.hasNext()) {
                String[] row = rows.next().split(",", 2);
                if (row[0].equals("get")) {
                    state.getOption().ifPresent(v -> out.add(v + ",false,-1"));
                } else if (row[0].equals("put")) {
                    state.update(Integer.parseInt(row[1]));
                }
            }
            return out.iterator();
        }
    }

    @Test
    @DisplayName("TransformWithValueStateTTLSuite: validate multiple value states")
    void shouldExpireOnlyTheStateWithTtl() {
        try (SparkTwsPort p = new SparkTwsPort(
                microBatch(TransformWithState.builder(MultipleValueStatesTtlProcessor::new, TimeMode.PROCESSING_TIME))
                        .name("ttl")
                        .outputMode(OutputMode.APPEND)
                        .build())) {
            p.add("k1", "put,1");
            p.add("k2", "put,2");
            p.advance(1000);
            p.check();
            // get both state values, and make sure we get unexpired value
            p.add("k1", "get,");
            p.add("k2", "get,");
            p.advance(1000);
            p.check("k1,1,false,-1", "k2,2,false,-1");
            // ensure ttl values were added correctly, and noTtlKey has no ttl values
            assertThat(ttlValues(p, "k1")).containsExactly("k1,1,true,61000");
            assertThat(ttlValues(p, "k2")).isEmpty();
            p.advance(1000);
            assertThat(ttlIndex(p, "k1")).containsExactly("k1,-1,true,61000");
            assertThat(ttlIndex(p, "k2")).isEmpty();
            p.advance(1000);
            // advance clock after expiry
            p.advance(60 * 1000);
            p.add("k1", "get,");
            p.add("k2", "get,");
            p.advance(1000);
            // validate ttlKey is expired, bot noTtlKey is still present
            p.check("k2,2,false,-1");
            // validate ttl value is removed in the value state column family
            assertThat(ttlValues(p, "k1")).isEmpty();
            p.advance(1000);
        }
    }
}
