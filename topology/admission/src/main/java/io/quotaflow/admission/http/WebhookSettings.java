package io.quotaflow.admission.http;

import io.quotaflow.admission.machine.AdmissionMode;
import io.quotaflow.admission.machine.FailurePolicy;
import io.quotaflow.config.Parsers;
import io.quotaflow.config.Setting;
import java.time.Duration;
import java.util.Set;

/**
 * The settings of the machine doors (the pod and quota webhooks, the scheduler filter): how they
 * decide, who may change ElasticQuotas, how long admitted pods are held in flight, and how denials
 * are logged. Part of the plugin's catalogue, {@link PluginSettings#ALL}.
 */
public final class WebhookSettings {
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
          Parsers.atMost(1_000_000));

  private WebhookSettings() {}
}
