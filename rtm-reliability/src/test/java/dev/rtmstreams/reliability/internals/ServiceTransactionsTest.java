package dev.rtmstreams.reliability.internals;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionState;
import org.junit.jupiter.api.Test;

class ServiceTransactionsTest {

    private static final long NOW = 1_000_000;
    private static final long TIMEOUT = 10_000;

    private static TransactionDescription txn(TransactionState state, long ageMs) {
        return new TransactionDescription(1, state, 7L, 0, TIMEOUT, OptionalLong.of(NOW - ageMs), Set.of());
    }

    @Test
    void shouldReportOnlyTransactionsOpenForLongerThanTheirTimeoutInIdOrder() {
        Map<String, TransactionDescription> d = new LinkedHashMap<>();
        d.put("app-c", txn(TransactionState.PREPARE_COMMIT, TIMEOUT + 1));
        d.put("app-a", txn(TransactionState.ONGOING, TIMEOUT + 500));
        d.put("app-b", txn(TransactionState.ONGOING, TIMEOUT));
        d.put("app-d", txn(TransactionState.COMPLETE_COMMIT, 5 * TIMEOUT));
        d.put("app-e", txn(TransactionState.PREPARE_ABORT, 2 * TIMEOUT));
        d.put(
                "app-f",
                new TransactionDescription(1, TransactionState.EMPTY, 7L, 0, TIMEOUT, OptionalLong.empty(), Set.of()));

        assertThat(ServiceTransactions.hanging(d, NOW))
                .containsExactly(
                        "app-a Ongoing open 10500 ms (timeout 10000 ms)",
                        "app-c PrepareCommit open 10001 ms (timeout 10000 ms)",
                        "app-e PrepareAbort open 20000 ms (timeout 10000 ms)");
    }

    @Test
    void shouldReportNothingWhenEveryOpenTransactionIsYoungerThanItsTimeout() {
        assertThat(ServiceTransactions.hanging(Map.of("app-a", txn(TransactionState.ONGOING, 20)), NOW))
                .isEmpty();
    }
}
