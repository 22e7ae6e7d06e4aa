package io.quotaflow.tree;

import io.quotaflow.eviction.ProtectedPods;
import io.quotaflow.quota.NamespaceBinding;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecialQuotaNamespaces;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The switches of the quota semantics (SPEC 5, 7, 8, 12). Defaults are Koordinator-compatible.
 *
 * @param minScaling scale children's mins down when they do not fit what the parent distributes
 * @param defaultWeight the weight of a group that has no explicit shared-weight
 * @param usedPolicy which pods count as used
 * @param countTerminatingPods whether pods with a deletion timestamp still count
 * @param onlyReadySchedulableNodes whether not-ready or unschedulable nodes are left out of the
 *     total
 * @param derivedResources rules adding derived dimensions to each pod's request
 * @param defaultGroupMax the default group's max when no ElasticQuota object defines the group
 *     (empty: unbounded)
 * @param reservationMaxLockedPercent the most of the cluster total, in percent per dimension, that
 *     node reservations may lock together (docs/semantics.md section 14); 0 to 100
 * @param guaranteeUsage Koordinator's feature gate ElasticQuotaGuaranteeUsage: what a group has
 *     allocated is guaranteed to it, and no group lends (docs/semantics.md section 17); off by
 *     default, as the gate
 * @param parentPods Koordinator's feature gate SupportParentQuotaSubmitPod: a parent group may own
 *     pods, counted in its own request before its children's (docs/semantics.md section 18); off by
 *     default, as the gate
 * @param protectedPods pods never chosen as victims of reclaim (namespaces, system priorities)
 * @param namespaceBinding which namespaces' pods may name a group in their quota-name label
 * @param specialQuotaNamespaces the namespaces whose ElasticQuotas may define the special groups; a
 *     special group's record from any other is ignored (issue 39)
 */
