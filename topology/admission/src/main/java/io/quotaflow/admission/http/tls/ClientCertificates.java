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

  private final Path ownCertificate;

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
    try {
      // Read each time: a few hundred bytes from the page cache, and always the current renewal.
      final List<X509Certificate> own = PemFiles.certificates(ownCertificate);
      return !own.isEmpty()
          && own.get(0).getSubjectX500Principal().equals(leaf.getSubjectX500Principal())
          && own.get(0).getIssuerX500Principal().equals(leaf.getIssuerX500Principal());
    } catch (IOException | GeneralSecurityException e) {
      return false;
    }
  }
}
