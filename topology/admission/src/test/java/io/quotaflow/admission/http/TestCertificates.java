package io.quotaflow.admission.http;

import io.quotaflow.admission.http.tls.ClientCertificates;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Certificates for localhost, self-signed or signed by a test CA, written as PEM files as
 * cert-manager writes them.
 */
final class TestCertificates {

  /** A generated certificate and its key. */
  record Issued(X509Certificate certificate, KeyPair keys) {}

  private TestCertificates() {}

  static Issued issue(long serial) {
    return issue(serial, "quotaflow-admission");
  }

  /** A self-signed certificate for localhost named {@code commonName}. */
  static Issued issue(long serial, String commonName) {
    return issue(serial, commonName, null, false, false);
  }

  /**
   * A self-signed certificate for localhost named {@code quotaflow-admission}, with the peers' URI
   * name, as the plugin's own.
   */
  static Issued issuePeer(long serial) {
    return issue(serial, "quotaflow-admission", null, true, false);
  }

  /** A CA certificate named {@code commonName}. */
  static Issued issueCa(long serial, String commonName) {
    return issue(serial, commonName, null, false, true);
  }

  /**
   * A certificate for localhost named {@code commonName} signed by {@code ca}, with the peers' URI
   * name when {@code peer}.
   */
  static Issued issueBy(Issued ca, long serial, String commonName, boolean peer) {
    return issue(serial, commonName, ca, peer, false);
  }

  private static Issued issue(
      long serial, String commonName, Issued ca, boolean peer, boolean isCa) {
    try {
      final KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
      generator.initialize(2048);
      final KeyPair keys = generator.generateKeyPair();
      final X500Name name = new X500Name("CN=" + commonName);
      final X500Name issuer =
          ca == null ? name : new X500Name(ca.certificate().getSubjectX500Principal().getName());
      final Instant now = Instant.now();
      final JcaX509v3CertificateBuilder builder =
          new JcaX509v3CertificateBuilder(
              issuer,
              BigInteger.valueOf(serial),
              Date.from(now.minus(1, ChronoUnit.HOURS)),
              Date.from(now.plus(1, ChronoUnit.DAYS)),
              name,
              keys.getPublic());
      if (isCa) {
        builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
      } else {
        final List<GeneralName> names = new ArrayList<>();
        names.add(new GeneralName(GeneralName.dNSName, "localhost"));
        names.add(new GeneralName(GeneralName.iPAddress, "127.0.0.1"));
        if (peer) {
          names.add(
              new GeneralName(GeneralName.uniformResourceIdentifier, ClientCertificates.PEER_NAME));
        }
        builder.addExtension(
            Extension.subjectAlternativeName,
            false,
            new GeneralNames(names.toArray(new GeneralName[0])));
      }
      final KeyPair signer = ca == null ? keys : ca.keys();
      final X509Certificate certificate =
          new JcaX509CertificateConverter()
              .getCertificate(
                  builder.build(
                      new JcaContentSignerBuilder("SHA256withRSA").build(signer.getPrivate())));
      return new Issued(certificate, keys);
    } catch (GeneralSecurityException | OperatorCreationException | IOException e) {
      throw new AssertionError(e);
    }
  }

  /** Writes {@code issued}'s certificate alone as PEM (a CA bundle). */
  static void writeCertificate(Issued issued, Path file) {
    try {
      Files.writeString(
          file, pem("CERTIFICATE", issued.certificate().getEncoded()), StandardCharsets.US_ASCII);
    } catch (IOException | GeneralSecurityException e) {
      throw new AssertionError(e);
    }
  }

  /** Writes tls.crt and tls.key (PKCS#1 when {@code pkcs1}, else PKCS#8). */
  static void write(Issued issued, Path certificate, Path key, boolean pkcs1) {
    try {
      final byte[] der =
          pkcs1
              ? PrivateKeyInfo.getInstance(issued.keys().getPrivate().getEncoded())
                  .parsePrivateKey()
                  .toASN1Primitive()
                  .getEncoded()
              : issued.keys().getPrivate().getEncoded();
      // Write then move, as the kubelet swaps a secret's files atomically.
      final Path certTmp = Files.createTempFile(certificate.getParent(), "crt", ".tmp");
      final Path keyTmp = Files.createTempFile(key.getParent(), "key", ".tmp");
      Files.writeString(
          certTmp,
          pem("CERTIFICATE", issued.certificate().getEncoded()),
          StandardCharsets.US_ASCII);
      Files.writeString(
          keyTmp, pem(pkcs1 ? "RSA PRIVATE KEY" : "PRIVATE KEY", der), StandardCharsets.US_ASCII);
      Files.move(keyTmp, key, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      Files.move(certTmp, certificate, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException | GeneralSecurityException e) {
      throw new AssertionError(e);
    }
  }

  /** A client context trusting each of {@code certificates}. */
  static SSLContext trusting(X509Certificate... certificates) {
    try {
      final KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(null, null);
      for (int i = 0; i < certificates.length; i++) {
        store.setCertificateEntry("c" + i, certificates[i]);
      }
      final TrustManagerFactory factory =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      factory.init(store);
      final SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, factory.getTrustManagers(), null);
      return context;
    } catch (GeneralSecurityException | IOException e) {
      throw new AssertionError(e);
    }
  }

  private static String pem(String type, byte[] der) {
    return "-----BEGIN "
        + type
        + "-----\n"
        + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
        + "\n-----END "
        + type
        + "-----\n";
  }
}
