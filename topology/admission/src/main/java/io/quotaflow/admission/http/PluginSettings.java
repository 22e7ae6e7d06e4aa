package io.quotaflow.admission.http;

import io.micrometer.core.instrument.MeterRegistry;
import io.quotaflow.admission.http.limits.ServerLimits;
import io.quotaflow.admission.http.peers.ForwardPolicy;
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

/**
 * The catalogue of the admission plugin's settings (key, type, default, meaning), {@link #ALL}, and
 * how they are read into its configuration. Declared here: the plugin as a whole (on or off, its
 * address, TLS, limits of the server, forwarding to peers, how stale a state it answers from); the
 * machine doors' settings are {@link WebhookSettings}, the people's doors' {@link PeopleSettings}.
 * The keys share the engine's configuration sources: a properties file, {@code
 * QUOTAFLOW_ADMISSION_*} variables and command-line options. A renamed setting keeps its former key
 * as a deprecated alias (e.g. {@code admission.reservation.ttl} for {@code
 * admission.inflight.ttl}).
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
          Parsers.atMost(1_000));

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
          Parsers.atMost(65_536));

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
          WebhookSettings.MODE,
          WebhookSettings.FAILURE_POLICY,
          WebhookSettings.EXCLUDED_NAMESPACES,
          WebhookSettings.QUOTA_ADMINS,
          WebhookSettings.QUOTA_SPECIAL_NAMESPACES,
          WebhookSettings.QUOTA_SELECTOR_KEYS,
          WebhookSettings.INFLIGHT_TTL,
          WebhookSettings.GANG_HOLD_TTL,
          WebhookSettings.INFLIGHT_SWEEP_INTERVAL,
          FORWARD_TIMEOUT,
          FORWARD_BREAKER_FAILURES,
          FORWARD_BREAKER_RETRY,
          MAX_STALENESS,
          STATE_REFRESH_INTERVAL,
          PeopleSettings.VIEW_ENABLED,
          PeopleSettings.VIEW_MAX_STREAMS,
          PeopleSettings.VIEW_RECENT_EVENTS,
          REQUEST_TIMEOUT,
          MAX_CONNECTIONS,
          HEALTH_PORT,
          PeopleSettings.VIEW_STREAMS_PER_CLIENT,
          PeopleSettings.WHAT_IF_MAX_PODS,
          PeopleSettings.WHAT_IF_MAX_EDITS,
          WebhookSettings.DENIALS_WINDOW,
          WebhookSettings.DENIALS_MAX_PER_GROUP,
          PeopleSettings.API_AUTH,
          PeopleSettings.API_AUTH_CACHE_TTL,
          PeopleSettings.API_AUTH_CACHE_ENTRIES,
          PeopleSettings.API_AUTH_TOKEN_MAX_BYTES,
          PeopleSettings.API_THREADS,
          PeopleSettings.API_QUEUE,
          PeopleSettings.API_RATE_PER_CLIENT);

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
        config.get(WebhookSettings.MODE),
        config.get(WebhookSettings.FAILURE_POLICY),
        config.get(WebhookSettings.EXCLUDED_NAMESPACES),
        config.get(WebhookSettings.INFLIGHT_TTL),
        config.get(WebhookSettings.GANG_HOLD_TTL),
        config.get(WebhookSettings.INFLIGHT_SWEEP_INTERVAL),
        config.get(FORWARD_TIMEOUT),
        staleness(config),
        new PluginConfig.View(
            config.get(PeopleSettings.VIEW_ENABLED),
            config.get(PeopleSettings.VIEW_MAX_STREAMS),
            config.get(PeopleSettings.VIEW_RECENT_EVENTS)),
        new QuotaAdmins(
            config.get(WebhookSettings.QUOTA_ADMINS),
            config.get(WebhookSettings.QUOTA_SPECIAL_NAMESPACES),
            new NamespaceSelectorKeys(config.get(WebhookSettings.QUOTA_SELECTOR_KEYS))));
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

  private static PluginConfig.Staleness staleness(LoadedConfig config) {
    final Duration max = config.get(MAX_STALENESS);
    final Duration refresh = config.get(STATE_REFRESH_INTERVAL);
    final Duration ttl = config.get(WebhookSettings.INFLIGHT_TTL);
    if (max.compareTo(ttl) > 0) {
      throw new IllegalArgumentException(
          MAX_STALENESS.key()
              + " ("
              + max
              + ") must not exceed "
              + WebhookSettings.INFLIGHT_TTL.key()
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
        config.get(PeopleSettings.VIEW_STREAMS_PER_CLIENT),
        config.get(PeopleSettings.WHAT_IF_MAX_PODS),
        config.get(PeopleSettings.WHAT_IF_MAX_EDITS),
        new ServerLimits.People(
            config.get(PeopleSettings.API_THREADS),
            config.get(PeopleSettings.API_QUEUE),
            config.get(PeopleSettings.API_RATE_PER_CLIENT)));
  }

  /**
   * {@code log} behind the de-duplication and per-group limit {@code values} configure ({@code
   * admission.denials.*}), so one tenant cannot flood it.
   */
  public static DenialLog throttled(
      Map<String, String> values, DenialLog log, Clock clock, MeterRegistry registry) {
    final LoadedConfig config = ConfigLoader.of(ALL).setAll(values).build();
    return new ThrottledDenialLog(
        log,
        config.get(WebhookSettings.DENIALS_WINDOW),
        config.get(WebhookSettings.DENIALS_MAX_PER_GROUP),
        clock,
        registry);
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
    return ConfigLoader.of(ALL)
        .setAll(values)
        .build()
        .get(PeopleSettings.API_AUTH)
        .equals("kubernetes");
  }

  /** How long token and access answers are kept, per {@code values}. */
  public static Duration authCacheTtl(Map<String, String> values) {
    return ConfigLoader.of(ALL).setAll(values).build().get(PeopleSettings.API_AUTH_CACHE_TTL);
  }

  /** How many token and access answers are kept at most, per {@code values}. */
  public static int authCacheEntries(Map<String, String> values) {
    return ConfigLoader.of(ALL).setAll(values).build().get(PeopleSettings.API_AUTH_CACHE_ENTRIES);
  }

  /** The longest token asked about, per {@code values}. */
  public static int authMaxTokenBytes(Map<String, String> values) {
    return ConfigLoader.of(ALL).setAll(values).build().get(PeopleSettings.API_AUTH_TOKEN_MAX_BYTES);
  }

  /** Whether {@code values} turn the plugin on (the default). */
  public static boolean enabled(Map<String, String> values) {
    return ENABLED.parse(values.getOrDefault(ENABLED.key(), ENABLED.defaultValue()));
  }
}
