package io.quotaflow.tree;

import io.quotaflow.quota.PodRef;
import java.util.Objects;
import java.util.Optional;

/**
 * Where one pod is charged (SPEC 4) and, for a bound pod, its over-quota class (SPEC 12).
 *
 * @param ref the pod
 * @param group the group it is charged to
 * @param podClass in-quota or over-quota; empty for pods that are not bound or finished
 * @param problem set when the pod resolves to something it cannot be charged to (a parent group)
 * @param unbound set when the pod's quota-name label names a group not bound to its namespace: the
 *     label was ignored and the pod charged as if unlabelled (issue 24; the pod webhook denies such
 *     pods, so it got in while the webhook was down or before quotaflow was installed)
 */
public record PodAssignment(
    PodRef ref,
    String group,
    Optional<PodClass> podClass,
    Optional<String> problem,
    Optional<String> unbound) {
  public PodAssignment {
    Objects.requireNonNull(ref, "ref");
    Objects.requireNonNull(group, "group");
    Objects.requireNonNull(podClass, "podClass");
    Objects.requireNonNull(problem, "problem");
    Objects.requireNonNull(unbound, "unbound");
  }

  /** An assignment whose label, if any, was honoured. */
  public PodAssignment(
      PodRef ref, String group, Optional<PodClass> podClass, Optional<String> problem) {
    this(ref, group, podClass, problem, Optional.empty());
  }
}
