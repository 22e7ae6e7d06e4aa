package io.quotaflow.simulate;

import io.quotaflow.profile.MultiTreeCalculator.TreeResult;
import io.quotaflow.quota.GangSummary;
import io.quotaflow.reservation.ReservationStatus;
import java.util.List;
import java.util.Map;

/**
 * One tree of a cluster with ElasticQuotaProfiles, as simulate prints it; {@code quotaflow local}
 * prints the engine's trees with it.
 *
 * @param tree the tree's result (its profile, inputs and snapshot)
 * @param reservations the node reservations of the tree's groups, by group
 * @param gangs the gangs of the tree's groups, by group; only groups with a gang
 */
public record TreeReport(
    TreeResult tree,
    Map<String, ReservationStatus> reservations,
    Map<String, List<GangSummary>> gangs) {

  public TreeReport {
    reservations = Map.copyOf(reservations);
    gangs = Map.copyOf(gangs);
  }

  /** A tree whose gangs are not shown. */
  public TreeReport(TreeResult tree, Map<String, ReservationStatus> reservations) {
    this(tree, reservations, Map.of());
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
