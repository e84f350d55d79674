package dev.rtmstreams.testkit.internals;

import java.io.IOException;
import java.io.OutputStream;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.HexFormat;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A self-signed certificate for {@code localhost} (subject alternative names {@code DNS:localhost} and
 * {@code IP:127.0.0.1}, so clients keep Kafka's default hostname verification), written as a PKCS12 key store for
 * the broker and a PKCS12 trust store holding only that certificate for the clients. Built with BouncyCastle
 * (already on the test kit's classpath for Kafka's own test kit), no {@code keytool} process.
 *
 * @param keyStore the broker's key store (private key and certificate)
 * @param trustStore the clients' trust store (the certificate)
 * @param password the password of both stores and of the key
 */
public record SelfSignedTls(Path keyStore, Path trustStore, String password) {

    private static final String STORE_TYPE = "PKCS12";
    private static final String ALIAS = "rtm-testkit-broker";

    /** @return the store type of both stores, {@code PKCS12} */
    public static String storeType() {
        return STORE_TYPE;
    }

    /**
     * Generates a 2048-bit RSA key and a certificate valid from a day ago for {@code validity}, and writes both
     * stores into {@code dir} ({@code broker.keystore.p12}, {@code client.truststore.p12}) with a random password.
     *
     * @param dir the directory; created if missing
     * @param validity how long the certificate is valid; positive
     * @return the stores
     * @throws IllegalStateException when the key, certificate or files cannot be made
     */
    public static SelfSignedTls generate(Path dir, Duration validity) {
        try {
            Files.createDirectories(dir);
            SecureRandom random = new SecureRandom();
            byte[] pw = new byte[12];
            random.nextBytes(pw);
            String password = HexFormat.of().formatHex(pw);
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048, random);
            KeyPair pair = generator.generateKeyPair();
            X500Name subject = new X500Name("CN=localhost, O=rtm-testkit");
            Instant now = Instant.now();
            X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(
                    subject,
                    new BigInteger(64, random),
                    Date.from(now.minus(Duration.ofDays(1))),
                    Date.from(now.plus(validity)),
                    subject,
                    pair.getPublic());
            builder.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName[] {
                new GeneralName(GeneralName.dNSName, "localhost"),
                new GeneralName(
                        GeneralName.iPAddress, InetAddress.getLoopbackAddress().getHostAddress())
            }));
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
            ContentSigner signer = new JcaContentSignerBuilder("SHA256withRSA").build(pair.getPrivate());
            X509Certificate certificate = new JcaX509CertificateConverter().getCertificate(builder.build(signer));

            KeyStore keyStore = KeyStore.getInstance(STORE_TYPE);
            keyStore.load(null, null);
            keyStore.setKeyEntry(ALIAS, pair.getPrivate(), password.toCharArray(), new Certificate[] {certificate});
            KeyStore trustStore = KeyStore.getInstance(STORE_TYPE);
            trustStore.load(null, null);
            trustStore.setCertificateEntry(ALIAS, certificate);
            Path keyStoreFile = dir.resolve("broker.keystore.p12");
            Path trustStoreFile = dir.resolve("client.truststore.p12");
            store(keyStore, keyStoreFile, password);
            store(trustStore, trustStoreFile, password);
            return new SelfSignedTls(keyStoreFile, trustStoreFile, password);
        } catch (IOException | GeneralSecurityException | OperatorCreationException e) {
            throw new IllegalStateException("cannot generate a self-signed TLS key store in " + dir + ": " + e, e);
        }
    }

    private static void store(KeyStore store, Path file, String password) throws IOException, GeneralSecurityException {
        try (OutputStream out = Files.newOutputStream(file)) {
            store.store(out, password.toCharArray());
        }
    }

    @Override
    public String toString() {
        return "SelfSignedTls[keyStore=" + keyStore + ", trustStore=" + trustStore + ", password=***]";
    }
}
