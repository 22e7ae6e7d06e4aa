package io.quotaflow.admission.machine;

import io.quotaflow.admission.http.PluginConfig;
import io.quotaflow.admission.inflight.ClusterAdmissions.Occasion;
import io.quotaflow.admission.inflight.InFlightHolds;
import io.quotaflow.admission.people.view.RecentActivity;
import io.quotaflow.admission.state.ClusterView;
import io.quotaflow.dra.Unresolved;
import io.quotaflow.kube.PodGroupMembership;
import io.quotaflow.quota.Gang;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.reason.Reason;
import io.quotaflow.rules.AdmissionDecision;
import io.quotaflow.rules.AdmissionRequest;
import io.quotaflow.rules.Denial;
import io.quotaflow.tree.QuotaOptions;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The quota check of one pod that the pod webhook and the scheduler filter share: excluded
 * namespaces and the system group pass unchecked, any other pod is decided (and held in flight) by
 * the cluster's admissions, and a pod that does not fit is only warned about in warn mode. Each
 * endpoint turns the verdict into its own answer.
 */
public final class PodCheck {

  /** What became of the pod; the label is the one the endpoints' metrics and logs carry. */
  public enum Outcome {
    EXCLUDED("excluded"),
    SYSTEM("system"),
    ALLOWED("allowed"),
    WARNED("warned"),
    DENIED("denied");

    private final String label;

    Outcome(String label) {
      this.label = label;
    }

    public String label() {
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
  public record Verdict(Outcome outcome, String group, String message, List<Denial> denials) {

    Verdict(Outcome outcome, String group) {
      this(outcome, group, "", List.of());
    }

    /** The reason of the first failing check, walking up from the pod's group; empty if none. */
    public Optional<Reason> reason() {
      return denials.isEmpty() ? Optional.empty() : Optional.of(denials.get(0).reason());
    }
  }

  private final PluginConfig config;
  private final QuotaOptions options;
  private final InFlightHolds holds;
  private final Clock clock;
  private final RecentActivity activity;
  private final boolean trusted;

  /**
   * @param activity where denials (and warnings in warn mode) are noted for the web view
   */
  public PodCheck(
      PluginConfig config,
      QuotaOptions options,
      InFlightHolds holds,
      Clock clock,
      RecentActivity activity) {
    this(config, options, holds, clock, activity, true);
  }

  private PodCheck(
      PluginConfig config,
      QuotaOptions options,
      InFlightHolds holds,
      Clock clock,
      RecentActivity activity,
      boolean trusted) {
    this.config = config;
    this.options = options;
    this.holds = holds;
    this.clock = clock;
    this.activity = activity;
    this.trusted = trusted;
  }

  /**
   * The same check for callers who proved nothing (issue 39.7): judged against the same holds, but
   * it holds nothing in flight and notes nothing in the activity.
   */
  public PodCheck judgingOnly() {
    return new PodCheck(config, options, holds, clock, activity, false);
  }

  /** Whether this check may hold quota and record what it turns away. */
  public boolean trusted() {
    return trusted;
  }

  public PluginConfig config() {
    return config;
  }

  public QuotaOptions options() {
    return options;
  }

  public Verdict check(String cluster, QuotaPod pod, ClusterView view, Occasion asked) {
    return check(cluster, pod, List.of(), view, asked);
  }

  /**
   * @param unresolved the pod's claimed devices that cannot be counted: a pod with any does not fit
   *     (docs/semantics.md section 22.9), whatever its group's room
   */
  public Verdict check(
      String cluster, QuotaPod pod, List<Unresolved> unresolved, ClusterView view, Occasion asked) {
    final Occasion occasion = trusted ? asked : asked.unheld();
    if (config.excludedNamespaces().contains(pod.ref().namespace())) {
      return new Verdict(Outcome.EXCLUDED, "");
    }
    final AdmissionRequest request = AdmissionRequest.of(pod, view.directory(), options);
    // Only a pod bound to the system group is exempt: one that names it from another namespace
    // has a problem (NamespaceBinding) and is denied below.
    if (SpecialGroups.SYSTEM.equals(request.group()) && request.problem().isEmpty()) {
      return new Verdict(Outcome.SYSTEM, request.group());
    }
    if (!unresolved.isEmpty()) {
      return refused(
          cluster,
          pod,
          request.group(),
          UnresolvedDevices.denials(request.group(), unresolved),
          occasion);
    }
    final AdmissionDecision decision =
        holds
            .owned(cluster, view, options, config.excludedNamespaces(), clock.instant())
            .decide(request, gang(pod, view), view, options, clock.instant(), occasion);
    if (decision.allowed()) {
      return new Verdict(Outcome.ALLOWED, request.group());
    }
    return refused(cluster, pod, request.group(), decision.denials(), occasion);
  }

  /** A pod that does not fit: denied, or only warned about in warn mode; noted for the view. */
  private Verdict refused(
      String cluster, QuotaPod pod, String group, List<Denial> denials, Occasion occasion) {
    final String message = denials.stream().map(Denial::message).collect(Collectors.joining("; "));
    final boolean warn = config.mode() == AdmissionMode.WARN;
    if (trusted) {
      activity.denied(
          cluster,
          new RecentActivity.Denial(
              pod.ref(),
              group,
              denials.get(0).reason().code(),
              message,
              occasion == Occasion.SCHEDULE ? "scheduler filter" : "pod webhook",
              warn,
              clock.instant(),
              1));
    }
    return new Verdict(warn ? Outcome.WARNED : Outcome.DENIED, group, message, denials);
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
