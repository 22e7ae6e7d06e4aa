package io.quotaflow.admission.http;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.quotaflow.admission.http.auth.ApiAuth;
import io.quotaflow.admission.http.limits.ServerLimits;
import io.quotaflow.admission.http.peers.ForwardPolicy;
import io.quotaflow.admission.machine.denials.DenialLog;
import io.quotaflow.admission.machine.scheduler.PendingPods;
import io.quotaflow.admission.people.view.EvictionSource;
import io.quotaflow.admission.state.ClusterStateReader;
import io.quotaflow.engine.metrics.EngineMetrics;
import io.quotaflow.tree.QuotaOptions;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Collects what an {@link AdmissionServer} needs; only the configuration and the state reader are
 * required.
 */
public final class AdmissionServerBuilder {
  final PluginConfig config;
  final ClusterStateReader reader;
  QuotaOptions options = QuotaOptions.DEFAULTS;
  PrometheusMeterRegistry registry;
  Clock clock = Clock.systemUTC();
  boolean noopEndpoint;
  Optional<Duration> revokeDelay = Optional.empty();
  EvictionSource evictions = EvictionSource.NONE;
  DenialLog denials = DenialLog.NONE;
  ServerLimits limits = ServerLimits.DEFAULTS;
  ApiAuth auth = ApiAuth.NONE;
  int groupGaugesMax = EngineMetrics.DEFAULT_GROUP_GAUGES;
  Duration pendingTtl = PendingPods.DEFAULT_TTL;
  boolean allowUnauthenticatedWebhooks;
  ForwardPolicy forwarding;

  AdmissionServerBuilder(PluginConfig config, ClusterStateReader reader) {
    this.config = Objects.requireNonNull(config, "config");
    this.reader = Objects.requireNonNull(reader, "reader");
  }

  /** The quota options the engine computes with (derived resources change pod requests). */
  public AdmissionServerBuilder options(QuotaOptions value) {
    this.options = Objects.requireNonNull(value, "options");
    return this;
  }

  /**
   * The registry to expose on {@code /metrics} and to record the plugin's meters in; pass the one
   * the engine's meters and Kafka Streams' metrics are bound to.
   */
  public AdmissionServerBuilder registry(PrometheusMeterRegistry value) {
    this.registry = Objects.requireNonNull(value, "registry");
    return this;
  }

  /** The clock of in-flight holds (their time to live) and of the last state's age. */
  public AdmissionServerBuilder clock(Clock value) {
    this.clock = Objects.requireNonNull(value, "clock");
    return this;
  }

  /** Adds {@code POST /noop}, answering {@code {}} at once: the benchmark's baseline. */
  public AdmissionServerBuilder noopEndpoint(boolean value) {
    this.noopEndpoint = value;
    return this;
  }

  /**
   * The engine's revoke delay, which the web view shows over-used groups against; empty (the
   * default) when the engine does not reclaim.
   */
  public AdmissionServerBuilder revokeDelay(Optional<Duration> value) {
    this.revokeDelay = Objects.requireNonNull(value, "revokeDelay");
    return this;
  }

  /** Where the pods turned away are written (default: nowhere); closed with the server. */
  public AdmissionServerBuilder denials(DenialLog value) {
    this.denials = Objects.requireNonNull(value, "denials");
    return this;
  }

  /** Where the web view's recent evictions come from (default: nowhere). */
  public AdmissionServerBuilder evictions(EvictionSource value) {
    this.evictions = Objects.requireNonNull(value, "evictions");
    return this;
  }

  /** Who people calling the query API and the web view are (default: not asked). */
  public AdmissionServerBuilder auth(ApiAuth value) {
    this.auth = Objects.requireNonNull(value, "auth");
    return this;
  }

  /** How much any one client may take (default {@link ServerLimits#DEFAULTS}). */
  public AdmissionServerBuilder limits(ServerLimits value) {
    this.limits = Objects.requireNonNull(value, "limits");
    return this;
  }

  /**
   * How many quota groups get per-group gauges of pending pods at a time; 0 turns them off. The
   * engine's {@code metrics.group.gauges.max}, which caps its own per-group gauges, by default its
   * default.
   */
  public AdmissionServerBuilder groupGaugesMax(int value) {
    if (value < 0) {
      throw new IllegalArgumentException("groupGaugesMax must not be negative: " + value);
    }
    this.groupGaugesMax = value;
    return this;
  }

  /**
   * How long a pod the scheduler filter left without a node counts as pending for its reason
   * without being refused again (default {@link PendingPods#DEFAULT_TTL}).
   */
  public AdmissionServerBuilder pendingTtl(Duration value) {
    this.pendingTtl = Objects.requireNonNull(value, "pendingTtl");
    return this;
  }

  /**
   * Whether callers of the webhooks and the scheduler filter without a certificate are answered,
   * judged only, rather than refused (default false; {@code
   * admission.allow.unauthenticated.webhooks}).
   */
  public AdmissionServerBuilder allowUnauthenticatedWebhooks(boolean value) {
    this.allowUnauthenticatedWebhooks = value;
    return this;
  }

  /** How requests are forwarded to peers (default {@link ForwardPolicy#withTimeout}). */
  public AdmissionServerBuilder forwarding(ForwardPolicy value) {
    this.forwarding = Objects.requireNonNull(value, "forwarding");
    return this;
  }

  /** The server, not started. */
  public AdmissionServer build() {
    return new AdmissionServer(this);
  }
}
