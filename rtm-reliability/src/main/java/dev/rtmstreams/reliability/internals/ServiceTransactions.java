package dev.rtmstreams.reliability.internals;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListTransactionsOptions;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.admin.TransactionState;

/**
 * The service's transactions (exactly-once: one transactional producer per stream thread, its id starting with the
 * application id) as the cluster's transaction coordinators describe them ({@code listTransactions},
 * {@code describeTransactions}): the moment one of them is being committed, and the transactions left open for longer
 * than their timeout.
 */
final class ServiceTransactions implements AutoCloseable {

    /** The states of a transaction that is not finished. */
    static final Set<TransactionState> OPEN =
            Set.of(TransactionState.ONGOING, TransactionState.PREPARE_COMMIT, TransactionState.PREPARE_ABORT);

    /** How long one admin request may take: short, the coordinators are polled in a tight loop. */
    private static final int REQUEST_TIMEOUT_MS = 2_000;

    /**
     * A transaction of the service as seen at one moment.
     *
     * @param transactionalId its id
     * @param coordinator the node of its coordinator
     * @param state its state
     * @param seenNanos when the description arrived ({@link System#nanoTime()})
     * @param polls descriptions requested until then
     */
    record Seen(String transactionalId, int coordinator, TransactionState state, long seenNanos, int polls) {}

    private final Admin admin;
    private final String prefix;

    /**
     * @param adminConfig the cluster's client configuration
     * @param applicationId the service's application id, which its transactional ids start with
     */
    ServiceTransactions(Map<String, Object> adminConfig, String applicationId) {
        Map<String, Object> config = new HashMap<>(adminConfig);
        config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, REQUEST_TIMEOUT_MS);
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, REQUEST_TIMEOUT_MS);
        config.put(AdminClientConfig.SOCKET_CONNECTION_SETUP_TIMEOUT_MS_CONFIG, 1_000);
        config.put(AdminClientConfig.SOCKET_CONNECTION_SETUP_TIMEOUT_MAX_MS_CONFIG, 2_000);
        this.admin = Admin.create(config);
        this.prefix = applicationId + "-";
    }

    /**
     * Polls the coordinators of the service's transactions, without pause, until one of them is in
     * {@code PrepareCommit}: the commit is under way (the coordinator has logged its decision and is writing the commit
     * markers). Falls back to the last {@code Ongoing} transaction seen (records written, its commit still to come)
     * when no commit was caught within the time.
     *
     * @param withinNanos the longest the polling goes on
     * @return the transaction; never null
     * @throws IllegalStateException if no open transaction of the service was seen at all
     */
    Seen awaitCommit(long withinNanos) {
        long deadline = System.nanoTime() + withinNanos;
        Seen ongoing = null;
        int polls = 0;
        List<String> ids = List.of();
        long idsNanos = 0;
        while (System.nanoTime() < deadline) {
            try {
                if (ids.isEmpty() || System.nanoTime() - idsNanos > 1_000_000_000L) {
                    ids = ids();
                    idsNanos = System.nanoTime();
                }
                if (ids.isEmpty()) {
                    Thread.sleep(50);
                    continue;
                }
                Map<String, TransactionDescription> d =
                        admin.describeTransactions(ids).all().get(REQUEST_TIMEOUT_MS, TimeUnit.MILLISECONDS);
                long now = System.nanoTime();
                polls++;
                for (String id : ids) {
                    TransactionDescription t = d.get(id);
                    Seen seen = new Seen(id, t.coordinatorId(), t.state(), now, polls);
                    if (t.state() == TransactionState.PREPARE_COMMIT) {
                        return seen;
                    }
                    if (t.state() == TransactionState.ONGOING) {
                        ongoing = seen;
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while polling the service's transactions", e);
            } catch (Exception e) {
                // a coordinator moving or a request timing out: poll on
            }
        }
        if (ongoing == null) {
            throw new IllegalStateException("no open transaction of the service (transactional ids " + prefix
                    + "*) within " + withinNanos / 1_000_000 + " ms: is it running under exactly-once?");
        }
        return ongoing;
    }

    /**
     * The transactions of the cluster (the service's and any other) left open for longer than their timeout: the
     * coordinator neither completed nor aborted them.
     *
     * @return {@code <id> <state> open <ms> ms (timeout <ms> ms)} per such transaction; empty when there is none
     * @throws IllegalStateException if the cluster does not answer
     */
    List<String> hanging() {
        try {
            List<String> open = admin
                    .listTransactions(new ListTransactionsOptions().filterStates(OPEN))
                    .all()
                    .get(REQUEST_TIMEOUT_MS, TimeUnit.MILLISECONDS)
                    .stream()
                    .map(TransactionListing::transactionalId)
                    .sorted()
                    .toList();
            if (open.isEmpty()) {
                return List.of();
            }
            return hanging(
                    admin.describeTransactions(open).all().get(REQUEST_TIMEOUT_MS, TimeUnit.MILLISECONDS),
                    System.currentTimeMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while listing transactions", e);
        } catch (Exception e) {
            throw new IllegalStateException("cannot list the cluster's transactions: " + e, e);
        }
    }

    /**
     * The judgement of {@link #hanging()} on descriptions.
     *
     * @param descriptions transactions by id
     * @param nowMs the wall-clock time to measure their age at (the brokers run on this machine)
     * @return {@code <id> <state> open <ms> ms (timeout <ms> ms)} per transaction open for longer than its timeout, in
     *     id order
     */
    static List<String> hanging(Map<String, TransactionDescription> descriptions, long nowMs) {
        List<String> out = new ArrayList<>();
        descriptions.keySet().stream().sorted().forEach(id -> {
            TransactionDescription t = descriptions.get(id);
            if (OPEN.contains(t.state()) && t.transactionStartTimeMs().isPresent()) {
                long age = nowMs - t.transactionStartTimeMs().getAsLong();
                if (age > t.transactionTimeoutMs()) {
                    out.add(id + " " + t.state() + " open " + age + " ms (timeout " + t.transactionTimeoutMs()
                            + " ms)");
                }
            }
        });
        return out;
    }

    /** @return the service's transactional ids the coordinators know */
    private List<String> ids() throws Exception {
        return admin.listTransactions().all().get(REQUEST_TIMEOUT_MS, TimeUnit.MILLISECONDS).stream()
                .map(TransactionListing::transactionalId)
                .filter(id -> id.startsWith(prefix))
                .sorted()
                .toList();
    }

    @Override
    public void close() {
        admin.close();
    }
}
