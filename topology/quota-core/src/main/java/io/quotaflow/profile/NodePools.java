package io.quotaflow.profile;

import io.quotaflow.reason.Reason;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Which nodes a pod of a quota tree may run on (docs/semantics.md section 15): the nodes its tree's
 * profile selects. A pod of the default tree may run anywhere; a pod of a profile's tree only in
 * that profile's node pool, whatever the node's state (a NotReady node in the pool is the
 * scheduler's business, not the quota's).
 */
public final class NodePools {

  private final Map<String, QuotaProfile> profiles;

  /**
   * @param profiles each profile tree's profile, by tree id ({@link QuotaTrees#acceptedTrees})
   */
  public NodePools(Map<String, QuotaProfile> profiles) {
    this.profiles = Map.copyOf(Objects.requireNonNull(profiles, "profiles"));
  }

  /** Whether no group is in a profile's tree: every node is then in every pod's pool. */
  public boolean isEmpty() {
    return profiles.isEmpty();
  }

  /**
   * Why a pod of quota group {@code group}, in tree {@code tree}, may not run on node {@code node};
   * empty when the node is in the tree's pool. Led by the reason's code, {@code outside-pool}.
   *
   * @param labels the node's labels; empty when not known (a node of unknown labels is outside
   *     every profile's pool: the pool cannot be shown to hold it)
   */
  public Optional<String> refusal(
      String group, String tree, String node, Optional<Map<String, String>> labels) {
    final QuotaProfile profile = profiles.get(tree);
    if (profile == null) {
      return Optional.empty();
    }
    if (labels.isPresent() && profile.nodeSelector().matches(labels.get())) {
      return Optional.empty();
    }
    return Optional.of(
        "quotaflow: "
            + Reason.OUTSIDE_POOL.code()
            + ": node "
            + node
            + " is outside the node pool of quota tree "
            + tree
            + " (ElasticQuotaProfile "
            + profile.name()
            + ", root "
            + profile.quotaName()
            + "), the tree of quota group "
            + group
            + (labels.isPresent() ? "" : " (the node's labels are not known)"));
  }
}
