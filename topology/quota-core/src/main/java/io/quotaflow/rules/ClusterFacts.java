package io.quotaflow.rules;

import io.quotaflow.quota.ResourceList;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What the quota webhook's rules read of a cluster's current state besides its groups.
 *
 * @param podsPerGroup how many pods each group has (groups not listed have none)
 * @param used what each group uses, as the engine last computed it (groups not listed are not
 *     known: their strict max keys are not checked)
 * @param clusterTotal the total the tree shares, for node reservations; empty when not known
 * @param parentPods whether parent groups may own pods (Koordinator's SupportParentQuotaSubmitPod)
 */
public record ClusterFacts(
    Map<String, Integer> podsPerGroup,
    Map<String, ResourceList> used,
    Optional<ResourceList> clusterTotal,
    boolean parentPods) {

  public ClusterFacts {
    podsPerGroup = Map.copyOf(podsPerGroup);
    used = Map.copyOf(used);
    Objects.requireNonNull(clusterTotal, "clusterTotal");
  }
}
