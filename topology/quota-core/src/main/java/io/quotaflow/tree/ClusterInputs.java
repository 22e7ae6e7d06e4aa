package io.quotaflow.tree;

import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.QuotaNode;
import io.quotaflow.quota.QuotaPod;
import java.util.List;

/** Everything one cluster's computation reads: its groups, pods and nodes, in any order. */
public record ClusterInputs(List<QuotaGroup> groups, List<QuotaPod> pods, List<QuotaNode> nodes) {
  public ClusterInputs {
    groups = List.copyOf(groups);
    pods = List.copyOf(pods);
    nodes = List.copyOf(nodes);
  }
}
