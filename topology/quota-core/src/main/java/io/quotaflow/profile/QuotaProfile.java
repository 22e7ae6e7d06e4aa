package io.quotaflow.profile;

import io.quotaflow.quota.SpecProblem;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One ElasticQuotaProfile ({@code quota.koordinator.sh/v1alpha1}): a quota tree over a node pool.
 *
 * @param name the profile's name (unique within its cluster, as quotaflow keys it)
 * @param treeId the tree's id: the profile's label {@code quota.scheduling.koordinator.sh/tree-id}
 *     when set, else the profile's name
 * @param quotaName {@code spec.quotaName}: the tree's root group
 * @param quotaLabels {@code spec.quotaLabels}: labels upstream puts on the root group (carried, not
 *     interpreted)
 * @param ratio {@code spec.resourceRatio}, {@link ResourceRatio#ONE} when absent
 * @param nodeSelector {@code spec.nodeSelector}: the pool's nodes
 * @param problems fields that could not be read (the tree's root is then invalid)
 */
public record QuotaProfile(
    String name,
    String treeId,
    String quotaName,
    Map<String, String> quotaLabels,
    ResourceRatio ratio,
    NodeSelector nodeSelector,
    List<SpecProblem> problems) {

  public QuotaProfile {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(treeId, "treeId");
    Objects.requireNonNull(quotaName, "quotaName");
    quotaLabels = Map.copyOf(quotaLabels);
    Objects.requireNonNull(ratio, "ratio");
    Objects.requireNonNull(nodeSelector, "nodeSelector");
    problems = List.copyOf(problems);
  }

  /** A profile without problems, for tests and examples. */
  public static QuotaProfile of(
      String name, String quotaName, ResourceRatio ratio, NodeSelector nodeSelector) {
    return new QuotaProfile(name, name, quotaName, Map.of(), ratio, nodeSelector, List.of());
  }
}
