package dev.rtmstreams.adattribution.model;

import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * A check at start that the client can log in and may use its topics, so that a wrong password or a missing ACL
 * stops a program at once with one clear line ({@link KafkaAccessException}) instead of clients retrying or
 * failing later deep inside a stream thread.
 *
 * <p>It logs in with an admin client ({@code DescribeCluster}), then describes the topics with their authorized
 * operations ({@code DescribeTopics}, KIP-430) and compares them with the operations needed. A topic that does not
 * exist is skipped (creating it, or reporting it missing, is the program's business); a topic the principal may not
 * even describe is reported as such. It needs no right beyond those the program needs anyway.
 */
public final class KafkaAccessCheck {

    private KafkaAccessCheck() {}

    /**
     * Logs in and checks the topics.
     *
     * @param clientConfig {@code bootstrap.servers} plus the client (security) properties; admin client properties
     *     are used, others ignored; not null
     * @param neededByTopic the operation needed on each topic, e.g. {@code READ} for inputs, {@code WRITE} for
     *     outputs; not null
     * @param timeout how long to wait for the cluster; positive
     * @throws KafkaAccessException when the login fails or an operation is not allowed
     * @throws IllegalStateException when the cluster does not answer within the timeout
     */
    public static void verify(Map<String, ?> clientConfig, Map<String, AclOperation> neededByTopic, Duration timeout) {
        Objects.requireNonNull(neededByTopic, "neededByTopic");
        Map<String, Object> config = new HashMap<>();
        clientConfig.forEach((k, v) -> {
            if (AdminClientConfig.configNames().contains(k)) {
                config.put(k, v);
            }
        });
        int timeoutMs = (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, timeoutMs);
        config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, timeoutMs);
        try (Admin admin = Admin.create(config)) {
            verify(admin, clientConfig, neededByTopic, timeout);
        }
    }

    /**
     * Logs in and checks the topics with an admin client the caller owns (and closes).
     *
     * @param admin an admin client of the cluster; not null
     * @param clientConfig the properties {@code admin} was made from: its principal and bootstrap servers name the
     *     cluster in errors; not null
     * @param neededByTopic the operation needed on each topic; not null
     * @param timeout how long to wait for each answer; positive
     * @throws KafkaAccessException when the login fails or an operation is not allowed
     * @throws IllegalStateException when the cluster does not answer within the timeout
     */
    public static void verify(
            Admin admin, Map<String, ?> clientConfig, Map<String, AclOperation> neededByTopic, Duration timeout) {
        Objects.requireNonNull(neededByTopic, "neededByTopic");
        String principal = KafkaClientSettings.principalOf(clientConfig);
        String bootstrap = String.valueOf(clientConfig.get(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG));
        try {
            await(admin.describeCluster().clusterId(), timeout, principal, bootstrap, "log in");
            if (neededByTopic.isEmpty()) {
                return;
            }
            Map<String, KafkaFuture<TopicDescription>> described = admin.describeTopics(
                            neededByTopic.keySet(), new DescribeTopicsOptions().includeAuthorizedOperations(true))
                    .topicNameValues();
            for (Map.Entry<String, AclOperation> need : new LinkedHashMap<>(neededByTopic).entrySet()) {
                String topic = need.getKey();
                TopicDescription d;
                try {
                    d = described.get(topic).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                        continue;
                    }
                    if (e.getCause() instanceof TopicAuthorizationException) {
                        throw KafkaAccessException.denied(
                                principal,
                                "TOPIC",
                                topic,
                                need.getValue().name(),
                                new TopicAuthorizationException("not even DESCRIBE is allowed"));
                    }
                    throw failure(e, principal, bootstrap, "describe topic " + topic);
                }
                Set<AclOperation> allowed = d.authorizedOperations();
                if (allowed != null && !allowed.contains(need.getValue()) && !allowed.contains(AclOperation.ALL)) {
                    Set<String> names = new TreeSet<>();
                    allowed.forEach(op -> names.add(op.name()));
                    throw KafkaAccessException.denied(
                            principal,
                            "TOPIC",
                            topic,
                            need.getValue().name(),
                            new TopicAuthorizationException("allowed: " + names));
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while checking access to Kafka at " + bootstrap, e);
        } catch (TimeoutException e) {
            throw new IllegalStateException("Kafka at " + bootstrap + " did not answer within " + timeout, e);
        }
    }

    private static <T> T await(KafkaFuture<T> future, Duration timeout, String principal, String bootstrap, String what)
            throws InterruptedException, TimeoutException {
        try {
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw failure(e, principal, bootstrap, what);
        }
    }

    private static RuntimeException failure(ExecutionException e, String principal, String bootstrap, String what) {
        return KafkaAccessException.from(e.getCause(), principal, bootstrap)
                .<RuntimeException>map(x -> x)
                .orElseGet(() -> new IllegalStateException(
                        "cannot " + what + " at Kafka " + bootstrap + " as " + principal + ": " + e.getCause(),
                        e.getCause()));
    }
}
