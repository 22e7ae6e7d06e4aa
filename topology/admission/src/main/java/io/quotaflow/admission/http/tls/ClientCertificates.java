package io.quotaflow.admission.http.tls;

import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.cert.CertPathValidator;
import java.security.cert.CertificateFactory;
import java.security.cert.CertificateParsingException;
import java.security.cert.PKIXParameters;
import java.security.cert.TrustAnchor;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Who called, by the client certificate of the TLS connection (issues 25 and 39). The handshake
 * already verified any certificate presented against the callers' CA and this plugin's own trust
 * bundle; this tells a caller that presented one (the API server, the scheduler, a peer) from one
 * that did not, and a peer from the others. A peer is an instance of this engine: its certificate
 * carries the URI name {@value #PEER_NAME} and this plugin's own trust bundle signed it. Subject
 * and issuer prove nothing: any certificate the same CA issues may repeat them (issue 39.7).
 */
public final class ClientCertificates {

  /**
   * The URI subject alternative name of a peer's certificate (the plugin's serving certificate, in
   * deploy/kubernetes/base/certificate.yaml); no other certificate quotaflow's CA issues has it.
   */
  public static final String PEER_NAME = "spiffe://quotaflow/peer";

  /** What a connection's client certificate says of its caller. */
  public enum Caller {
    /** No certificate: anyone on the network. */
    ANONYMOUS,
    /** A certificate the callers' CA (or this plugin's bundle) verified. */
    CERTIFIED,
    /** Another instance of this engine. */
    PEER
  }

  /** How long the bundle read is used before the file is read again (renewals swap it). */
  private static final long REREAD_NANOS = 1_000_000_000L;

  /** The subject alternative name type of a URI (RFC 5280). */
  private static final int URI_NAME = 6;

  private final Path trustBundle;
  private volatile Set<TrustAnchor> anchors = Set.of();
  private volatile long readAt;
  private volatile boolean read;

  /** Peers told apart by the peer name and a signature of the bundle in {@code trustBundle}. */
  public ClientCertificates(Path trustBundle) {
    this.trustBundle = Objects.requireNonNull(trustBundle, "trustBundle");
  }

  /** The caller whose verified chain is {@code chain} (null or empty: none was presented). */
  public Caller of(X509Certificate[] chain) {
    if (chain == null || chain.length == 0) {
      return Caller.ANONYMOUS;
    }
    return hasPeerName(chain[0]) && signedByBundle(chain) ? Caller.PEER : Caller.CERTIFIED;
  }

  /** Whether {@code certificate} carries the peer name {@value #PEER_NAME}. */
  public static boolean hasPeerName(X509Certificate certificate) {
    final Collection<List<?>> names;
    try {
      names = certificate.getSubjectAlternativeNames();
    } catch (CertificateParsingException e) {
      return false;
    }
    if (names == null) {
      return false;
    }
    for (final List<?> name : names) {
      if (name.size() == 2
          && Integer.valueOf(URI_NAME).equals(name.get(0))
          && PEER_NAME.equals(name.get(1))) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether the plugin's own bundle (not merely the callers' CA, which may sign certificates for
   * anyone) verifies {@code chain}.
   */
  private boolean signedByBundle(X509Certificate[] chain) {
    final Set<TrustAnchor> trusted = anchors();
    if (trusted.isEmpty()) {
      return false;
    }
    final Set<X509Certificate> roots =
        trusted.stream().map(TrustAnchor::getTrustedCert).collect(Collectors.toSet());
    if (roots.contains(chain[0])) {
      // The bundle names the certificate itself (a self-signed one).
      return true;
    }
    // A chain may end with the anchor itself; PKIX wants the path below it.
    final List<X509Certificate> path = new ArrayList<>();
    for (final X509Certificate certificate : chain) {
      if (!roots.contains(certificate)) {
        path.add(certificate);
      }
    }
    try {
      final PKIXParameters parameters = new PKIXParameters(trusted);
      parameters.setRevocationEnabled(false);
      CertPathValidator.getInstance("PKIX")
          .validate(CertificateFactory.getInstance("X.509").generateCertPath(path), parameters);
      return true;
    } catch (GeneralSecurityException e) {
      return false;
    }
  }

  /** The bundle's certificates, read again at most once a second (renewals swap the file). */
  private Set<TrustAnchor> anchors() {
    final long now = System.nanoTime();
    if (!read || now - readAt > REREAD_NANOS) {
      try {
        anchors =
            PemFiles.certificates(trustBundle).stream()
                .map(certificate -> new TrustAnchor(certificate, null))
                .collect(Collectors.toUnmodifiableSet());
      } catch (IOException | GeneralSecurityException e) {
        // A renewal caught half-written: the last bundle read stays.
      }
      readAt = now;
      read = true;
    }
    return anchors;
  }
}
