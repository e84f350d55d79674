package dev.rtmstreams.adattribution.ops;

import static org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.REPLACE_THREAD;
import static org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.errors.InvalidTxnStateException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.TransactionAbortedException;
import org.apache.kafka.streams.errors.StreamsException;
import org.junit.jupiter.api.Test;

class StreamThreadFailuresTest {

    /** As Kafka Streams reports the failed commit of a network partition run under exactly-once. */
    private static StreamsException failedCommit() {
        return new StreamsException(
                "Error encountered trying to commit a transaction",
                new InvalidTxnStateException("The producer attempted a transactional operation in an invalid state."));
    }

    @Test
    void shouldReplaceTheThreadWhenItsTransactionalProducerFailedAnywhereInTheCauseChain() {
        StreamThreadFailures failures = new StreamThreadFailures(() -> 0L);

        assertThat(failures.respond(failedCommit())).isEqualTo(REPLACE_THREAD);
        assertThat(failures.respond(new StreamsException(new StreamsException(new TransactionAbortedException()))))
                .isEqualTo(REPLACE_THREAD);
    }

    @Test
    void shouldStopTheServiceOnAnyOtherFailure() {
        StreamThreadFailures failures = new StreamThreadFailures(() -> 0L);

        assertThat(failures.respond(new StreamsException("bug", new IllegalStateException("x"))))
                .isEqualTo(SHUTDOWN_CLIENT);
        assertThat(failures.respond(new SerializationException("bad"))).isEqualTo(SHUTDOWN_CLIENT);
        assertThat(failures.respond(new NullPointerException())).isEqualTo(SHUTDOWN_CLIENT);
    }

    @Test
    void shouldStopTheServiceWhenTooManyThreadsWereReplacedWithinTheWindowAndReplaceAgainOnceTheyAged() {
        AtomicLong now = new AtomicLong(1_000L);
        StreamThreadFailures failures = new StreamThreadFailures(now::get);
        for (int i = 0; i < StreamThreadFailures.MAX_REPLACEMENTS; i++) {
            assertThat(failures.respond(new ProducerFencedException("fenced"))).isEqualTo(REPLACE_THREAD);
            now.addAndGet(1_000_000L);
        }
        assertThat(failures.respond(failedCommit())).isEqualTo(SHUTDOWN_CLIENT);

        // the first replacement leaves the window: one more is allowed
        now.set(1_000L + StreamThreadFailures.WINDOW.toNanos());
        assertThat(failures.respond(failedCommit())).isEqualTo(REPLACE_THREAD);
        assertThat(failures.respond(failedCommit())).isEqualTo(SHUTDOWN_CLIENT);
    }

    @Test
    void shouldEndTheCauseWalkOnASelfCausedException() {
        Exception self = new Exception("loop") {
            @Override
            public synchronized Throwable getCause() {
                return this;
            }
        };
        assertThat(StreamThreadFailures.isTransactionFailure(self)).isFalse();
    }
}
