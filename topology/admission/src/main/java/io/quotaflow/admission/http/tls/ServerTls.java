package io.quotaflow.admission.http.tls;

import io.quotaflow.admission.http.PluginConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.function.Supplier;
import javax.net.ssl.SSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The plugin's TLS, read from its files: the certificate it serves (reloaded when it changes), the
 * context it forwards to peers with (its own certificate, trusting the bundle) and the check of its
 * callers' certificates.
 *
 * @param certificates the served certificate, reloaded
 * @param peerContext the client context of forwarding to a peer
 * @param callers who a caller's certificate says it is
 */
public record ServerTls(
    CertificateReloader certificates,
    Supplier<SSLContext> peerContext,
    ClientCertificates callers) {

  private static final Logger LOG = LoggerFactory.getLogger(ServerTls.class);

  /**
   * Reads {@code tls}; {@code onReload} runs after each reload of the certificate.
   *
   * @throws IOException or GeneralSecurityException when the files cannot be read
   */
  public static ServerTls of(PluginConfig.TlsFiles tls, Runnable onReload)
      throws IOException, GeneralSecurityException {
    final Path trustFile = tls.trust().orElse(tls.certificate());
    // Callers' certificates are verified against their CA, and peers' against this bundle:
    // peers are asked for theirs even without a callers' CA.
    final List<Path> clientTrust =
        tls.clientCa().map(ca -> List.of(ca, trustFile)).orElse(List.of(trustFile));
    final CertificateReloader certificates =
        new CertificateReloader(
            tls.certificate(),
            tls.key(),
            tls.trust().orElse(null),
            clientTrust,
            tls.reloadInterval().toMillis(),
            onReload);
    // A peer that asks for a certificate gets this instance's own.
    final Supplier<SSLContext> peerContext =
        () -> clientContext(tls.certificate(), tls.key(), trustFile);
    final ClientCertificates callers = new ClientCertificates(trustFile);
    warnWithoutPeerName(tls.certificate());
    return new ServerTls(certificates, peerContext, callers);
  }

  /** Peers recognise each other by a name on the certificate: say so when it is missing. */
  private static void warnWithoutPeerName(Path certificate) {
    try {
      final List<X509Certificate> chain = PemFiles.certificates(certificate);
      if (!chain.isEmpty() && !ClientCertificates.hasPeerName(chain.get(0))) {
        LOG.warn(
            "the certificate {} has no URI name {}: other instances will not take this one's"
                + " forwarded requests as a peer's (deploy/kubernetes/base/certificate.yaml)",
            certificate,
            ClientCertificates.PEER_NAME);
      }
    } catch (IOException | GeneralSecurityException e) {
      // The reloader reports an unreadable certificate.
    }
  }

  private static SSLContext clientContext(Path certificate, Path key, Path trust) {
    try {
      return PemFiles.clientContext(certificate, key, trust);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot read the TLS files of forwarding: " + e, e);
    }
  }
}
