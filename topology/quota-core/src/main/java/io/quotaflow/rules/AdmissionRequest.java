package io.quotaflow.rules;

import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.tree.GroupDirectory;
import io.quotaflow.tree.PodAccounting;
import io.quotaflow.tree.QuotaOptions;
import java.util.Objects;
import java.util.Optional;

/**
 * A pod asking to be admitted (SPEC 10).
 *
 * @param pod the pod
 * @param group the group it is charged to (SPEC 4)
 * @param request its effective request, derived dimensions included
 * @param preemptible false for a non-preemptible pod, which must also fit in min
 * @param problem set when the pod cannot be charged to {@code group}
 * @param problemCheck what the problem is: a parent group (or a label naming the root or a parent
 *     group), or a label naming a group that does not admit the pod's namespace
 */
public record AdmissionRequest(
    PodRef pod,
    String group,
    ResourceList request,
    boolean preemptible,
    Optional<String> problem,
    Denial.Check problemCheck) {

  public AdmissionRequest {
    Objects.requireNonNull(pod, "pod");
    Objects.requireNonNull(group, "group");
    Objects.requireNonNull(request, "request");
    Objects.requireNonNull(problem, "problem");
    Objects.requireNonNull(problemCheck, "problemCheck");
  }

  /** A request whose problem, if any, is a parent group. */
  public AdmissionRequest(
      PodRef pod,
      String group,
      ResourceList request,
      boolean preemptible,
      Optional<String> problem) {
    this(pod, group, request, preemptible, problem, Denial.Check.NOT_A_LEAF);
  }

  /** The request for {@code pod}, resolving its group through {@code directory}. */
  public static AdmissionRequest of(QuotaPod pod, GroupDirectory directory, QuotaOptions options) {
    final GroupDirectory.Target target = directory.resolve(pod, options);
    if (target.unbound().isPresent()) {
      // The label names the root, a parent group, or a group the pod's namespace is not bound to:
      // denied, naming that group (the engine and simulate charge such a pod as if unlabelled).
      final String label = pod.quotaName().orElseThrow();
      return new AdmissionRequest(
          pod.ref(),
          label,
          PodAccounting.effectiveRequest(pod, options),
          pod.preemptible(),
          target.unbound(),
          directory.notALeaf(label, options.parentPods()).isPresent()
              ? Denial.Check.NOT_A_LEAF
              : Denial.Check.NAMESPACE_NOT_BOUND);
    }
    return new AdmissionRequest(
        pod.ref(),
        target.group(),
        PodAccounting.effectiveRequest(pod, options),
        pod.preemptible(),
        target.problem());
  }
}
