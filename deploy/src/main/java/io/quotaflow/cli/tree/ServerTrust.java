package io.quotaflow.cli.tree;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Collection;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Which HTTPS servers {@code quotaflow tree} trusts: the JVM's default trust store, the PEM
 * certificates of a file (cert-manager's {@code ca.crt}), or, for a port-forward to a pod whose
 * certificate does not name {@code localhost}, any server at all.
 */
public final class ServerTrust {

  private ServerTrust() {}

  /** The SSL context for a trust choice; empty for the JVM's default. */
  public static Optional<SSLContext> context(final Optional<Path> caFile, final boolean insecure) {
    try {
      if (insecure) {
        return Optional.of(context(new TrustManager[] {new TrustingAll()}));
      }
      if (caFile.isPresent()) {
        final TrustManagerFactory factory =
            TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(trustStore(caFile.get()));
        return Optional.of(context(factory.getTrustManagers()));
      }
      return Optional.empty();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot set up TLS: " + e.getMessage(), e);
    }
  }

  private static SSLContext context(final TrustManager[] trustManagers)
      throws GeneralSecurityException {
    final SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, trustManagers, null);
    return context;
  }

  private static KeyStore trustStore(final Path file) throws GeneralSecurityException {
    final Collection<? extends Certificate> certificates;
    try (InputStream in = Files.newInputStream(file)) {
      certificates = CertificateFactory.getInstance("X.509").generateCertificates(in);
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read --cacert " + file + ": " + e, e);
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException(
          "--cacert " + file + " holds no readable PEM certificate: " + e.getMessage(), e);
    }
    if (certificates.isEmpty()) {
      throw new IllegalArgumentException("--cacert " + file + " holds no certificate");
    }
    final KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
    try {
      store.load(null, null);
    } catch (IOException e) {
      throw new IllegalStateException("cannot create an empty trust store", e);
    }
    int index = 0;
    for (final Certificate certificate : certificates) {
      store.setCertificateEntry("ca-" + index++, certificate);
    }
    return store;
  }

  /**
   * Trusts every certificate and, being an extended trust manager, skips the host name check too:
   * JSSE leaves that check to the trust manager.
   */
  private static final class TrustingAll extends X509ExtendedTrustManager {
    @Override
    public void checkClientTrusted(final X509Certificate[] chain, final String authType) {}

    @Override
    public void checkServerTrusted(final X509Certificate[] chain, final String authType) {}

    @Override
    public void checkClientTrusted(
        final X509Certificate[] chain, final String authType, final Socket socket) {}

    @Override
    public void checkServerTrusted(
        final X509Certificate[] chain, final String authType, final Socket socket) {}

    @Override
    public void checkClientTrusted(
        final X509Certificate[] chain, final String authType, final SSLEngine engine) {}

    @Override
    public void checkServerTrusted(
        final X509Certificate[] chain, final String authType, final SSLEngine engine) {}

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      return new X509Certificate[0];
    }
  }
}
