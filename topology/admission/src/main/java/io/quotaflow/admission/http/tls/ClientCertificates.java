package io.quotaflow.admission.http.tls;

import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Objects;

/**
 * Who called, by the client certificate of the TLS connection (issue 25). The handshake already
 * verified any certificate presented against the callers' CA and this plugin's own trust bundle;
 * this tells a caller that presented one (the API server, the scheduler, a peer) from one that did
 * not, and a peer (an instance of this engine, whose certificate has this plugin's own subject and
 * issuer, whichever renewal it is at) from the others.
 */
public final class ClientCertificates {

  /** What a connection's client certificate says of its caller. */
  public enum Caller {
    /** No certificate: anyone on the network. */
    ANONYMOUS,
    /** A certificate the callers' CA (or this plugin's bundle) verified. */
    CERTIFIED,
    /** Another instance of this engine. */
    PEER
  }

  /** How long the own certificate is trusted to be the file's before the file is read again. */
  private static final long REREAD_NANOS = 1_000_000_000L;

  private final Path ownCertificate;
  private volatile X509Certificate own;
  private volatile long readAt;

  /** Callers told apart by comparison with the certificate in {@code ownCertificate}. */
  public ClientCertificates(Path ownCertificate) {
    this.ownCertificate = Objects.requireNonNull(ownCertificate, "ownCertificate");
  }

  /** The caller whose verified chain is {@code chain} (null or empty: none was presented). */
  public Caller of(X509Certificate[] chain) {
    if (chain == null || chain.length == 0) {
      return Caller.ANONYMOUS;
    }
    return isOwn(chain[0]) ? Caller.PEER : Caller.CERTIFIED;
  }

  private boolean isOwn(X509Certificate leaf) {
    final X509Certificate mine = own();
    return mine != null
        && mine.getSubjectX500Principal().equals(leaf.getSubjectX500Principal())
        && mine.getIssuerX500Principal().equals(leaf.getIssuerX500Principal());
  }

  /** The plugin's own certificate, read again at most once a second (renewals swap the file). */
  private X509Certificate own() {
    final long now = System.nanoTime();
    if (own == null || now - readAt > REREAD_NANOS) {
      try {
        final List<X509Certificate> read = PemFiles.certificates(ownCertificate);
        own = read.isEmpty() ? null : read.get(0);
      } catch (IOException | GeneralSecurityException e) {
        // A renewal caught half-written: the last one read stays.
      }
      readAt = now;
    }
    return own;
  }
}
