package io.quotaflow.tree;

import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.tree.QuotaOptions.DerivedResourceRule;
import io.quotaflow.tree.QuotaOptions.UsedPolicy;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * How one pod counts (SPEC 5, 12): its effective request with derived dimensions added, and whether
 * it counts as request and as used under the configured policies.
 */
public final class PodAccounting {

  private PodAccounting() {}

  /**
   * The pod's request with every derived-resource rule applied (SPEC 12). Rules read the pod's own
   * request, never each other's output; negative amounts (which no valid pod has) count as 0.
   */
  public static ResourceList effectiveRequest(QuotaPod pod, QuotaOptions options) {
    return derive(pod.request(), options.derivedResources());
  }

  /**
   * Adds {@code factor × source} to {@code target} for every rule whose source is present, after
   * clamping negative amounts to 0. Also used for node allocatable, so that a derived dimension has
   * a cluster total to be shared from.
   */
  public static ResourceList derive(ResourceList amounts, List<DerivedResourceRule> rules) {
    boolean clean = true;
    for (int i = 0; i < amounts.size(); i++) {
      if (amounts.amountAt(i) < 0) {
        clean = false;
        break;
      }
    }
    if (clean && (rules.isEmpty() || noRuleApplies(amounts, rules))) {
      return amounts;
    }
    final Map<String, Long> result = new TreeMap<>();
    amounts.asMap().forEach((name, amount) -> result.put(name, Math.max(0L, amount)));
    for (final DerivedResourceRule rule : rules) {
      if (amounts.contains(rule.source())) {
        final long derived =
            Arith.multiply(Math.max(0L, amounts.get(rule.source())), rule.factor());
        result.merge(rule.target(), derived, Arith::add);
      }
    }
    return ResourceList.of(result);
  }

  private static boolean noRuleApplies(ResourceList amounts, List<DerivedResourceRule> rules) {
    for (final DerivedResourceRule rule : rules) {
      if (amounts.contains(rule.source())) {
        return false;
      }
    }
    return true;
  }

  /** Pending and running pods count as request until finished (and, optionally, terminating). */
  public static boolean countsAsRequest(QuotaPod pod, QuotaOptions options) {
    if (pod.phase().isFinished()) {
      return false;
    }
    return options.countTerminatingPods() || pod.deletionTime().isEmpty();
  }

  /** Bound, unfinished pods count as used; with {@link UsedPolicy#RUNNING} only Running pods. */
  public static boolean countsAsUsed(QuotaPod pod, QuotaOptions options) {
    if (!countsAsRequest(pod, options) || !pod.isBound()) {
      return false;
    }
    return options.usedPolicy() == UsedPolicy.BOUND
        || pod.phase() == io.quotaflow.quota.PodPhase.RUNNING;
  }

  /** The effective request restricted to the dimensions a group tracks. */
  public static ResourceList chargedRequest(
      QuotaPod pod, Set<String> trackedDimensions, QuotaOptions options) {
    return effectiveRequest(pod, options).only(trackedDimensions);
  }
}
