package io.quotaflow.admission.http;

import io.quotaflow.admission.machine.AdmissionMode;
import io.quotaflow.admission.machine.FailurePolicy;
import io.quotaflow.admission.machine.quotas.QuotaAdmins;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The admission plugin's configuration (see {@link PluginSettings} for each setting's key, default
 * and meaning).
 *
 * @param bindAddress the address the server listens on
 * @param port the port; 0 picks a free one (tests)
 * @param tls the PEM certificate and key; empty only with {@code plainHttp}
 * @param plainHttp serve plain HTTP (local use only); must be set explicitly
 * @param mode enforce, warn or off
 * @param failurePolicy the answer when nothing can be checked
 * @param excludedNamespaces pods of these namespaces are always admitted
 * @param holdTtl how long an admitted pod's request is held in flight at most
 * @param gangHoldTtl how long the room of a gang's members still to come is held in flight at most
 * @param sweepInterval how often in-flight holds are compared with the store and expired
 * @param forwardTimeout how long a request forwarded to the owning instance may take
 * @param staleness how old a last state may be answered from, and how often it is read
 * @param view the web view's settings
 * @param quotaAdmins who may change ElasticQuotas, and where the special groups may live
 */
public record PluginConfig(
    String bindAddress,
    int port,
    Optional<TlsFiles> tls,
    boolean plainHttp,
    AdmissionMode mode,
    FailurePolicy failurePolicy,
    Set<String> excludedNamespaces,
    Duration holdTtl,
    Duration gangHoldTtl,
    Duration sweepInterval,
    Duration forwardTimeout,
    Staleness staleness,
    View view,
    QuotaAdmins quotaAdmins) {

  /**
   * People's doors (the query API, the sign-in, the what-if) and every other path but the machine
   * doors refuse a larger body with 413: no request of theirs comes near it.
   */
  public static final int MAX_BODY_BYTES = 1 << 20;

  /**
   * The webhooks and the scheduler filter refuse a larger body with 413 (issue 40.14). The API
   * server stores objects up to about 1.5 MiB (etcd's default request limit) and an UPDATE review
   * carries the object and the old one, plus the envelope (userInfo, options): two 1.5 MiB objects
   * and half a MiB to spare. A smaller limit answered 413 to a pod made large on purpose, which the
   * API server's failurePolicy then decided without quotaflow.
   */
  public static final int MAX_REVIEW_BODY_BYTES = 3 * (1 << 20) + (1 << 19);

  /** Checks that TLS is configured unless plain HTTP was asked for. */
  public PluginConfig {
    Objects.requireNonNull(bindAddress, "bindAddress");
    Objects.requireNonNull(tls, "tls");
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(failurePolicy, "failurePolicy");
    excludedNamespaces = Set.copyOf(excludedNamespaces);
    Objects.requireNonNull(holdTtl, "holdTtl");
    Objects.requireNonNull(gangHoldTtl, "gangHoldTtl");
    Objects.requireNonNull(sweepInterval, "sweepInterval");
    Objects.requireNonNull(forwardTimeout, "forwardTimeout");
    Objects.requireNonNull(staleness, "staleness");
    Objects.requireNonNull(view, "view");
    Objects.requireNonNull(quotaAdmins, "quotaAdmins");
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("port out of range: " + port);
    }
    if (tls.isEmpty() && !plainHttp) {
      throw new IllegalArgumentException(
          "the admission plugin needs "
              + PluginSettings.TLS_CERT_FILE.key()
              + " and "
              + PluginSettings.TLS_KEY_FILE.key()
              + ", or "
              + PluginSettings.PLAIN_HTTP.key()
              + "=true for local use");
    }
    if (tls.isPresent() && plainHttp) {
      throw new IllegalArgumentException(
          "both TLS files and " + PluginSettings.PLAIN_HTTP.key() + "=true are set; choose one");
    }
  }

  /**
   * PEM files as cert-manager mounts them.
   *
   * @param certificate the certificate chain, leaf first ({@code tls.crt})
   * @param key the private key, PKCS#8 or PKCS#1 RSA ({@code tls.key})
   * @param trust the certificates a forwarding instance trusts ({@code ca.crt}); empty: those of
   *     {@code certificate}
   * @param reloadInterval how often the files are checked for a change
   * @param clientCa the CA certificates of the callers of the webhooks and the scheduler filter
   *     (the API server's and the scheduler's client certificates); when present, those endpoints
   *     answer only callers with a verified certificate (issue 25)
   */
  public record TlsFiles(
      Path certificate,
      Path key,
      Optional<Path> trust,
      Duration reloadInterval,
      Optional<Path> clientCa) {
    /** Requires every part. */
    public TlsFiles {
      Objects.requireNonNull(certificate, "certificate");
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(trust, "trust");
      Objects.requireNonNull(reloadInterval, "reloadInterval");
      Objects.requireNonNull(clientCa, "clientCa");
    }

    /** Files without client certificates required. */
    public TlsFiles(Path certificate, Path key, Optional<Path> trust, Duration reloadInterval) {
      this(certificate, key, trust, reloadInterval, Optional.empty());
    }
  }

  /** Whether callers of the webhooks and the scheduler filter must present a certificate. */
  public boolean clientCertificatesRequired() {
    return tls.flatMap(TlsFiles::clientCa).isPresent();
  }

  /** A plain-HTTP configuration on loopback with the defaults, for tests and local use. */
  public static PluginConfig plainHttpOnLoopback(int port) {
    return PluginSettings.config(
        java.util.Map.of(
            PluginSettings.PLAIN_HTTP.key(), "true",
            PluginSettings.BIND_ADDRESS.key(), "127.0.0.1",
            PluginSettings.PORT.key(), Integer.toString(port)));
  }

  /** This configuration with another mode. */
  public PluginConfig withMode(AdmissionMode value) {
    return new PluginConfig(
        bindAddress,
        port,
        tls,
        plainHttp,
        value,
        failurePolicy,
        excludedNamespaces,
        holdTtl,
        gangHoldTtl,
        sweepInterval,
        forwardTimeout,
        staleness,
        view,
        quotaAdmins);
  }

  /** This configuration with another failure policy. */
  public PluginConfig withFailurePolicy(FailurePolicy value) {
    return new PluginConfig(
        bindAddress,
        port,
        tls,
        plainHttp,
        mode,
        value,
        excludedNamespaces,
        holdTtl,
        gangHoldTtl,
        sweepInterval,
        forwardTimeout,
        staleness,
        view,
        quotaAdmins);
  }

  /** This configuration with TLS instead of plain HTTP. */
  public PluginConfig withTls(TlsFiles value) {
    return new PluginConfig(
        bindAddress,
        port,
        Optional.of(value),
        false,
        mode,
        failurePolicy,
        excludedNamespaces,
        holdTtl,
        gangHoldTtl,
        sweepInterval,
        forwardTimeout,
        staleness,
        view,
        quotaAdmins);
  }

  /** This configuration with another staleness bound and refresh interval. */
  public PluginConfig withStaleness(Staleness value) {
    return new PluginConfig(
        bindAddress,
        port,
        tls,
        plainHttp,
        mode,
        failurePolicy,
        excludedNamespaces,
        holdTtl,
        gangHoldTtl,
        sweepInterval,
        forwardTimeout,
        value,
        view,
        quotaAdmins);
  }

  /**
   * How the plugin answers while the stores cannot be read.
   *
   * @param max the oldest last state answered from; older, the failure policy answers
   * @param refreshInterval how often the last state of every cluster held here is read again
   */
  public record Staleness(Duration max, Duration refreshInterval) {
    /** Requires positive durations. */
    public Staleness {
      Objects.requireNonNull(max, "max");
      Objects.requireNonNull(refreshInterval, "refreshInterval");
      if (max.isNegative()
          || max.isZero()
          || refreshInterval.isNegative()
          || refreshInterval.isZero()) {
        throw new IllegalArgumentException("staleness durations must be positive");
      }
    }
  }

  /** This configuration with another in-flight hold TTL. */
  public PluginConfig withHoldTtl(Duration value) {
    return new PluginConfig(
        bindAddress,
        port,
        tls,
        plainHttp,
        mode,
        failurePolicy,
        excludedNamespaces,
        value,
        gangHoldTtl,
        sweepInterval,
        forwardTimeout,
        staleness,
        view,
        quotaAdmins);
  }

  /**
   * The web view's settings.
   *
   * @param enabled whether the page, its endpoints, its streams and the what-if are served
   * @param maxStreams how many live streams may be open at once
   * @param recentEvents how many evictions and denials are kept per cluster
   */
  public record View(boolean enabled, int maxStreams, int recentEvents) {
    /** Requires positive bounds. */
    public View {
      if (maxStreams < 1 || recentEvents < 1) {
        throw new IllegalArgumentException("the view's bounds must be positive");
      }
    }
  }

  /** This configuration with other web view settings. */
  public PluginConfig withView(View value) {
    return new PluginConfig(
        bindAddress,
        port,
        tls,
        plainHttp,
        mode,
        failurePolicy,
        excludedNamespaces,
        holdTtl,
        gangHoldTtl,
        sweepInterval,
        forwardTimeout,
        staleness,
        value,
        quotaAdmins);
  }
}
