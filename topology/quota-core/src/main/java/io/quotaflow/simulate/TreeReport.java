package io.quotaflow.simulate;

import io.quotaflow.profile.MultiTreeCalculator.TreeResult;
import io.quotaflow.reservation.ReservationStatus;
import java.util.Map;

/** One tree of a cluster with ElasticQuotaProfiles, as simulate prints it. */
record TreeReport(TreeResult tree, Map<String, ReservationStatus> reservations) {

  TreeReport {
    reservations = Map.copyOf(reservations);
  }

  /** The line that names the tree above its table. */
  String heading() {
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
