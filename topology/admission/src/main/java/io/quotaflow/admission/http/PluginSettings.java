package io.quotaflow.admission.http;

import io.quotaflow.config.ConfigLoader;
import io.quotaflow.config.LoadedConfig;
import io.quotaflow.config.Parsers;
import io.quotaflow.config.Setting;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The catalogue of the admission plugin's settings (key, type, default, meaning). The keys share
 * the engine's configuration sources: a properties file, {@code QUOTAFLOW_ADMISSION_*} variables
 * and command-line options. A renamed setting keeps its former key as a deprecated alias (e.g.
 * {@code admission.reservation.ttl} for {@code admission.inflight.ttl}).
 */
public final class PluginSettings {

  /** Whether the engine starts the plugin. */
  public static final Setting<Boolean> ENABLED =
      new Setting<>(
          "admission.enabled",
          "boolean",
          "true",
          "Whether the engine serves the admission plugin (webhooks, scheduler filter, query API).",
          Parsers::bool);

  /** Listen address. */
  public static final Setting<String> BIND_ADDRESS =
      new Setting<>(
          "admission.bind.address",
          "string",
          "0.0.0.0",
          "Address the plugin's HTTPS server listens on.",
          Parsers::text);

  /** Listen port. */
  public static final Setting<Integer> PORT =
      new Setting<>(
          "admission.port",
          "int",
          "8443",
          "Port of the plugin's server; 0 picks a free port. Kafka Streams' application.server must"
              + " name this port, so that other instances can forward requests here.",
          Parsers::port);

  /** PEM certificate chain. */
  public static final Setting<String> TLS_CERT_FILE =
      new Setting<>(
          "admission.tls.cert.file",
          "path",
          "",
          "PEM certificate chain served by the plugin (cert-manager's tls.crt); reloaded when it"
              + " changes.",
          Parsers::text);

  /** PEM private key. */
  public static final Setting<String> TLS_KEY_FILE =
      new Setting<>(
          "admission.tls.key.file",
          "path",
          "",
          "PEM private key of the certificate, PKCS#8 or PKCS#1 RSA (cert-manager's tls.key);"
              + " reloaded when it changes.",
          Parsers::text);

  /** PEM trust bundle for forwarding. */
  public static final Setting<String> TLS_TRUST_FILE =
      new Setting<>(
          "admission.tls.trust.file",
          "path",
          "",
          "PEM certificates trusted when forwarding to another instance (cert-manager's ca.crt);"
              + " empty: the served certificate chain itself.",
          Parsers::text);

  /** Reload check period. */
  public static final Setting<Duration> TLS_RELOAD_INTERVAL =
      new Setting<>(
          "admission.tls.reload.interval",
          "duration",
          "10s",
          "How often the certificate and key files are checked for a change.",
          Parsers::duration);

  /** Plain HTTP switch. */
  public static final Setting<Boolean> PLAIN_HTTP =
      new Setting<>(
          "admission.plain.http",
          "boolean",
          "false",
          "Serve plain HTTP instead of HTTPS. For local use only: the API server and the scheduler"
              + " call webhooks and extenders over TLS.",
          Parsers::bool);

  /** enforce | warn | off. */
  public static final Setting<AdmissionMode> MODE =
      new Setting<>(
          "admission.mode",
          "enforce|warn|off",
          "enforce",
          "enforce: deny pods that do not fit and invalid quota changes; warn: allow them with an"
              + " admission warning; off: allow everything.",
          Parsers.oneOf(AdmissionMode.class));

  /** fail-open | fail-closed. */
  public static final Setting<FailurePolicy> FAILURE_POLICY =
      new Setting<>(
          "admission.failure.policy",
          "fail-open|fail-closed",
          "fail-open",
          "Answer when the quota cannot be checked (rebalance, owner unreachable, unexpected"
              + " error): fail-open allows with a warning, fail-closed denies.",
          FailurePolicy::of);

  /** Namespaces never checked. */
  public static final Setting<Set<String>> EXCLUDED_NAMESPACES =
      new Setting<>(
          "admission.excluded.namespaces",
          "list",
          "kube-system",
          "Comma-separated namespaces whose pods are always admitted.",
          Parsers.list(Parsers::text).andThen(Set::copyOf));