public record QuotaOptions(
    boolean minScaling,
    DefaultWeightPolicy defaultWeight,
    UsedPolicy usedPolicy,
    boolean countTerminatingPods,
    boolean onlyReadySchedulableNodes,
    List<DerivedResourceRule> derivedResources,
    ResourceList defaultGroupMax,
    int reservationMaxLockedPercent,
    boolean guaranteeUsage,
    boolean parentPods,
    ProtectedPods protectedPods,
    NamespaceBinding namespaceBinding,
    SpecialQuotaNamespaces specialQuotaNamespaces) {

  /** The locked-share cap of node reservations unless configured: half the cluster. */
  public static final int DEFAULT_RESERVATION_MAX_LOCKED_PERCENT = 50;

  public static final QuotaOptions DEFAULTS =
      new QuotaOptions(
          true,
          DefaultWeightPolicy.MAX,
          UsedPolicy.BOUND,
          true,
          false,
          List.of(),
          ResourceList.empty(),
          DEFAULT_RESERVATION_MAX_LOCKED_PERCENT,
          false,
          false,
          ProtectedPods.DEFAULTS,
          NamespaceBinding.STRICT,
          SpecialQuotaNamespaces.DEFAULT);

  public QuotaOptions {
    Objects.requireNonNull(defaultWeight, "defaultWeight");
    Objects.requireNonNull(usedPolicy, "usedPolicy");
    derivedResources = List.copyOf(derivedResources);
    Objects.requireNonNull(defaultGroupMax, "defaultGroupMax");
    Objects.requireNonNull(protectedPods, "protectedPods");
    Objects.requireNonNull(namespaceBinding, "namespaceBinding");
    Objects.requireNonNull(specialQuotaNamespaces, "specialQuotaNamespaces");
    if (reservationMaxLockedPercent < 0 || reservationMaxLockedPercent > 100) {
      throw new IllegalArgumentException(
          "reservationMaxLockedPercent is a percentage from 0 to 100: "
              + reservationMaxLockedPercent);
    }
  }

  public QuotaOptions withMinScaling(boolean value) {
    return change(copy -> copy.minScaling = value);
  }

  public QuotaOptions withDefaultWeight(DefaultWeightPolicy value) {
    return change(copy -> copy.defaultWeight = value);
  }

  public QuotaOptions withUsedPolicy(UsedPolicy value) {
    return change(copy -> copy.usedPolicy = value);
  }

  public QuotaOptions withCountTerminatingPods(boolean value) {
    return change(copy -> copy.countTerminatingPods = value);
  }

  public QuotaOptions withOnlyReadySchedulableNodes(boolean value) {
    return change(copy -> copy.onlyReadySchedulableNodes = value);
  }

  public QuotaOptions withDerivedResources(List<DerivedResourceRule> value) {
    return change(copy -> copy.derivedResources = value);
  }

  public QuotaOptions withDefaultGroupMax(ResourceList value) {
    return change(copy -> copy.defaultGroupMax = value);
  }

  public QuotaOptions withReservationMaxLockedPercent(int value) {
    return change(copy -> copy.reservationMaxLockedPercent = value);
  }

  public QuotaOptions withGuaranteeUsage(boolean value) {
    return change(copy -> copy.guaranteeUsage = value);
  }

  public QuotaOptions withParentPods(boolean value) {
    return change(copy -> copy.parentPods = value);
  }

  public QuotaOptions withProtectedPods(ProtectedPods value) {
    return change(copy -> copy.protectedPods = value);
  }

  public QuotaOptions withNamespaceBinding(NamespaceBinding value) {
    return change(copy -> copy.namespaceBinding = value);
  }

  public QuotaOptions withSpecialQuotaNamespaces(SpecialQuotaNamespaces value) {
    return change(copy -> copy.specialQuotaNamespaces = value);
  }

  /** These options with one switch changed, so that each wither names only its own switch. */
  private QuotaOptions change(final Consumer<Draft> edit) {
    final Draft draft = new Draft(this);
    edit.accept(draft);
    return draft.build();
  }

  /** A mutable copy of the options, edited by one wither. */
  private static final class Draft {
    boolean minScaling;
    DefaultWeightPolicy defaultWeight;
    UsedPolicy usedPolicy;
    boolean countTerminatingPods;
    boolean onlyReadySchedulableNodes;
    List<DerivedResourceRule> derivedResources;
    ResourceList defaultGroupMax;
    int reservationMaxLockedPercent;
    boolean guaranteeUsage;
    boolean parentPods;
    ProtectedPods protectedPods;
    NamespaceBinding namespaceBinding;
    SpecialQuotaNamespaces specialQuotaNamespaces;

    Draft(final QuotaOptions from) {
      minScaling = from.minScaling;
      defaultWeight = from.defaultWeight;
      usedPolicy = from.usedPolicy;
      countTerminatingPods = from.countTerminatingPods;
      onlyReadySchedulableNodes = from.onlyReadySchedulableNodes;
      derivedResources = from.derivedResources;
      defaultGroupMax = from.defaultGroupMax;
      reservationMaxLockedPercent = from.reservationMaxLockedPercent;
      guaranteeUsage = from.guaranteeUsage;
      parentPods = from.parentPods;
      protectedPods = from.protectedPods;
      namespaceBinding = from.namespaceBinding;
      specialQuotaNamespaces = from.specialQuotaNamespaces;
    }

    QuotaOptions build() {
      return new QuotaOptions(
          minScaling,
          defaultWeight,
          usedPolicy,
          countTerminatingPods,
          onlyReadySchedulableNodes,
          derivedResources,
          defaultGroupMax,
          reservationMaxLockedPercent,
          guaranteeUsage,
          parentPods,
          protectedPods,
          namespaceBinding,
          specialQuotaNamespaces);
    }
  }

  /** Whose spec gives the weight of a group without an explicit shared-weight. */
  public enum DefaultWeightPolicy {
    /** Koordinator: the weight is max. */
    MAX,
    /** nos: the weight is min, so surplus is shared in proportion to guarantees. */
    MIN
  }

  /** Which pods count as used. */
  public enum UsedPolicy {
    /** Koordinator: pods bound to a node and not finished. */
    BOUND,
    /** nos: only pods in phase Running. */
    RUNNING
  }

  /**
   * Adds {@code factor} units of {@code target} per unit of {@code source} to each pod's request,
   * e.g. {@code nvidia.com/gpu -> quotaflow.io/gpu-memory x 32}.
   */
  public record DerivedResourceRule(String source, String target, long factor) {
    public DerivedResourceRule {
      Objects.requireNonNull(source, "source");
      Objects.requireNonNull(target, "target");
      if (factor < 0) {
        throw new IllegalArgumentException("factor must not be negative: " + factor);
      }
    }
  }
}
