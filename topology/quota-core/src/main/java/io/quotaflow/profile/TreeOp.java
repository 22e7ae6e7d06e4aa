package io.quotaflow.profile;

import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.QuotaNode;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.tree.ClusterQuotaState;

/** One change to one tree's inputs, as {@link QuotaTrees} routes an input of the cluster. */
public sealed interface TreeOp {

  /** The tree whose state the change goes to. */
  String tree();

  /** Applies the change to the tree's state. */
  void applyTo(ClusterQuotaState state);

  /** A group put into the tree (as the tree sees it: a root's spec is the profile's). */
  record PutGroup(String tree, QuotaGroup group) implements TreeOp {
    @Override
    public void applyTo(ClusterQuotaState state) {
      state.putGroup(group);
    }
  }

  /** A group removed from the tree. */
  record RemoveGroup(String tree, String name) implements TreeOp {
    @Override
    public void applyTo(ClusterQuotaState state) {
      state.removeGroup(name);
    }
  }

  /** A pod put into the tree. */
  record PutPod(String tree, QuotaPod pod) implements TreeOp {
    @Override
    public void applyTo(ClusterQuotaState state) {
      state.putPod(pod);
    }
  }

  /** A pod removed from the tree. */
  record RemovePod(String tree, PodRef ref) implements TreeOp {
    @Override
    public void applyTo(ClusterQuotaState state) {
      state.removePod(ref);
    }
  }

  /** A node put into the tree (counting toward its total). */
  record PutNode(String tree, QuotaNode node) implements TreeOp {
    @Override
    public void applyTo(ClusterQuotaState state) {
      state.putNode(node);
    }
  }

  /** A node removed from the tree. */
  record RemoveNode(String tree, String name) implements TreeOp {
    @Override
    public void applyTo(ClusterQuotaState state) {
      state.removeNode(name);
    }
  }
}