  /** Who may change ElasticQuotas (issue 24). */
  public static final Setting<Set<String>> QUOTA_ADMINS =
      new Setting<>(
          "admission.quota.admins",
          "list",
          "system:masters",
          "Comma-separated users or groups (as the API server names them in a review's userInfo)"
              + " who may create, delete or change the fields quotaflow reads of ElasticQuotas;"
              + " the quotas webhook refuses anyone else's change (docs/security.md).",
          Parsers.list(Parsers::nonBlank).andThen(Set::copyOf));

  /** Where the special groups' ElasticQuotas may live (issue 24). */
  public static final Setting<Set<String>> QUOTA_SPECIAL_NAMESPACES =
      new Setting<>(
          "admission.quota.special.namespaces",
          "list",
          "kube-system,quotaflow,koordinator-system",
          "Comma-separated namespaces whose ElasticQuotas may define the special groups"
              + " (koordinator-root-quota, koordinator-system-quota, koordinator-default-quota);"
              + " the quotas webhook refuses them anywhere else.",
          Parsers.list(Parsers::nonBlank).andThen(Set::copyOf));

  /** In-flight hold lifetime; formerly admission.reservation.ttl. */
  public static final Setting<Duration> INFLIGHT_TTL =
      new Setting<>(
              "admission.inflight.ttl",
              "duration",
              "30s",
              "How long an admitted pod's request is held in flight against its groups at most, if"
                  + " the pod is not seen as used before.",
              Parsers::duration)
          .withDeprecatedAlias("admission.reservation.ttl");

  /** In-flight hold sweep period; formerly admission.reservation.sweep.interval. */
  public static final Setting<Duration> INFLIGHT_SWEEP_INTERVAL =
      new Setting<>(
              "admission.inflight.sweep.interval",
              "duration",
              "250ms",
              "How often in-flight holds are compared with the stores and expired.",
              Parsers::duration)
          .withDeprecatedAlias("admission.reservation.sweep.interval");

  /** Forwarding timeout. */
  public static final Setting<Duration> FORWARD_TIMEOUT =
      new Setting<>(
          "admission.forward.timeout",
          "duration",
          "1s",
          "How long a request forwarded to the instance owning the cluster may take before the"
              + " failure policy answers.",
          Parsers::duration);

  /** The oldest state answered from while the stores cannot be read. */
  public static final Setting<Duration> MAX_STALENESS =
      new Setting<>(
          "admission.max.staleness",
          "duration",
          "30s",
          "While the engine's stores cannot be read (a rebalance, a task migrating or restoring),"
              + " answer from the last state read, stating its age, as long as it is at most this"
              + " old; older, the failure policy answers. At most admission.inflight.ttl, so that"
              + " every admission the last state cannot know of is still held in flight.",
          Parsers::duration);

  /** How often the last state is read again. */
  public static final Setting<Duration> STATE_REFRESH_INTERVAL =
      new Setting<>(
          "admission.state.refresh.interval",
          "duration",
          "1s",
          "How often the state of every cluster held here is copied as its last state; shorter"
              + " than admission.max.staleness. A copy reads each group and its pods once.",
          Parsers::duration);

  /** Web view switch. */
  public static final Setting<Boolean> VIEW_ENABLED =
      new Setting<>(
          "admission.view.enabled",
          "boolean",
          "true",
          "Serve the web view of the quota tree (/ui/), its read-only endpoints, its live stream"
              + " and the what-if endpoint. The what-if never writes to a cluster.",
          Parsers::bool);

  /** Live stream bound. */
  public static final Setting<Integer> VIEW_MAX_STREAMS =
      new Setting<>(
          "admission.view.max.streams",
          "int",
          "16",
          "How many live streams of the web view (open pages) may be open at once, 1 to 1000; one"
              + " more is answered 503.",
          text -> bounded(text, 1000));

  /** Activity bound. */
  public static final Setting<Integer> VIEW_RECENT_EVENTS =
      new Setting<>(
          "admission.view.recent.events",
          "int",
          "100",
          "How many recent evictions and how many recent denials the web view keeps per cluster, 1"
              + " to 10000 (in memory).",
          text -> bounded(text, 10_000));

