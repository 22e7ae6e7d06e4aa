package io.quotaflow.config;

import io.quotaflow.dra.DeviceClassMappings;
import io.quotaflow.dra.UnmappedClasses;
import io.quotaflow.quota.NamespaceBinding;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecialQuotaNamespaces;
import io.quotaflow.tree.QuotaOptions;
import io.quotaflow.tree.QuotaOptions.DefaultWeightPolicy;
import io.quotaflow.tree.QuotaOptions.DerivedResourceRule;
import io.quotaflow.tree.QuotaOptions.UsedPolicy;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The one catalogue of the settings that change what quota means: which pods count, how groups are
 * weighed and bound, what devices count as, the Koordinator gates, the locked share of reservations
 * and fair share's memory. Every reader of quota semantics reads these declarations and no others:
 * the engine (its {@code EngineSettings} lists them), {@code quotaflow local} and its scenarios
 * (the engine's configuration), the what-if (the engine's options) and {@code simulate --config} /
 * {@code explain --config}, whose files name each setting by its {@link #fileName short name}
 * ({@code namespace-binding-open} for {@code quota.namespace.binding.open}). The readers of its
 * values that {@link Parsers} lacks are {@link QuotaParsers}.
 */
public final class QuotaSettings {

  /** SPEC 7.5. */
  public static final Setting<Boolean> MIN_SCALING =
      new Setting<>(
          "quota.min.scaling",
          "boolean",
          "true",
          "Scale children's mins down when they exceed what their parent distributes.",
          Parsers::bool);

  /** SPEC 12. */
  public static final Setting<DefaultWeightPolicy> DEFAULT_SHARED_WEIGHT =
      new Setting<>(
          "quota.default.shared.weight",
          "max|min",
          "max",
          "Weight of a group without a shared-weight annotation: its max (Koordinator) or its min.",
          QuotaParsers.choice(DefaultWeightPolicy.class));

  /** SPEC 5. */
  public static final Setting<UsedPolicy> USED_POLICY =
      new Setting<>(
          "quota.used.policy",
          "bound|running",
          "bound",
          "Which pods count as used: bound to a node and unfinished, or only running.",
          QuotaParsers.choice(UsedPolicy.class));

  /** SPEC 5. */
  public static final Setting<Boolean> COUNT_TERMINATING_PODS =
      new Setting<>(
          "quota.count.terminating.pods",
          "boolean",
          "true",
          "Whether pods with a deletion timestamp keep counting until they are gone.",
          Parsers::bool);

  /** SPEC 3. */
  public static final Setting<Boolean> ONLY_READY_SCHEDULABLE_NODES =
      new Setting<>(
          "quota.only.ready.schedulable.nodes",
          "boolean",
          "false",
          "Whether only Ready, schedulable nodes count toward the cluster total.",
          Parsers::bool);

  /** SPEC 12. */
  public static final Setting<List<DerivedResourceRule>> DERIVED_RESOURCES =
      new Setting<>(
          "quota.derived.resources",
          "rules",
          "",
          "Comma-separated rules adding a derived dimension to each pod's request, e.g."
              + " 'nvidia.com/gpu -> quotaflow.io/gpu-memory x 32'.",
          Parsers.list(QuotaParsers::derivedResource));

  /** The default group's max when no ElasticQuota defines it (formerly simulate's alone). */
  public static final Setting<ResourceList> DEFAULT_GROUP_MAX =
      new Setting<>(
          "quota.default.group.max",
          "json",
          "",
          "The max of the default group (koordinator-default-quota) while no ElasticQuota defines"
              + " it, as a JSON object of quantities, e.g. '{\"cpu\": \"4\", \"memory\":"
              + " \"8Gi\"}'; unset, it is unbounded.",
          QuotaParsers::resources);

  /**
   * What one device of each DeviceClass claimed through DRA counts as (docs/semantics.md section
   * 22.1).
   */
  public static final Setting<DeviceClassMappings> DEVICE_CLASSES =
      new Setting<>(
          "quota.device.classes",
          "mappings",
          DeviceClassMappings.DEFAULT_SETTING,
          "What one device of each DeviceClass claimed through DRA counts as, entries separated by"
              + " ';', e.g. 'gpu.nvidia.com -> nvidia.com/gpu x 1 [memory / 1Gi ->"
              + " quotaflow.io/gpu-memory]'. Setting it replaces the default.",
          DeviceClassMappings::parse);

  /** What a claimed device of a class no mapping names counts as (issue 39, section 22.9). */
  public static final Setting<UnmappedClasses> DEVICE_UNMAPPED_CLASS =
      new Setting<>(
          "quota.device.unmapped.class",
          "deny|fallback",
          UnmappedClasses.DENY_SETTING,
          "What a device claimed through DRA of a DeviceClass no entry of quota.device.classes names"
              + " counts as. 'deny': nothing, and the devices are unresolved: the pod webhook and"
              + " the scheduler filter deny the pod (device-class-unmapped) and the engine does not"
              + " honour its preemptible=false label. A fallback 'RESOURCE [x N]' (e.g."
              + " 'nvidia.com/gpu x 1') charges each such device N of RESOURCE instead.",
          UnmappedClasses::parse);

  /** Koordinator's feature gate ElasticQuotaGuaranteeUsage (docs/semantics.md section 17). */
  public static final Setting<Boolean> GUARANTEE_USAGE =
      new Setting<>(
          "quota.guarantee.usage",
          "boolean",
          "false",
          "Koordinator's ElasticQuotaGuaranteeUsage: what a group's pods use (and its children are"
              + " guaranteed) is guaranteed to it as max(min, allocated), no group lends, and each"
              + " group starts its share at its guaranteed amount.",
          Parsers::bool);

  /** Koordinator's feature gate SupportParentQuotaSubmitPod (docs/semantics.md section 18). */
  public static final Setting<Boolean> PARENT_PODS =
      new Setting<>(
          "quota.parent.pods",
          "boolean",
          "false",
          "Koordinator's SupportParentQuotaSubmitPod: a parent group may own pods, counted in its"
              + " own request before its children's; off, such pods are charged nowhere and"
              + " denied.",
          Parsers::bool);

  /** Issue 24: whether a pod's label alone chooses its group. */
  public static final Setting<Boolean> NAMESPACE_BINDING_OPEN =
      new Setting<>(
          "quota.namespace.binding.open",
          "boolean",
          "false",
          "Koordinator's open behaviour, for shadow mode and migration: a pod's quota-name label"
              + " alone chooses its group. Off (the default), a label is honoured only when the"
              + " group admits the pod's namespace (the ElasticQuota's own namespace, its namespaces"
              + " annotation, its namespace selector's namespaces); otherwise the pod is charged as"
              + " if unlabelled and the pod webhook denies it.",
          Parsers::bool);

  /** Issue 39: whether the namespace named like a group binds labels to it. */
  public static final Setting<Boolean> NAMESPACE_BINDING_NAMESAKE =
      new Setting<>(
          "quota.namespace.binding.namesake",
          "boolean",
          "false",
          "Whether the namespace named like a group binds pods' quota-name labels to it, and lets"
              + " whoever may list pods there see the group's pods in the query API and web view."
              + " Off (the default), whoever may create a namespace cannot join a team by naming"
              + " the namespace like it; the namespace still owns its unlabelled pods.",
          Parsers::bool);

  /** Issue 39: whether a group whose ElasticQuota namespace is unknown admits every namespace. */
  public static final Setting<Boolean> NAMESPACE_BINDING_UNKNOWN_OPEN =
      new Setting<>(
          "quota.namespace.binding.unknown.open",
          "boolean",
          "false",
          "Whether a group whose ElasticQuota namespace is not known (a record written before the"
              + " connectors sent it) admits every namespace's labels. Off (the default),"
              + " it admits only the namespaces it lists or selects until the connectors"
              + " send it again.",
          Parsers::bool);

  /** Issue 24: the namespaces whose pods may name the special groups. */
  public static final Setting<List<String>> SPECIAL_GROUP_NAMESPACES =
      new Setting<>(
          "quota.special.group.namespaces",
          "list",
          "kube-system,quotaflow",
          "Comma-separated namespaces whose pods may name koordinator-system-quota or"
              + " koordinator-default-quota in their quota-name label.",
          Parsers.list(Parsers::nonBlank));

  /** Issue 39 point 5: the namespaces whose ElasticQuotas may define the special groups. */
  public static final Setting<List<String>> SPECIAL_QUOTA_NAMESPACES =
      new Setting<>(
          "quota.special.namespaces",
          "list",
          "kube-system,quotaflow,koordinator-system",
          "Comma-separated namespaces whose ElasticQuotas may define the special groups"
              + " (koordinator-root-quota, koordinator-system-quota, koordinator-default-quota), as"
              + " admission.quota.special.namespaces; a special group's record from any other"
              + " namespace is ignored with a warning and counted in"
              + " quotaflow.engine.quotas.namesakes.ignored.",
          Parsers.list(Parsers::nonBlank));

  /** The locked-share cap of node reservations. */
  public static final Setting<Integer> RESERVATION_MAX_LOCKED_PERCENT =
      new Setting<>(
          "reservation.max.locked.percent",
          "int",
          String.valueOf(QuotaOptions.DEFAULT_RESERVATION_MAX_LOCKED_PERCENT),
          "The most of the cluster total, in percent per dimension, that node reservations may"
              + " lock together (0 to 100); the oldest reservation keeps its lock first.",
          QuotaParsers::percent);

  /**
   * Issue 30: whether past borrowing lowers a group's weight in the split of surplus
   * (docs/semantics.md section 24).
   */
  public static final Setting<Boolean> FAIRSHARE_MEMORY_ENABLED =
      new Setting<>(
          "fairshare.memory.enabled",
          "boolean",
          "false",
          "Whether fair share has a memory: each group's borrowing, decayed with the half-life,"
              + " lowers its weight in its parent's split of surplus, so that a group that"
              + " borrowed much lately gets less of it than a sibling that did not. Needs"
              + " history.enabled (the borrowing is read from the history's step windows).",
          Parsers::bool);

  /** How fast past borrowing is forgotten. */
  public static final Setting<Duration> FAIRSHARE_MEMORY_HALF_LIFE =
      new Setting<>(
          "fairshare.memory.half-life",
          "duration",
          "7d",
          "The half-life of fair share's memory: borrowing this long ago counts half as much as"
              + " borrowing now. Changing it, or history.step, starts the memory afresh.",
          Parsers::wholeSeconds);

  /** Every setting of quota semantics, in documentation order. */
  public static final List<Setting<?>> ALL =
      List.of(
          NAMESPACE_BINDING_OPEN,
          NAMESPACE_BINDING_NAMESAKE,
          NAMESPACE_BINDING_UNKNOWN_OPEN,
          SPECIAL_GROUP_NAMESPACES,
          SPECIAL_QUOTA_NAMESPACES,
          MIN_SCALING,
          DEFAULT_SHARED_WEIGHT,
          USED_POLICY,
          COUNT_TERMINATING_PODS,
          ONLY_READY_SCHEDULABLE_NODES,
          DERIVED_RESOURCES,
          DEFAULT_GROUP_MAX,
          DEVICE_CLASSES,
          DEVICE_UNMAPPED_CLASS,
          GUARANTEE_USAGE,
          PARENT_PODS,
          RESERVATION_MAX_LOCKED_PERCENT,
          FAIRSHARE_MEMORY_ENABLED,
          FAIRSHARE_MEMORY_HALF_LIFE);

  /** Short names older than the rule of {@link #fileName}; kept, since files carry them. */
  private static final Map<String, String> FORMER_FILE_NAMES =
      Map.of(MIN_SCALING.key(), "min-scale");

  private QuotaSettings() {}

  /**
   * The name of {@code setting} in a {@code simulate --config} file: its key without {@code
   * quota.}, dots as dashes ({@code namespace-binding-open}); {@code min-scale} for {@code
   * quota.min.scaling}, as before the catalogue.
   */
  public static String fileName(final Setting<?> setting) {
    final String former = FORMER_FILE_NAMES.get(setting.key());
    if (former != null) {
      return former;
    }
    final String key = setting.key();
    return (key.startsWith("quota.") ? key.substring("quota.".length()) : key)
        .toLowerCase(Locale.ROOT)
        .replace('.', '-');
  }

  /** What {@code values} (holding every setting of {@link #ALL}) say quota means. */
  public static QuotaSemantics read(final SettingValues values) {
    final QuotaOptions options =
        QuotaOptions.DEFAULTS
            .withMinScaling(values.get(MIN_SCALING))
            .withDefaultWeight(values.get(DEFAULT_SHARED_WEIGHT))
            .withUsedPolicy(values.get(USED_POLICY))
            .withCountTerminatingPods(values.get(COUNT_TERMINATING_PODS))
            .withOnlyReadySchedulableNodes(values.get(ONLY_READY_SCHEDULABLE_NODES))
            .withDerivedResources(values.get(DERIVED_RESOURCES))
            .withDefaultGroupMax(values.get(DEFAULT_GROUP_MAX))
            .withReservationMaxLockedPercent(values.get(RESERVATION_MAX_LOCKED_PERCENT))
            .withGuaranteeUsage(values.get(GUARANTEE_USAGE))
            .withParentPods(values.get(PARENT_PODS))
            .withNamespaceBinding(
                new NamespaceBinding(
                    values.get(NAMESPACE_BINDING_OPEN),
                    Set.copyOf(values.get(SPECIAL_GROUP_NAMESPACES)),
                    values.get(NAMESPACE_BINDING_NAMESAKE),
                    values.get(NAMESPACE_BINDING_UNKNOWN_OPEN)))
            .withSpecialQuotaNamespaces(
                new SpecialQuotaNamespaces(Set.copyOf(values.get(SPECIAL_QUOTA_NAMESPACES))));
    return new QuotaSemantics(
        options,
        values.get(DEVICE_CLASSES).withUnmapped(values.get(DEVICE_UNMAPPED_CLASS)),
        values.get(FAIRSHARE_MEMORY_ENABLED)
            ? Optional.of(values.get(FAIRSHARE_MEMORY_HALF_LIFE))
            : Optional.empty());
  }
}
