package dev.rtmstreams.testkit;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Security of a test broker: one {@code SASL_SSL} client listener offering the {@code PLAIN} and {@code SCRAM-SHA-512}
 * mechanisms (every user has credentials for both; SCRAM's are added when the log directory is formatted), a self-signed
 * certificate for {@code localhost} generated when the broker is built, and Kafka's {@code StandardAuthorizer} with
 * {@code allow.everyone.if.no.acl.found=false}: a user may do only what an ACL allows, except the admin user, who is
 * the broker's super user (inter-broker and controller traffic, and the test kit's own helpers).
 *
 * <pre>{@code
 * BrokerSecurity security = BrokerSecurity.saslSslPlain().user("service", "service-secret").build();
 * try (KafkaBrokerProcess broker = EmbeddedKafkaCluster.childProcess().security(security).build().start()) {
 *     broker.createAcls(List.of(...));                                   // as the admin
 *     Map<String, String> client = broker.clientSecurityConfig("service"); // security.protocol, sasl.*, ssl.*
 * }
 * }</pre>
 *
 * <p>Why {@code PLAIN} for the admin and the controller listener: PLAIN users are declared in the broker's JAAS
 * configuration, so they exist from the first request on and the same mechanism also secures the KRaft controller
 * listener; SCRAM credentials live in the metadata log and cannot secure the controller listener. A client
 * configures both the same way apart from {@code sasl.mechanism} and the login module ({@link #jaasConfig}).
 *
 * <p>Immutable; built and validated by {@link Builder#build()}.
 */
public final class BrokerSecurity {

    /** The SASL mechanism of the client listener. */
    public static final String MECHANISM = "PLAIN";
    /** The login module of {@link #MECHANISM}. */
    public static final String PLAIN_LOGIN_MODULE = "org.apache.kafka.common.security.plain.PlainLoginModule";
    /** The SCRAM mechanism the client listener also offers (docs/security.md recommends it). */
    public static final String SCRAM_MECHANISM = "SCRAM-SHA-512";
    /** The login module of {@link #SCRAM_MECHANISM}. */
    public static final String SCRAM_LOGIN_MODULE = "org.apache.kafka.common.security.scram.ScramLoginModule";

    private final String adminUser;
    private final Map<String, String> passwords;
    private final Duration certificateValidity;

    private BrokerSecurity(Builder b) {
        this.adminUser = b.adminUser;
        Map<String, String> all = new LinkedHashMap<>();
        all.put(b.adminUser, b.adminPassword);
        all.putAll(b.users);
        this.passwords = Collections.unmodifiableMap(all);
        this.certificateValidity = b.certificateValidity;
    }

    /**
     * Starts a {@code SASL_SSL} + {@code PLAIN} security configuration.
     *
     * @return a builder with the admin user {@code admin} and no other user
     */
    public static Builder saslSslPlain() {
        return new Builder();
    }

    /**
     * Returns a {@code sasl.jaas.config} value logging in as {@code user} with {@code password} over PLAIN.
     *
     * @param user the user name; not null
     * @param password the password; not null
     * @return the JAAS configuration line
     */
    public static String plainJaasConfig(String user, String password) {
        return jaasConfig(MECHANISM, user, password);
    }

    /**
     * Returns a {@code sasl.jaas.config} value logging in as {@code user} with {@code password}.
     *
     * @param mechanism {@link #MECHANISM} or {@link #SCRAM_MECHANISM}
     * @param user the user name; not null
     * @param password the password; not null
     * @return the JAAS configuration line
     * @throws IllegalArgumentException naming an unknown mechanism
     */
    public static String jaasConfig(String mechanism, String user, String password) {
        String module = switch (Objects.requireNonNull(mechanism, "mechanism")) {
            case MECHANISM -> PLAIN_LOGIN_MODULE;
            case SCRAM_MECHANISM -> SCRAM_LOGIN_MODULE;
            default ->
                throw new IllegalArgumentException(
                        "unknown SASL mechanism '" + mechanism + "': " + MECHANISM + " or " + SCRAM_MECHANISM);
        };
        return module + " required username=\"" + Objects.requireNonNull(user, "user") + "\" password=\""
                + Objects.requireNonNull(password, "password") + "\";";
    }

    /**
     * @return per user, the {@code kafka-storage format --add-scram} value that gives it {@link #SCRAM_MECHANISM}
     *     credentials with its password
     */
    public java.util.List<String> scramCredentials() {
        return passwords.entrySet().stream()
                .map(e -> SCRAM_MECHANISM + "=[name=" + e.getKey() + ",password=" + e.getValue() + "]")
                .toList();
    }

    /**
     * Returns the Kafka principal of a user, as ACLs name it.
     *
     * @param user a user name; not null
     * @return {@code User:<user>}
     */
    public static String principal(String user) {
        return "User:" + Objects.requireNonNull(user, "user");
    }

    /** @return the super user's name; never null */
    public String adminUser() {
        return adminUser;
    }

    /** @return every user the broker knows, the admin first; never null, unmodifiable */
    public Set<String> users() {
        return passwords.keySet();
    }

    /**
     * Returns a user's password.
     *
     * @param user a user given to the builder (or the admin)
     * @return the password; never null
     * @throws IllegalArgumentException if the broker does not know the user
     */
    public String password(String user) {
        String password = passwords.get(user);
        if (password == null) {
            throw new IllegalArgumentException("unknown user '" + user + "'; the broker knows " + users());
        }
        return password;
    }

    /** @return how long the generated certificate is valid; positive */
    public Duration certificateValidity() {
        return certificateValidity;
    }

    @Override
    public String toString() {
        return "BrokerSecurity[SASL_SSL/" + MECHANISM + ", admin=" + adminUser + ", users=" + users() + "]";
    }

    /** Builds a {@link BrokerSecurity}. Not thread-safe. */
    public static final class Builder {
        private String adminUser = "admin";
        private String adminPassword = "admin-secret";
        private final Map<String, String> users = new LinkedHashMap<>();
        private Duration certificateValidity = Duration.ofDays(2);

        private Builder() {}

        /**
         * Sets the super user. Default {@code admin} / {@code admin-secret}.
         *
         * @param user a name of {@code [A-Za-z0-9._-]}; not null
         * @param password a password without {@code "}, {@code \}, {@code ,}, {@code [} or {@code ]}; not null, not empty
         * @return this builder
         */
        public Builder admin(String user, String password) {
            this.adminUser = user;
            this.adminPassword = password;
            return this;
        }

        /**
         * Adds a user with no rights but those its ACLs give.
         *
         * @param user a name of {@code [A-Za-z0-9._-]}, not the admin's; not null
         * @param password a password without {@code "}, {@code \}, {@code ,}, {@code [} or {@code ]}; not null, not empty
         * @return this builder
         */
        public Builder user(String user, String password) {
            users.put(user, password);
            return this;
        }

        /**
         * Sets how long the generated certificate is valid. Default 2 days.
         *
         * @param validity positive
         * @return this builder
         */
        public Builder certificateValidity(Duration validity) {
            this.certificateValidity = validity;
            return this;
        }

        /**
         * Validates and builds.
         *
         * @return the security configuration
         * @throws IllegalArgumentException naming a bad user name, password or validity
         */
        public BrokerSecurity build() {
            checkUser(adminUser);
            checkPassword(adminUser, adminPassword);
            for (Map.Entry<String, String> e : users.entrySet()) {
                checkUser(e.getKey());
                if (e.getKey().equals(adminUser)) {
                    throw new IllegalArgumentException("user '" + e.getKey() + "' is the admin user already");
                }
                checkPassword(e.getKey(), e.getValue());
            }
            if (certificateValidity == null || certificateValidity.isZero() || certificateValidity.isNegative()) {
                throw new IllegalArgumentException("certificateValidity must be positive: " + certificateValidity);
            }
            return new BrokerSecurity(this);
        }

        private static void checkUser(String user) {
            if (user == null || !user.matches("[A-Za-z0-9._-]+")) {
                throw new IllegalArgumentException("user names must be non-empty [A-Za-z0-9._-]: '" + user + "'");
            }
        }

        private static void checkPassword(String user, String password) {
            // the password goes between double quotes in a JAAS line and into a SCRAM credential list
            // ([name=...,password=...]); the message never shows it
            if (password == null || password.isEmpty() || !password.matches("[^\"\\\\,\\[\\]]+")) {
                throw new IllegalArgumentException(
                        "the password of user '" + user + "' must be non-empty and hold no \", \\, ',', '[' or ']'");
            }
        }
    }
}
