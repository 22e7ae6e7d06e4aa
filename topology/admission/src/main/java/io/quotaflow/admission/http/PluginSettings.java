package io.quotaflow.admission.http;

import io.quotaflow.config.ConfigLoader;
import io.quotaflow.config.LoadedConfig;
import io.quotaflow.config.Parsers;
import io.quotaflow.config.Setting;
import io.quotaflow.quota.NamespaceSelectorKeys;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
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

  /** The callers' CA. */
  public static final Setting<String> TLS_CLIENT_CA_FILE =
      new Setting<>(
          "admission.tls.client.ca.file",
          "path",
          "",
          "PEM CA certificates that sign the client certificates of the webhooks' and the scheduler"
              + " filter's callers (the API server's AdmissionConfiguration, the scheduler's"
              + " extender tlsConfig). When set, those endpoints answer 401 to a caller without a"
              + " certificate it (or admission.tls.trust.file, for peers) verifies, and only a"
              + " peer's forwarding mark is honoured. Empty: callers are not authenticated (a"
              + " warning at start).",
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

  /** The namespace labels a namespace selector may be keyed on (issue 39). */
  public static final Setting<Set<String>> QUOTA_SELECTOR_KEYS =
      new Setting<>(
          "admission.quota.selector.keys",
          "list",
          "kubernetes.io/metadata.name,quota.admin.quotaflow.io/",
          "Comma-separated namespace label keys, or key prefixes ending in /, that an"
              + " ElasticQuota's quotaflow.io/namespace-selector may be keyed on: labels tenants"
              + " cannot set on their namespaces. The quotas webhook refuses a new or changed"
              + " selector on any other key, or one that selects namespaces by a label's absence"
              + " (docs/security.md).",
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

  /** How long a gang's hold waits for the members still to come (issue 28). */
  public static final Setting<Duration> GANG_HOLD_TTL =
      new Setting<>(
          "admission.gang.hold.ttl",
          "duration",
          "60s",
          "How long the room of a gang's members still to come is held in flight at most, once its"
              + " first member was admitted because the whole gang fits (docs/semantics.md section"
              + " 21).",
          Parsers::duration);

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

  /** How people are authenticated. */
  public static final Setting<String> API_AUTH =
      new Setting<>(
          "admission.api.auth",
          "none|kubernetes",
          "none",
          "How callers of the query API, the web view, its stream and the what-if are"
              + " authenticated: kubernetes asks each a bearer token, checked with TokenReview, and"
              + " shows each the groups bound to namespaces where SubjectAccessReview lets them list"
              + " pods (the manifests use it); none answers everyone everything.",
          text -> {
            final String mode = text.trim().toLowerCase(java.util.Locale.ROOT);
            if (!mode.equals("none") && !mode.equals("kubernetes")) {
              throw new IllegalArgumentException("expected none or kubernetes: " + text);
            }
            return mode;
          });

  /** How long token and access answers are kept. */
  public static final Setting<Duration> API_AUTH_CACHE_TTL =
      new Setting<>(
          "admission.api.auth.cache.ttl",
          "duration",
          "30s",
          "How long an answer of TokenReview or SubjectAccessReview is kept before the API server"
              + " is asked again (as kube-rbac-proxy keeps them).",
          Parsers::duration);

  /** How long a request may take to arrive. */
  public static final Setting<Duration> REQUEST_TIMEOUT =
      new Setting<>(
          "admission.request.timeout",
          "duration",
          "5s",
          "How long a request may take to arrive, headers and body, from its first byte (or from"
              + " the connection's opening, for its first request): a slower one is answered 408 or"
              + " its connection closed, so that clients trickling bytes hold no worker.",
          Parsers::duration);

  /** Connection limit of the main port. */
  public static final Setting<Integer> MAX_CONNECTIONS =
      new Setting<>(
          "admission.max.connections",
          "int",
          "1024",
          "Open connections on the main port at most, 1 to 65536; beyond, new ones wait to be"
              + " accepted and idle ones are closed after 1 s.",
          text -> bounded(text, 65_536));

  /** The port of health, readiness and metrics alone. */
  public static final Setting<String> HEALTH_PORT =
      new Setting<>(
          "admission.health.port",
          "int",
          "",
          "A plain-HTTP port serving only /healthz, /readyz and /metrics (probes and scrapes), so"
              + " that a flood of the main port cannot fail them; empty: served on the main port"
              + " only. The manifests use 8081.",
          text -> text.isBlank() ? "" : Integer.toString(Parsers.port(text.trim())));

  /** Live streams per client. */
  public static final Setting<Integer> VIEW_STREAMS_PER_CLIENT =
      new Setting<>(
          "admission.view.streams.per.client",
          "int",
          "4",
          "How many live streams of the web view one client address may hold at once, 1 to 1000;"
              + " one more is answered 429.",
          text -> bounded(text, 1000));

  /** What-if size bound: pods. */
  public static final Setting<Integer> WHAT_IF_MAX_PODS =
      new Setting<>(
          "admission.whatif.max.pods",
          "int",
          "10000",
          "How many pods one what-if may add in total, 1 to 1000000; a larger one is answered 413.",
          text -> bounded(text, 1_000_000));

  /** What-if size bound: group edits. */
  public static final Setting<Integer> WHAT_IF_MAX_EDITS =
      new Setting<>(
          "admission.whatif.max.edits",
          "int",
          "100",
          "How many group edits (min, max, weight) one what-if may make, 1 to 100000; more is"
              + " answered 413.",
          text -> bounded(text, 100_000));

  /** Every setting, in documentation order. */
  public static final List<Setting<?>> ALL =
      List.of(
          ENABLED,
          BIND_ADDRESS,
          PORT,
          TLS_CERT_FILE,
          TLS_KEY_FILE,
          TLS_TRUST_FILE,
          TLS_CLIENT_CA_FILE,
          TLS_RELOAD_INTERVAL,
          PLAIN_HTTP,
          MODE,
          FAILURE_POLICY,
          EXCLUDED_NAMESPACES,
          QUOTA_ADMINS,
          QUOTA_SPECIAL_NAMESPACES,
          QUOTA_SELECTOR_KEYS,
          INFLIGHT_TTL,
          GANG_HOLD_TTL,
          INFLIGHT_SWEEP_INTERVAL,
          FORWARD_TIMEOUT,
          MAX_STALENESS,
          STATE_REFRESH_INTERVAL,
          VIEW_ENABLED,
          VIEW_MAX_STREAMS,
          VIEW_RECENT_EVENTS,
          REQUEST_TIMEOUT,
          MAX_CONNECTIONS,
          HEALTH_PORT,
          VIEW_STREAMS_PER_CLIENT,
          WHAT_IF_MAX_PODS,
          WHAT_IF_MAX_EDITS,
          API_AUTH,
          API_AUTH_CACHE_TTL);

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
    final String clientCa = config.get(TLS_CLIENT_CA_FILE);
    if (!clientCa.isEmpty() && cert.isEmpty()) {
      throw new IllegalArgumentException(
          TLS_CLIENT_CA_FILE.key()
              + " needs TLS: set "
              + TLS_CERT_FILE.key()
              + " and "
              + TLS_KEY_FILE.key());
    }
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
                    config.get(TLS_RELOAD_INTERVAL),
                    clientCa.isEmpty() ? Optional.empty() : Optional.of(Path.of(clientCa))));
    return new PluginConfig(
        config.get(BIND_ADDRESS),
        config.get(PORT),
        tls,
        config.get(PLAIN_HTTP),
        config.get(MODE),
        config.get(FAILURE_POLICY),
        config.get(EXCLUDED_NAMESPACES),
        config.get(INFLIGHT_TTL),
        config.get(GANG_HOLD_TTL),
        config.get(INFLIGHT_SWEEP_INTERVAL),
        config.get(FORWARD_TIMEOUT),
        staleness(config),
        new PluginConfig.View(
            config.get(VIEW_ENABLED), config.get(VIEW_MAX_STREAMS), config.get(VIEW_RECENT_EVENTS)),
        new QuotaAdmins(
            config.get(QUOTA_ADMINS),
            config.get(QUOTA_SPECIAL_NAMESPACES),
            new NamespaceSelectorKeys(config.get(QUOTA_SELECTOR_KEYS))));
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

  /**
   * The server's limits of {@code values} (keys of this catalogue), every missing one at its
   * default.
   */
  public static ServerLimits limits(Map<String, String> values) {
    final LoadedConfig config = ConfigLoader.of(ALL).setAll(values).build();
    final String health = config.get(HEALTH_PORT);
    return new ServerLimits(
        config.get(REQUEST_TIMEOUT),
        config.get(MAX_CONNECTIONS),
        health.isEmpty() ? OptionalInt.empty() : OptionalInt.of(Integer.parseInt(health)),
        config.get(VIEW_STREAMS_PER_CLIENT),
        config.get(WHAT_IF_MAX_PODS),
        config.get(WHAT_IF_MAX_EDITS));
  }

  /** Whether {@code values} ask people for Kubernetes bearer tokens. */
  public static boolean kubernetesAuth(Map<String, String> values) {
    return ConfigLoader.of(ALL).setAll(values).build().get(API_AUTH).equals("kubernetes");
  }

  /** How long token and access answers are kept, per {@code values}. */
  public static Duration authCacheTtl(Map<String, String> values) {
    return ConfigLoader.of(ALL).setAll(values).build().get(API_AUTH_CACHE_TTL);
  }

  /** Whether {@code values} turn the plugin on (the default). */
  public static boolean enabled(Map<String, String> values) {
    return ENABLED.parse(values.getOrDefault(ENABLED.key(), ENABLED.defaultValue()));
  }
}
