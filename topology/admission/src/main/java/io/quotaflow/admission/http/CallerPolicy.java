package io.quotaflow.admission.http;

import io.quotaflow.admission.http.tls.ClientCertificates;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * Whom the machine doors (the webhooks and the scheduler filter) believe (issue 39.7). A review
 * holds quota in flight for 30 s and a denial is written to the history: only a caller that proved
 * who it is may do either. A caller proves it with a client certificate the callers' CA ({@code
 * admission.tls.client.ca.file}) or this plugin's own bundle (peers) verifies; without a callers'
 * CA, a plugin that listens on loopback believes its callers (only this machine reaches it: {@code
 * quotaflow local}, tests). Any other caller is refused (401), or, with {@code
 * admission.allow.unauthenticated.webhooks=true}, answered but judged only: nothing held, nothing
 * recorded.
 */
public final class CallerPolicy {

  /** What a call at a machine door may do. */
  public enum Trust {
    /** Judged, held in flight, its denial recorded. */
    TRUSTED,
    /** Judged and answered; nothing held in flight, no denial recorded, nothing in the activity. */
    JUDGED_ONLY,
    /** Answered 401. */
    REFUSED
  }

  /** Header a peer sets on a call it forwards for a caller it judged only: it stays judged only. */
  public static final String JUDGED_ONLY_HEADER = "X-Quotaflow-Judged-Only";

  private final boolean clientCa;
  private final boolean loopback;
  private final boolean allowUnauthenticated;
  private final String bindAddress;

  private CallerPolicy(
      boolean clientCa, boolean loopback, boolean allowUnauthenticated, String bindAddress) {
    this.clientCa = clientCa;
    this.loopback = loopback;
    this.allowUnauthenticated = allowUnauthenticated;
    this.bindAddress = bindAddress;
  }

  /** The policy of {@code config} with {@code admission.allow.unauthenticated.webhooks}. */
  static CallerPolicy of(PluginConfig config, boolean allowUnauthenticated) {
    return new CallerPolicy(
        config.clientCertificatesRequired(),
        isLoopback(config.bindAddress()),
        allowUnauthenticated,
        config.bindAddress());
  }

  /**
   * Refuses a plugin that would answer anyone on the network as it answers the API server: no
   * callers' CA, not on loopback, and unauthenticated callers not explicitly allowed.
   *
   * @throws IllegalArgumentException naming both settings
   */
  void requireSafe() {
    if (!clientCa && !loopback && !allowUnauthenticated) {
      throw new IllegalArgumentException(
          PluginSettings.TLS_CLIENT_CA_FILE.key()
              + " is not set and the plugin listens on "
              + bindAddress
              + ": any pod that reaches its port could hold other teams' quota and write denials"
              + " to the history through the webhooks and the scheduler filter. Set it to the CA"
              + " of the API server's and the scheduler's client certificates (the component"
              + " deploy/kubernetes/components/client-certificates does), or set "
              + PluginSettings.ALLOW_UNAUTHENTICATED_WEBHOOKS.key()
              + "=true to answer unauthenticated callers without holding quota or recording"
              + " their denials (docs/security.md)");
    }
  }

  /** Whether a call without a certificate is answered rather than refused. */
  boolean allowsUnauthenticated() {
    return allowUnauthenticated;
  }

  /** Whether every caller is believed without a certificate (loopback, no callers' CA). */
  boolean believesEveryCaller() {
    return !clientCa && loopback;
  }

  /**
   * What a call by {@code caller} may do at a machine door; {@code judgedOnlyMark}: the call
   * carries {@link #JUDGED_ONLY_HEADER}, which only ever lowers its trust.
   */
  Trust trust(ClientCertificates.Caller caller, boolean judgedOnlyMark) {
    final Trust trust;
    if (caller != ClientCertificates.Caller.ANONYMOUS || believesEveryCaller()) {
      trust = Trust.TRUSTED;
    } else {
      trust = allowUnauthenticated ? Trust.JUDGED_ONLY : Trust.REFUSED;
    }
    return judgedOnlyMark && trust == Trust.TRUSTED ? Trust.JUDGED_ONLY : trust;
  }

  /**
   * Whether a call's forwarding mark is believed: from a peer, or from a caller who could not hold
   * anything anyway (judged only) or whom everything is believed (loopback). The mark makes an
   * instance answer from its own or its last state instead of forwarding again.
   */
  boolean believesForwardMark(ClientCertificates.Caller caller, Trust trust) {
    return caller == ClientCertificates.Caller.PEER
        || trust == Trust.JUDGED_ONLY
        || (trust == Trust.TRUSTED && believesEveryCaller());
  }

  /** A line for the start log: who is believed. */
  String describe() {
    if (clientCa) {
      return allowUnauthenticated
          ? "callers with a client certificate; others judged only (nothing held or recorded)"
          : "callers with a client certificate only; others refused (401)";
    }
    if (loopback) {
      return "every caller (listening on loopback)";
    }
    return "no caller: every review judged only (nothing held or recorded), as "
        + PluginSettings.ALLOW_UNAUTHENTICATED_WEBHOOKS.key()
        + "=true without "
        + PluginSettings.TLS_CLIENT_CA_FILE.key();
  }

  private static boolean isLoopback(String address) {
    try {
      return InetAddress.getByName(address).isLoopbackAddress();
    } catch (UnknownHostException e) {
      return false;
    }
  }
}
