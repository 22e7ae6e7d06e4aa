package io.quotaflow.admission.http;

import io.quotaflow.admission.AdmissionDecision;
import io.quotaflow.admission.AdmissionRequest;
import io.quotaflow.admission.Denial;
import io.quotaflow.admission.http.inflight.ClusterAdmissions.Occasion;
import io.quotaflow.admission.http.inflight.InFlightHolds;
import io.quotaflow.admission.http.state.ClusterView;
import io.quotaflow.admission.view.RecentActivity;
import io.quotaflow.kube.PodGroupMembership;
import io.quotaflow.quota.Gang;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.reason.Reason;
import io.quotaflow.tree.QuotaOptions;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

/**
 * The quota check of one pod that the pod webhook and the scheduler filter share: excluded
 * namespaces and the system group pass unchecked, any other pod is decided (and held in flight) by
 * the cluster's admissions, and a pod that does not fit is only warned about in warn mode. Each
 * endpoint turns the verdict into its own answer.
 */
final class PodCheck {

  /** What became of the pod; the label is the one the endpoints' metrics and logs carry. */
  enum Outcome {
    EXCLUDED("excluded"),
    SYSTEM("system"),
    ALLOWED("allowed"),
    WARNED("warned"),
    DENIED("denied");

    private final String label;

    Outcome(String label) {
      this.label = label;
    }

    String label() {
      return label;
    }
  }

  /**
   * A pod's verdict.
   *
   * @param outcome what became of the pod
   * @param group the quota group the pod is charged to; empty when excluded
   * @param message why the pod does not fit (warned or denied), each failing check led by its
   *     reason's code; empty otherwise
   * @param denials the failing checks (warned or denied); empty otherwise
   */
  record Verdict(Outcome outcome, String group, String message, List<Denial> denials) {

    Verdict(Outcome outcome, String group) {
      this(outcome, group, "", List.of());
    }

    /** The reason of the first failing check, walking up from the pod's group; empty if none. */
    Optional<Reason> reason() {
      return denials.isEmpty() ? Optional.empty() : Optional.of(denials.get(0).reason());
    }
  }

  private final PluginConfig config;
  private final QuotaOptions options;
  private final InFlightHolds holds;
  private final Clock clock;
  private final RecentActivity activity;

  /**
   * @param activity where denials (and warnings in warn mode) are noted for the web view
   */
  PodCheck(
      PluginConfig config,
      QuotaOptions options,
      InFlightHolds holds,
      Clock clock,
      RecentActivity activity) {
    this.config = config;
    this.options = options;
    this.holds = holds;
    this.clock = clock;
    this.activity = activity;
  }

  PluginConfig config() {
    return config;
  }

  QuotaOptions options() {
    return options;
  }

  Verdict check(String cluster, QuotaPod pod, ClusterView view, Occasion occasion) {
    if (config.excludedNamespaces().contains(pod.ref().namespace())) {
      return new Verdict(Outcome.EXCLUDED, "");
    }
    final AdmissionRequest request = AdmissionRequest.of(pod, view.directory(), options);
    // Only a pod bound to the system group is exempt: one that names it from another namespace
    // has a problem (NamespaceBinding) and is denied below.
    if (SpecialGroups.SYSTEM.equals(request.group()) && request.problem().isEmpty()) {
      return new Verdict(Outcome.SYSTEM, request.group());
    }
    final AdmissionDecision decision =
        holds
            .owned(cluster, view, options, config.excludedNamespaces(), clock.instant())
            .decide(request, gang(pod, view), view, options, clock.instant(), occasion);
    if (decision.allowed()) {
      return new Verdict(Outcome.ALLOWED, request.group());
    }
    final boolean warn = config.mode() == AdmissionMode.WARN;
    activity.denied(
        cluster,
        new RecentActivity.Denial(
            pod.ref(),
            request.group(),
            decision.denials().get(0).reason().code(),
            decision.message(),
            occasion == Occasion.SCHEDULE ? "scheduler filter" : "pod webhook",
            warn,
            clock.instant(),
            1));
    return new Verdict(
        warn ? Outcome.WARNED : Outcome.DENIED,
        request.group(),
        decision.message(),
        decision.denials());
  }

  /**
   * The pod's gang with its minMember: a scheduler-plugins or Volcano gang keeps it in its
   * PodGroup, not on the pod, so it is looked up in the engine's inputs (one store read, only for
   * such a pod without one) by the rule the connectors and simulate follow (docs/semantics.md
   * 21.2), and the first member is judged with its whole gang. A PodGroup not known leaves it
   * unknown.
   */
  private static Optional<Gang> gang(QuotaPod pod, ClusterView view) {
    return PodGroupMembership.withMinMember(pod, view::podGroup).gang();
  }
}
