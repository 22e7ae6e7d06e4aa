package io.quotaflow.tree;

/** Over-quota visibility of a bound pod (SPEC 12): over-quota pods are the ones at risk. */
public enum PodClass {
  IN_QUOTA,
  OVER_QUOTA
}
