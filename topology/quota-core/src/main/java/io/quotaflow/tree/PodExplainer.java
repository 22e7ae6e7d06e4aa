package io.quotaflow.tree;

import io.quotaflow.explain.PodExplanation;
import io.quotaflow.explain.PodExplanation.Admission;
import io.quotaflow.explain.PodExplanation.Blocker;
import io.quotaflow.explain.PodExplanation.ClassBasis;
import io.quotaflow.explain.PodExplanation.ClassDimension;
import io.quotaflow.explain.PodExplanation.GroupResolution;
import io.quotaflow.explain.Reach;
import io.quotaflow.quota.PodPhase;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.rules.AdmissionCheck;
import io.quotaflow.rules.AdmissionDecision;
import io.quotaflow.rules.AdmissionRequest;
import io.quotaflow.rules.Denial;
import io.quotaflow.rules.InFlight;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Explains one pod (issue 27): its group and how it was found ({@link GroupDirectory}), its class
 * with the numbers of the class rule, and, for a pod not bound yet, the check the scheduler filter
 * makes for it now ({@link AdmissionCheck}) with, for each check it fails, what would clear it
 * ({@link RuntimeExplainer#reach}).
 */
public final class PodExplainer {

  private final WhatIfInputs inputs;
  private final GroupDirectory directory;
  private final QuotaOptions options;

  public PodExplainer(WhatIfInputs inputs, GroupDirectory directory, QuotaOptions options) {
    this.inputs = inputs;
    this.directory = directory;
    this.options = options;
  }

  /**
   * @param pod the pod as the engine last read it
   * @param assignment where the engine charged it, with its class; empty if it does not know it
   * @param groupPods the pods charged to its group, for the class rule
   */
  public PodExplanation explain(
      QuotaPod pod, Optional<PodAssignment> assignment, List<QuotaPod> groupPods) {
    final AdmissionRequest request = AdmissionRequest.of(pod, directory, options);
    final GroupDirectory.Target target = directory.resolve(pod, options);
    final GroupResolution group =
        new GroupResolution(
            target.group(),
            directory.resolvedBy(pod, options).name(),
            target.unbound().isPresent() ? target.unbound() : unboundLabel(assignment),
            target.problem());
    final Optional<ClassBasis> quotaClass =
        assignment
            .flatMap(PodAssignment::podClass)
            .map(podClass -> classBasis(pod, podClass, groupPods, target.group()));
    final boolean waiting =
        pod.nodeName().isEmpty()
            && pod.deletionTime().isEmpty()
            && (pod.phase() == PodPhase.PENDING || pod.phase() == PodPhase.UNKNOWN);
    final Optional<Admission> admission =
        waiting ? Optional.of(admission(request, assignment.isPresent())) : Optional.empty();
    return new PodExplanation(
        pod.ref(),
        pod.phase().name().toLowerCase(Locale.ROOT),
        pod.nodeName(),
        request.request().asMap(),
        group,
        quotaClass,
        admission);
  }

  private static Optional<String> unboundLabel(Optional<PodAssignment> assignment) {
    return assignment.flatMap(PodAssignment::unbound);
  }

  /** The class rule's numbers at the pod: who came before it, in the rule's order. */
  private ClassBasis classBasis(
      QuotaPod pod, PodClass podClass, List<QuotaPod> groupPods, String group) {
    final List<QuotaPod> used = new ArrayList<>();
    for (final QuotaPod other : groupPods) {
      if (PodAccounting.countsAsUsed(other, options)) {
        used.add(other);
      }
    }
    final List<String> reported =
        inputs
            .status(group)
            .map(status -> List.copyOf(new java.util.TreeSet<>(status.trackedDimensions())))
            .orElse(List.of());
    // The rule's order: oldest first, then smallest dimension by dimension, then by reference.
    Comparator<QuotaPod> order = Comparator.comparing(QuotaPod::creationTime);
    for (final String resource : reported) {
      order =
          order.thenComparingLong(p -> PodAccounting.effectiveRequest(p, options).get(resource));
    }
    used.sort(order.thenComparing(QuotaPod::ref));
    final ResourceList min =
        inputs.spec(group).map(spec -> spec.min()).orElse(ResourceList.empty());
    final List<ClassDimension> dimensions = new ArrayList<>();
    for (final String resource : reported) {
      long before = 0;
      for (final QuotaPod other : used) {
        if (other.ref().equals(pod.ref())) {
          break;
        }
        before = Arith.add(before, PodAccounting.effectiveRequest(other, options).get(resource));
      }
      final long with =
          Arith.add(before, PodAccounting.effectiveRequest(pod, options).get(resource));
      dimensions.add(new ClassDimension(resource, min.get(resource), before, with));
    }
    return new ClassBasis(podClass == PodClass.IN_QUOTA ? "in-quota" : "over-quota", dimensions);
  }

  private Admission admission(AdmissionRequest request, boolean counted) {
    final AdmissionDecision decision =
        AdmissionCheck.check(
            request,
            inputs,
            InFlight.empty(),
            counted ? AdmissionCheck.PodState.COUNTED : AdmissionCheck.PodState.NEW,
            options);
    final RuntimeExplainer explainer = new RuntimeExplainer(inputs, options);
    final List<Blocker> blockers = new ArrayList<>();
    for (final Denial denial : decision.denials()) {
      final long needed = Arith.add(Arith.add(denial.used(), denial.inFlight()), denial.request());
      final long excess = denial.dimension().isEmpty() ? 0L : Math.max(0L, needed - denial.limit());
      final Optional<Reach> reach =
          denial.check() == Denial.Check.RUNTIME
              ? explainer.reach(denial.group(), denial.dimension(), needed)
              : Optional.empty();
      blockers.add(
          new Blocker(
              denial.reason(),
              denial.group(),
              denial.dimension(),
              denial.message(),
              excess,
              reach));
    }
    return new Admission(decision.allowed(), blockers);
  }
}
