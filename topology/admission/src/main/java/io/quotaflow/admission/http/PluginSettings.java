package io.quotaflow.admission.http;

import io.micrometer.core.instrument.MeterRegistry;
import io.quotaflow.admission.http.limits.ServerLimits;
import io.quotaflow.admission.http.peers.ForwardPolicy;
import io.quotaflow.admission.machine.AdmissionMode;
import io.quotaflow.admission.machine.FailurePolicy;
import io.quotaflow.admission.machine.denials.DenialLog;
import io.quotaflow.admission.machine.denials.ThrottledDenialLog;
import io.quotaflow.admission.machine.quotas.QuotaAdmins;
import io.quotaflow.config.ConfigLoader;
import io.quotaflow.config.LoadedConfig;
import io.quotaflow.config.Parsers;
import io.quotaflow.config.Setting;
import io.quotaflow.quota.NamespaceSelectorKeys;
import java.nio.file.Path;
import java.time.Clock;
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
              + " certificate it (or admission.tls.trust.file, for peers) verifies, unless"
              + " admission.allow.unauthenticated.webhooks. Empty: only a plugin on loopback or with"
              + " admission.allow.unauthenticated.webhooks=true starts.",
          Parsers::text);

  /** Whether callers without a certificate are answered (judged only) rather than refused. */
  public static final Setting<Boolean> ALLOW_UNAUTHENTICATED_WEBHOOKS =
      new Setting<>(
          "admission.allow.unauthenticated.webhooks",
          "boolean",
          "false",
          "Answer callers of the webhooks and the scheduler filter that present no client"
              + " certificate admission.tls.client.ca.file (or, for peers, admission.tls.trust.file)"
              + " verifies, instead of refusing them 401; their reviews are judged only: nothing is"
              + " held in flight and no denial is recorded. Without admission.tls.client.ca.file the"
              + " plugin refuses to start unless this is true or it listens on loopback"
              + " (docs/security.md).",
          Parsers::bool);

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

  /** Forwarding timeout: the whole of one forwarded request (issue 40.10). */
  public static final Setting<Duration> FORWARD_TIMEOUT =
      new Setting<>(
          "admission.forward.timeout",
          "duration",
          "500ms",
          "How long a request forwarded to the instance owning the cluster may take, connecting"
              + " included, before this instance answers it from its own copy of the cluster's"
              + " state (or by the failure policy). Keep it well under the webhooks'"
              + " timeoutSeconds (2 s in the manifests): the fallback must still answer in time.",
          Parsers::duration);

  /** Failures in a row that stop forwarding to a peer (issue 40.10). */
  public static final Setting<Integer> FORWARD_BREAKER_FAILURES =
      new Setting<>(
          "admission.forward.breaker.failures",
          "int",
          "3",
          "After this many forwarded requests in a row to one peer failed (refused, timed out),"
              + " its circuit breaker opens: requests for its clusters are answered here at once,"
              + " without asking it, 1 to 1000.",
          text -> bounded(text, 1_000));

  /** How long an open breaker waits before it probes its peer again (issue 40.10). */
  public static final Setting<Duration> FORWARD_BREAKER_RETRY =
      new Setting<>(
          "admission.forward.breaker.retry",
          "duration",
          "1s",
          "How long a peer's open circuit breaker waits before one request is forwarded to it"
              + " again (half open): an answer closes the breaker, a failure opens it again.",
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

  /** The longest token asked about. */
  public static final Setting<Integer> API_AUTH_TOKEN_MAX_BYTES =
      new Setting<>(
          "admission.api.auth.token.max.bytes",
          "int",
          Integer.toString(io.quotaflow.admission.http.auth.ApiAuth.DEFAULT_MAX_TOKEN_BYTES),
          "The longest bearer token asked about, in bytes, 1 to 65536: a longer one is answered"
              + " 401 without a TokenReview. A browser keeps at most 4096 bytes in the web view's"
              + " cookie; Kubernetes' service-account tokens are about 1 KB.",
          text -> bounded(text, 65_536));

  /** How many token and access answers are kept. */
  public static final Setting<Integer> API_AUTH_CACHE_ENTRIES =
      new Setting<>(
          "admission.api.auth.cache.entries",
          "int",
          "10000",
          "How many answers of TokenReview, and how many of SubjectAccessReview, are kept at most,"
              + " 1 to 1000000, the least recently used dropped beyond. Tokens are kept by their"
              + " SHA-256 digest: a refusal or a question takes at most 512 bytes, an accepted"
              + " token that plus its user's name and groups (10000: at most about 10 MB).",
          text -> bounded(text, 1_000_000));

  /** Threads answering people. */
  public static final Setting<Integer> API_THREADS =
      new Setting<>(
          "admission.api.threads",
          "int",
          "4",
          "Threads answering people's requests (the query API, the web view, the sign-in, the"
              + " what-if), 1 to 256: apart from the webhooks' and the scheduler filter's, so that"
              + " however many people call, and however long the API server takes to review their"
              + " tokens, the webhooks keep answering.",
          text -> bounded(text, 256));

  /** People's requests waiting. */
  public static final Setting<Integer> API_QUEUE =
      new Setting<>(
          "admission.api.queue",
          "int",
          "64",
          "People's requests waiting for a thread at most, 1 to 10000; one more is answered 503.",
          text -> bounded(text, 10_000));

  /** People's rate per client. */
  public static final Setting<Integer> API_RATE_PER_CLIENT =
      new Setting<>(
          "admission.api.rate.per.client",
          "int",
          "20",
          "Requests a second one client address may make to /api/ (bursts of twice as many), 1 to"
              + " 100000; beyond, 429. Behind a proxy (oauth2-proxy) every person shares its"
              + " address: raise it.",
          text -> bounded(text, 100_000));

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

  /** The port of health and readiness alone. */
  public static final Setting<String> HEALTH_PORT =
      new Setting<>(
          "admission.health.port",
          "int",
          "",
          "A plain-HTTP port serving only /healthz and /readyz (probes; metrics are on the"
              + " engine's metrics.port, which tenants' pods cannot reach), so"
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

  /** The window of the denials' de-duplication and per-group limit (issue 39). */
  public static final Setting<Duration> DENIALS_WINDOW =
      new Setting<>(
          "admission.denials.window",
          "duration",
          "60s",
          "Within this window a pod denied again for the same reason is written to denials.v1"
              + " once, and each group (and each namespace) has at most"
              + " admission.denials.max.per.group denials written; the others are counted in"
              + " quotaflow_denials_dropped_total{why} (the pods are answered all the same).",
          Parsers::duration);

  /** Denials written per group and per namespace per window (issue 39). */
  public static final Setting<Integer> DENIALS_MAX_PER_GROUP =
      new Setting<>(
          "admission.denials.max.per.group",
          "int",
          "100",
          "How many denials of one group, and of one namespace, are written to denials.v1 per"
              + " admission.denials.window, 1 to 1000000: one tenant's flood cannot crowd the"
              + " others' denials out of the queue.",
          text -> bounded(text, 1_000_000));

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
          ALLOW_UNAUTHENTICATED_WEBHOOKS,
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
          FORWARD_BREAKER_FAILURES,
          FORWARD_BREAKER_RETRY,
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
          DENIALS_WINDOW,
          DENIALS_MAX_PER_GROUP,
          API_AUTH,
          API_AUTH_CACHE_TTL,
          API_AUTH_CACHE_ENTRIES,
          API_AUTH_TOKEN_MAX_BYTES,
          API_THREADS,
          API_QUEUE,
          API_RATE_PER_CLIENT);

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

  /**
   * How requests are forwarded to peers per {@code values}: {@code admission.forward.timeout} and
   * the breaker's settings.
   *
   * @throws IllegalArgumentException naming the setting when a value is invalid
   */
  public static ForwardPolicy forwarding(Map<String, String> values) {
    final LoadedConfig config = ConfigLoader.of(ALL).setAll(values).build();
    final Duration timeout = config.get(FORWARD_TIMEOUT);
    final Duration retry = config.get(FORWARD_BREAKER_RETRY);
    if (timeout.isZero() || timeout.isNegative()) {
      throw new IllegalArgumentException(FORWARD_TIMEOUT.key() + " must be positive: " + timeout);
    }
    if (retry.isZero() || retry.isNegative()) {
      throw new IllegalArgumentException(
          FORWARD_BREAKER_RETRY.key() + " must be positive: " + retry);
    }
    return new ForwardPolicy(timeout, config.get(FORWARD_BREAKER_FAILURES), retry);
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
        config.get(WHAT_IF_MAX_EDITS),
        new ServerLimits.People(
            config.get(API_THREADS), config.get(API_QUEUE), config.get(API_RATE_PER_CLIENT)));
  }

  /**
   * {@code log} behind the de-duplication and per-group limit {@code values} configure ({@code
   * admission.denials.*}), so one tenant cannot flood it.
   */
  public static DenialLog throttled(
      Map<String, String> values, DenialLog log, Clock clock, MeterRegistry registry) {
    final LoadedConfig config = ConfigLoader.of(ALL).setAll(values).build();
    return new ThrottledDenialLog(
        log, config.get(DENIALS_WINDOW), config.get(DENIALS_MAX_PER_GROUP), clock, registry);
  }

  /**
   * Whom the webhooks and the scheduler filter believe, per {@code values}.
   *
   * @throws IllegalArgumentException when a setting is invalid, or when callers would be believed
   *     without a certificate while the plugin listens beyond loopback (issue 39.7)
   */
  static CallerPolicy callers(Map<String, String> values) {
    final CallerPolicy policy =
        CallerPolicy.of(
            config(values),
            ConfigLoader.of(ALL).setAll(values).build().get(ALLOW_UNAUTHENTICATED_WEBHOOKS));
    policy.requireSafe();
    return policy;
  }

  /**
   * Checks that the webhooks and the scheduler filter would not believe callers they cannot
   * identify (see {@link #ALLOW_UNAUTHENTICATED_WEBHOOKS}).
   *
   * @throws IllegalArgumentException naming the settings to set
   */
  public static void requireAuthenticatedCallers(Map<String, String> values) {
    callers(values);
  }

  /** Whether {@code values} answer unauthenticated callers of the webhooks (judged only). */
  public static boolean allowUnauthenticatedWebhooks(Map<String, String> values) {
    return ConfigLoader.of(ALL).setAll(values).build().get(ALLOW_UNAUTHENTICATED_WEBHOOKS);
  }

  /** Whether {@code values} ask people for Kubernetes bearer tokens. */
  public static boolean kubernetesAuth(Map<String, String> values) {
    return ConfigLoader.of(ALL).setAll(values).build().get(API_AUTH).equals("kubernetes");
  }

  /** How long token and access answers are kept, per {@code values}. */
  public static Duration authCacheTtl(Map<String, String> values) {
    return ConfigLoader.of(ALL).setAll(values).build().get(API_AUTH_CACHE_TTL);
  }

  /** How many token and access answers are kept at most, per {@code values}. */
  public static int authCacheEntries(Map<String, String> values) {
    return ConfigLoader.of(ALL).setAll(values).build().get(API_AUTH_CACHE_ENTRIES);
  }

  /** The longest token asked about, per {@code values}. */
  public static int authMaxTokenBytes(Map<String, String> values) {
    return ConfigLoader.of(ALL).setAll(values).build().get(API_AUTH_TOKEN_MAX_BYTES);
  }

  /** Whether {@code values} turn the plugin on (the default). */
  public static boolean enabled(Map<String, String> values) {
    return ENABLED.parse(values.getOrDefault(ENABLED.key(), ENABLED.defaultValue()));
  }
}
