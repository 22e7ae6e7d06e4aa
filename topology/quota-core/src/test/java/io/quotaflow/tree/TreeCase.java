package io.quotaflow.tree;

import java.util.List;

/**
 * A row of a table-driven tree specification: a behaviour in words, the cluster that shows it and
 * the numbers the full calculation must give. Its {@code toString} is the behaviour, so that it
 * names the test case.
 */
public record TreeCase(String behaviour, Fixtures.ClusterBuilder cluster, List<Expected> expected) {

  public static TreeCase of(
      String behaviour, Fixtures.ClusterBuilder cluster, Expected... expected) {
    return new TreeCase(behaviour, cluster, List.of(expected));
  }

  /**
   * Computes the cluster and checks every expected number, in order, and that the explanation of
   * every runtime recomputes it.
   */
  public void verify() {
    final TreeSnapshot snapshot = cluster.computeExplained();
    expected.forEach(e -> e.verify(snapshot));
  }

  @Override
  public String toString() {
    return behaviour;
  }
}
