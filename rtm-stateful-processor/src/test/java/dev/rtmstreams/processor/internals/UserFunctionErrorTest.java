package dev.rtmstreams.processor.internals;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rtmstreams.processor.errors.UserFunctionException;
import java.util.Set;
import org.apache.kafka.streams.errors.TaskCorruptedException;
import org.apache.kafka.streams.errors.TaskMigratedException;
import org.apache.kafka.streams.processor.TaskId;
import org.junit.jupiter.api.Test;

class UserFunctionErrorTest {

    @Test
    void shouldWrapTheUserFunctionsOwnErrorsButPassKafkaStreamsTaskSignalsThrough() {
        IllegalStateException own = new IllegalStateException("boom");
        TaskCorruptedException corrupted = new TaskCorruptedException(Set.of(new TaskId(0, 0)));
        TaskMigratedException migrated = new TaskMigratedException("fenced", new RuntimeException());

        assertThat(OperatorRuntime.userFunctionError("handleInputRows", own))
                .isInstanceOf(UserFunctionException.class)
                .hasCause(own);
        // Kafka Streams re-initializes (corrupted) or migrates the task only when it sees these unwrapped
        assertThat(OperatorRuntime.userFunctionError("handleExpiredTimer", corrupted))
                .isSameAs(corrupted);
        assertThat(OperatorRuntime.userFunctionError("handleInputRows", migrated))
                .isSameAs(migrated);
    }
}