  /** Every setting, in documentation order. */
  public static final List<Setting<?>> ALL =
      List.of(
          ENABLED,
          BIND_ADDRESS,
          PORT,
          TLS_CERT_FILE,
          TLS_KEY_FILE,
          TLS_TRUST_FILE,
          TLS_RELOAD_INTERVAL,
          PLAIN_HTTP,
          MODE,
          FAILURE_POLICY,
          EXCLUDED_NAMESPACES,
          QUOTA_ADMINS,
          QUOTA_SPECIAL_NAMESPACES,
          INFLIGHT_TTL,
          INFLIGHT_SWEEP_INTERVAL,
          FORWARD_TIMEOUT,
          MAX_STALENESS,
          STATE_REFRESH_INTERVAL,
          VIEW_ENABLED,
          VIEW_MAX_STREAMS,
          VIEW_RECENT_EVENTS);

  private PluginSettings() {}

  /**
   * The configuration of {@code values} (keys of this catalogue; other keys are ignored), every
   * missing setting at its default.
   *
   * @throws IllegalArgumentException naming the setting when a value does not parse, when TLS is
   *     neither configured nor explicitly turned off, or when {@code admission.max.staleness}
   *     exceeds {@code admission.inflight.ttl} or is not longer than {@code
   *     admission.state.refresh.interval}
   */
  public static PluginConfig config(Map<String, String> values) {
    final LoadedConfig config = ConfigLoader.of(ALL).setAll(values).build();
    final String cert = config.get(TLS_CERT_FILE);
    final String key = config.get(TLS_KEY_FILE);
    final String trust = config.get(TLS_TRUST_FILE);
    if (cert.isEmpty() != key.isEmpty()) {
      throw new IllegalArgumentException(
          TLS_CERT_FILE.key() + " and " + TLS_KEY_FILE.key() + " go together; set both or neither");
    }
    final Optional<PluginConfig.TlsFiles> tls =
        cert.isEmpty()
            ? Optional.empty()
            : Optional.of(
                new PluginConfig.TlsFiles(
                    Path.of(cert),
                    Path.of(key),
                    trust.isEmpty() ? Optional.empty() : Optional.of(Path.of(trust)),
                    config.get(TLS_RELOAD_INTERVAL)));
    return new PluginConfig(
        config.get(BIND_ADDRESS),
        config.get(PORT),
        tls,
        config.get(PLAIN_HTTP),
        config.get(MODE),
        config.get(FAILURE_POLICY),
        config.get(EXCLUDED_NAMESPACES),
        config.get(INFLIGHT_TTL),
        config.get(INFLIGHT_SWEEP_INTERVAL),
        config.get(FORWARD_TIMEOUT),
        staleness(config),
        new PluginConfig.View(
            config.get(VIEW_ENABLED), config.get(VIEW_MAX_STREAMS), config.get(VIEW_RECENT_EVENTS)),
        new QuotaAdmins(config.get(QUOTA_ADMINS), config.get(QUOTA_SPECIAL_NAMESPACES)));
  }

  private static int bounded(String text, int max) {
    final int value = Parsers.positiveInt(text);
    if (value > max) {
      throw new IllegalArgumentException("must be at most " + max + ": " + text);
    }
    return value;
  }

  private static PluginConfig.Staleness staleness(LoadedConfig config) {
    final Duration max = config.get(MAX_STALENESS);
    final Duration refresh = config.get(STATE_REFRESH_INTERVAL);
    final Duration ttl = config.get(INFLIGHT_TTL);
    if (max.compareTo(ttl) > 0) {
      throw new IllegalArgumentException(
          MAX_STALENESS.key()
              + " ("
              + max
              + ") must not exceed "
              + INFLIGHT_TTL.key()
              + " ("
              + ttl
              + "): an answer from an older state could forget admissions whose in-flight holds"
              + " expired");
    }
    if (refresh.compareTo(max) >= 0) {
      throw new IllegalArgumentException(
          MAX_STALENESS.key()
              + " ("
              + max
              + ") must be longer than "
              + STATE_REFRESH_INTERVAL.key()
              + " ("
              + refresh
              + "), or even the newest last state could be too old to answer from");
    }
    return new PluginConfig.Staleness(max, refresh);
  }

  /** Whether {@code values} turn the plugin on (the default). */
  public static boolean enabled(Map<String, String> values) {
    return ENABLED.parse(values.getOrDefault(ENABLED.key(), ENABLED.defaultValue()));
  }
}
