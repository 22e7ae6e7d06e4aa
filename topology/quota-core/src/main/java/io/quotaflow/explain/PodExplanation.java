package io.quotaflow.explain;

import io.quotaflow.quota.PodRef;
import io.quotaflow.reason.Reason;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Why a pod is where it is (issue 27): its group and how it was found, its class and why, whether
 * it would be admitted now and, if not, what would admit it. Amounts in canonical units.
 *
 * @param pod the pod
 * @param phase its phase as the engine last read it
 * @param node the node it is bound to, if any
 * @param request its effective request
 * @param group where it is charged and how that was decided
 * @param quotaClass its class, for a pod that counts as used
 * @param admission for a pod not bound yet: the check the scheduler filter makes for it now
 */
public record PodExplanation(
    PodRef pod,
    String phase,
    Optional<String> node,
    Map<String, Long> request,
    GroupResolution group,
    Optional<ClassBasis> quotaClass,
    Optional<Admission> admission) {

  public PodExplanation {
    Objects.requireNonNull(pod, "pod");
    request = Map.copyOf(request);
  }

  /**
   * @param name the group the pod is charged to
   * @param by how it was found: {@code LABEL}, {@code NAMESPACE_NAME}, {@code
   *     NAMESPACES_ANNOTATION} or {@code DEFAULT}
   * @param labelIgnored why the pod's quota-name label was not honoured, if it was not
   * @param problem why the pod cannot be charged there (a parent group), if so
   */
  public record GroupResolution(
      String name, String by, Optional<String> labelIgnored, Optional<String> problem) {}

  /**
   * The class rule (SPEC 12): the group's used pods, oldest first then smallest first, are in-quota
   * while their running sum stays within min in every dimension.
   *
   * @param podClass {@code in-quota} or {@code over-quota}
   * @param dimensions per dimension of the group: its min, what the pods before this one hold, and
   *     the sum with this one
   */
  public record ClassBasis(String podClass, List<ClassDimension> dimensions) {
    public ClassBasis {
      dimensions = List.copyOf(dimensions);
    }
  }

  /** One dimension of {@link ClassBasis}. */
  public record ClassDimension(String resource, long min, long before, long with) {}

  /**
   * @param allowed whether the pod fits now
   * @param blockers each check it fails
   */
  public record Admission(boolean allowed, List<Blocker> blockers) {
    public Admission {
      blockers = List.copyOf(blockers);
    }
  }

  /**
   * One failed check and what would clear it.
   *
   * @param reason the reason's code (docs/semantics.md section 19)
   * @param group where it fails: the pod's group or an ancestor
   * @param resource the dimension; empty for checks without one
   * @param message the check's own words
   * @param excess by how much {@code used + in-flight + request} exceeds the bound: pods of {@code
   *     group} holding at least this much must finish, or the bound grow by it
   * @param reach what {@code group} would need for its runtime to cover the pod
   */
  public record Blocker(
      Reason reason,
      String group,
      String resource,
      String message,
      long excess,
      Optional<Reach> reach) {}
}
