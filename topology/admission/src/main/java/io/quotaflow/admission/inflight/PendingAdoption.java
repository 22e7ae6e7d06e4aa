package io.quotaflow.admission.inflight;

import io.quotaflow.admission.state.ClusterView;
import io.quotaflow.quota.PodPhase;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.rules.AdmissionRequest;
import io.quotaflow.tree.ClusterInputs;
import io.quotaflow.tree.GroupDirectory;
import io.quotaflow.tree.QuotaOptions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Holds again what an earlier owner of the cluster (another instance, or this one before a restart)
 * held (issue 26). The pods of the state that are pending, not bound and not terminating, created
 * less than the time to live ago, are judged again in the order they were created, as the scheduler
 * filter judges a pod the state already counts; each that fits is held as if admitted at its
 * creation (the webhook admits a pod as it is created), until its creation plus the time to live.
 * One that does not fit would not have been admitted (or was created past the webhook) and holds
 * nothing. Without this the room of pods admitted just before the cluster moved here would be
 * granted again. A pod admitted there whose record the engine has not read yet is not known here:
 * that window is the connectors' latency, under a second while they run.
 */
final class PendingAdoption {

  private PendingAdoption() {}

  /**
   * Adopts the pending pods of {@code view} into {@code admissions}.
   *
   * @param excludedNamespaces namespaces the webhook does not judge: their pods hold nothing
   * @return how many holds were taken
   */
  static int adopt(
      ClusterAdmissions admissions,
      ClusterView view,
      QuotaOptions options,
      Set<String> excludedNamespaces,
      Instant now) {
    final Duration ttl = admissions.ttl();
    final Optional<ClusterInputs> inputs = view.inputs();
    if (inputs.isEmpty()) {
      return 0;
    }
    final List<QuotaPod> pending = new ArrayList<>();
    for (final QuotaPod pod : inputs.get().pods()) {
      if (pod.phase() == PodPhase.PENDING
          && pod.nodeName().isEmpty()
          && pod.deletionTime().isEmpty()
          && pod.creationTime().plus(ttl).isAfter(now)
          && !excludedNamespaces.contains(pod.ref().namespace())) {
        pending.add(pod);
      }
    }
    pending.sort(Comparator.comparing(QuotaPod::creationTime).thenComparing(QuotaPod::ref));
    final GroupDirectory directory = view.directory();
    int adopted = 0;
    for (final QuotaPod pod : pending) {
      final AdmissionRequest request = AdmissionRequest.of(pod, directory, options);
      if (SpecialGroups.SYSTEM.equals(request.group())) {
        continue;
      }
      final Instant until = pod.creationTime().plus(ttl);
      if (admissions
          .decide(
              request, pod.gang(), view, options, now, ClusterAdmissions.Occasion.SCHEDULE, until)
          .allowed()) {
        adopted++;
      }
    }
    return adopted;
  }
}
