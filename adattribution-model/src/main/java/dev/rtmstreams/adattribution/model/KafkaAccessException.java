package dev.rtmstreams.adattribution.model;

import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TransactionalIdAuthorizationException;

/**
 * Kafka refused the client: its login failed ({@link Kind#AUTHENTICATION}: wrong user or password, untrusted
 * certificate) or an ACL is missing ({@link Kind#AUTHORIZATION}). Neither goes away by retrying, so the service, the
 * load generator and the chaos runner stop with this message. The message is one line naming the principal and, for
 * a missing ACL, the resource and the operation; it never holds a secret.
 */
public final class KafkaAccessException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** What Kafka refused. */
    public enum Kind {
        /** The login failed. */
        AUTHENTICATION,
        /** The principal lacks an ACL. */
        AUTHORIZATION
    }

    private final Kind kind;
    private final String principal;
    private final String resourceType;
    private final String resourceName;
    private final String operation;

    /**
     * @param kind what was refused; not null
     * @param principal who, as {@link KafkaClientSettings#principalOf} describes it; not null
     * @param resourceType e.g. {@code TOPIC}, {@code GROUP}, {@code TRANSACTIONAL_ID}, {@code CLUSTER}; null for a
     *     failed login or when Kafka did not say
     * @param resourceName the resource's name, or null
     * @param operation the operation needed, e.g. {@code READ}, or null when not known
     * @param message the one-line message
     * @param cause Kafka's exception, or null
     */
    public KafkaAccessException(
            Kind kind,
            String principal,
            String resourceType,
            String resourceName,
            String operation,
            String message,
            Throwable cause) {
        super(message, cause);
        this.kind = Objects.requireNonNull(kind, "kind");
        this.principal = Objects.requireNonNull(principal, "principal");
        this.resourceType = resourceType;
        this.resourceName = resourceName;
        this.operation = operation;
    }

    /**
     * Finds the first authentication or authorization failure in a cause chain and describes it.
     *
     * @param failure any exception, e.g. from a Kafka Streams thread; may be null
     * @param principal who the client logs in as ({@link KafkaClientSettings#principalOf}); not null
     * @param bootstrapServers the cluster, for the login message; not null
     * @return the description, or empty when the chain holds no such failure
     */
    public static Optional<KafkaAccessException> from(Throwable failure, String principal, String bootstrapServers) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof AuthenticationException) {
                return Optional.of(loginFailed(principal, bootstrapServers, t));
            }
            if (t instanceof GroupAuthorizationException g) {
                return Optional.of(denied(principal, "GROUP", g.groupId(), "READ", t));
            }
            if (t instanceof TopicAuthorizationException e) {
                String topics = e.unauthorizedTopics().isEmpty()
                        ? null
                        : String.join(",", new TreeSet<>(e.unauthorizedTopics()));
                return Optional.of(denied(principal, "TOPIC", topics, null, t));
            }
            if (t instanceof TransactionalIdAuthorizationException) {
                return Optional.of(denied(principal, "TRANSACTIONAL_ID", null, "WRITE", t));
            }
            if (t instanceof ClusterAuthorizationException) {
                return Optional.of(denied(principal, "CLUSTER", "kafka-cluster", null, t));
            }
            if (t instanceof AuthorizationException) {
                return Optional.of(denied(principal, null, null, null, t));
            }
        }
        return Optional.empty();
    }

    /**
     * A failed login.
     *
     * @param principal who; not null
     * @param bootstrapServers the cluster; not null
     * @param cause Kafka's exception; not null
     * @return the exception
     */
    public static KafkaAccessException loginFailed(String principal, String bootstrapServers, Throwable cause) {
        return new KafkaAccessException(
                Kind.AUTHENTICATION,
                principal,
                null,
                null,
                null,
                "Kafka login failed at " + bootstrapServers + " as " + principal + ": " + cause.getMessage()
                        + " (check the user, password, sasl.mechanism and trust store)",
                cause);
    }

    /**
     * A missing ACL.
     *
     * @param principal who; not null
     * @param resourceType the resource type, or null
     * @param resourceName the resource, or null
     * @param operation the operation needed, or null
     * @param cause Kafka's exception, or null
     * @return the exception
     */
    public static KafkaAccessException denied(
            String principal, String resourceType, String resourceName, String operation, Throwable cause) {
        StringBuilder m =
                new StringBuilder("Kafka denied access: ").append(principal).append(" may not ");
        m.append(operation == null ? "access" : operation);
        if (resourceType != null) {
            m.append(' ').append(resourceType.toLowerCase(java.util.Locale.ROOT).replace('_', ' '));
        }
        if (resourceName != null) {
            m.append(" '").append(resourceName).append('\'');
        }
        if (cause != null && cause.getMessage() != null) {
            m.append(" (").append(cause.getMessage()).append(')');
        }
        m.append("; an ACL is missing");
        return new KafkaAccessException(
                Kind.AUTHORIZATION, principal, resourceType, resourceName, operation, m.toString(), cause);
    }

    /** @return what Kafka refused; never null */
    public Kind kind() {
        return kind;
    }

    /** @return who was refused; never null */
    public String principal() {
        return principal;
    }

    /** @return the resource type ({@code TOPIC}, {@code GROUP}, ...); empty for a failed login or when unknown */
    public Optional<String> resourceType() {
        return Optional.ofNullable(resourceType);
    }

    /** @return the resource name; empty when unknown */
    public Optional<String> resourceName() {
        return Optional.ofNullable(resourceName);
    }

    /** @return the operation needed ({@code READ}, {@code WRITE}, ...); empty when unknown */
    public Optional<String> operation() {
        return Optional.ofNullable(operation);
    }
}
