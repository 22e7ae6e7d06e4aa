package io.quotaflow.simulate;

import io.quotaflow.profile.MultiTreeCalculator.TreeResult;
import io.quotaflow.reservation.ReservationStatus;
import java.util.Map;

/**
 * One tree of a cluster with ElasticQuotaProfiles, as simulate prints it; {@code quotaflow local}
 * prints the engine's trees with it.
 *
 * @param tree the tree's result (its profile, inputs and snapshot)
 * @param reservations the node reservations of the tree's groups, by group
 */
public record TreeReport(TreeResult tree, Map<String, ReservationStatus> reservations) {

  public TreeReport {
    reservations = Map.copyOf(reservations);
  }

  /** The line that names the tree above its table. */
  public String heading() {
    return tree.profile()
        .map(
            profile ->
                "Tree "
                    + tree.tree()
                    + ": ElasticQuotaProfile "
                    + profile.name()
                    + ", root "
                    + profile.quotaName()
                    + ", resourceRatio "
                    + profile.ratio()
                    + ", "
                    + tree.inputs().nodes().size()
                    + " Ready nodes")
        .orElse("Tree " + tree.tree() + ": the groups outside every profile's tree, all nodes");
  }
}
