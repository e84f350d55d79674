package dev.rtmstreams.testkit.internals;

import dev.rtmstreams.testkit.BrokerSecurity;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The broker and client properties of a {@link BrokerSecurity}: a {@code SASL_SSL} client (and inter-broker)
 * listener offering {@code PLAIN} and {@code SCRAM-SHA-512}, a {@code SASL_PLAINTEXT} controller listener, both logged
 * in as the admin over {@code PLAIN}, with
 * {@code StandardAuthorizer}, the admin as the only super user and no access without an ACL.
 */
public final class SaslSslConfigs {

    /** Name of the client listener. */
    public static final String LISTENER = "SASL_SSL";

    private SaslSslConfigs() {}

    /**
     * Returns the broker properties that replace the single-node defaults' listeners.
     *
     * @param security the users
     * @param port the client listener port
     * @param controllerPort the controller listener port
     * @param tls the broker's key store and the trust store
     * @return broker properties
     */
    public static Map<String, String> broker(BrokerSecurity security, int port, int controllerPort, SelfSignedTls tls) {
        String admin = security.adminUser();
        String login = BrokerSecurity.plainJaasConfig(admin, security.password(admin));
        String usersOfListener = security.users().stream()
                .map(u -> "user_" + u + "=\"" + security.password(u) + "\"")
                .collect(Collectors.joining(" "));
        String usersOfController = "user_" + admin + "=\"" + security.password(admin) + "\"";
        Map<String, String> p = new LinkedHashMap<>();
        p.put("listeners", LISTENER + "://localhost:" + port + ",CONTROLLER://localhost:" + controllerPort);
        p.put("advertised.listeners", LISTENER + "://localhost:" + port);
        p.put("inter.broker.listener.name", LISTENER);
        p.put("listener.security.protocol.map", LISTENER + ":SASL_SSL,CONTROLLER:SASL_PLAINTEXT");
        p.put("sasl.enabled.mechanisms", BrokerSecurity.MECHANISM);
        p.put("sasl.mechanism.inter.broker.protocol", BrokerSecurity.MECHANISM);
        p.put("sasl.mechanism.controller.protocol", BrokerSecurity.MECHANISM);
        p.put("listener.name.sasl_ssl.plain.sasl.jaas.config", withoutSemicolon(login) + " " + usersOfListener + ";");
        // SCRAM credentials are in the metadata log (added when the log directory is formatted)
        p.put(
                "listener.name.sasl_ssl.sasl.enabled.mechanisms",
                BrokerSecurity.MECHANISM + "," + BrokerSecurity.SCRAM_MECHANISM);
        p.put(
                "listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config",
                BrokerSecurity.SCRAM_LOGIN_MODULE + " required;");
        p.put("listener.name.controller.sasl.enabled.mechanisms", BrokerSecurity.MECHANISM);
        p.put(
                "listener.name.controller.plain.sasl.jaas.config",
                withoutSemicolon(login) + " " + usersOfController + ";");
        p.put("ssl.keystore.location", tls.keyStore().toString());
        p.put("ssl.keystore.password", tls.password());
        p.put("ssl.key.password", tls.password());
        p.put("ssl.keystore.type", SelfSignedTls.storeType());
        p.put("ssl.truststore.location", tls.trustStore().toString());
        p.put("ssl.truststore.password", tls.password());
        p.put("ssl.truststore.type", SelfSignedTls.storeType());
        p.put("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer");
        p.put("super.users", BrokerSecurity.principal(admin));
        p.put("allow.everyone.if.no.acl.found", "false");
        return p;
    }

    /**
     * Returns the client properties logging in as {@code user} with {@code password}.
     *
     * @param user the user name
     * @param password the password (need not be the right one: tests of wrong credentials)
     * @param mechanism {@link BrokerSecurity#MECHANISM} or {@link BrokerSecurity#SCRAM_MECHANISM}
     * @param tls the trust store
     * @return {@code security.protocol}, {@code sasl.mechanism}, {@code sasl.jaas.config}, {@code ssl.truststore.*}
     */
    public static Map<String, String> client(String user, String password, String mechanism, SelfSignedTls tls) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("security.protocol", "SASL_SSL");
        p.put("sasl.mechanism", mechanism);
        p.put("sasl.jaas.config", BrokerSecurity.jaasConfig(mechanism, user, password));
        p.put("ssl.truststore.location", tls.trustStore().toString());
        p.put("ssl.truststore.password", tls.password());
        p.put("ssl.truststore.type", SelfSignedTls.storeType());
        return p;
    }

    private static String withoutSemicolon(String jaas) {
        return jaas.substring(0, jaas.length() - 1);
    }
}
