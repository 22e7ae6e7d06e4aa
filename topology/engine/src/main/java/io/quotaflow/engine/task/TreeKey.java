package io.quotaflow.engine.task;

import java.util.Comparator;
import java.util.Objects;

/**
 * One quota tree of one cluster: the unit the engine keeps state for and recomputes (a cluster
 * without ElasticQuotaProfiles has one, its default tree).
 *
 * @param cluster the cluster
 * @param tree the tree's id ({@code QuotaTrees.DEFAULT_TREE} or a profile's tree id)
 */
public record TreeKey(String cluster, String tree) implements Comparable<TreeKey> {

  private static final Comparator<TreeKey> ORDER =
      Comparator.comparing(TreeKey::cluster).thenComparing(TreeKey::tree);

  public TreeKey {
    Objects.requireNonNull(cluster, "cluster");
    Objects.requireNonNull(tree, "tree");
  }

  @Override
  public int compareTo(final TreeKey other) {
    return ORDER.compare(this, other);
  }

  @Override
  public String toString() {
    return cluster + "/" + tree;
  }
}
