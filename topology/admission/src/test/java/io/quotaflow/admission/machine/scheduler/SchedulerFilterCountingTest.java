package io.quotaflow.admission.machine.scheduler;

import static io.quotaflow.tree.Fixtures.cpu;
import static io.quotaflow.tree.Fixtures.quota;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.admission.http.TestClusters;
import io.quotaflow.admission.inflight.ClusterAdmissions;
import io.quotaflow.admission.inflight.ClusterAdmissions.Occasion;
import io.quotaflow.admission.state.ClusterView;
import io.quotaflow.admission.state.SnapshotClusterState;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.rules.AdmissionDecision;
import io.quotaflow.rules.AdmissionRequest;
import io.quotaflow.rules.Denial;
import io.quotaflow.tree.Fixtures;
import io.quotaflow.tree.QuotaOptions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The scheduler filter sees pods that already exist: a pod the state lists is counted in its
 * group's request already and is checked against the runtimes as computed; a pod the engine has not
 * seen yet is checked as at creation, with its request added.
 */
class SchedulerFilterCountingTest {

  private static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");

  /** team lends (min 4 cores) and holds 1; other borrows everything else. */
  private static Fixtures.ClusterBuilder cluster() {
    return Fixtures.cluster()
        .total(cpu(10_000))
        .group(quota("team").min(cpu(4_000)).max(cpu(10_000)).namespaces(List.of("alpha")))
        .group(quota("other").min(cpu(6_000)).max(cpu(10_000)))
        .pod(TestClusters.running("alpha", "a-1", "team", 1_000))
        .demand("other", cpu(9_000));
  }

  private static AdmissionDecision schedule(SnapshotClusterState state, QuotaPod pod) {
    final ClusterView view = state.cluster(TestClusters.EAST).orElseThrow();
    final AdmissionRequest request =
        AdmissionRequest.of(pod, view.directory(), QuotaOptions.DEFAULTS);
    return new ClusterAdmissions(TestClusters.EAST, Duration.ofSeconds(30))
        .decide(request, view, QuotaOptions.DEFAULTS, T0, Occasion.SCHEDULE);
  }

  private static QuotaPod pending(String name, long milliCpu) {
    return QuotaPod.builder("alpha", name)
        .request(ResourceList.of(ResourceList.CPU, milliCpu))
        .build();
  }

  @Test
  void aPodTheEngineHasNotSeenIsAddedToItsGroupsRequest() {
    final SnapshotClusterState state = TestClusters.state(cluster());
    assertThat(TestClusters.status(state, "team").runtime().get("cpu")).isEqualTo(1_000);

    assertThat(schedule(state, pending("new", 3_000)).allowed()).isTrue();
    assertThat(schedule(state, pending("new", 3_001)).denials())
        .extracting(Denial::limit)
        .containsExactly(4_000L);
  }

  @Test
  void aPodTheStateListsIsCheckedAgainstTheRuntimesAsComputed() {
    final QuotaPod listed = pending("listed", 3_500);
    final SnapshotClusterState state = TestClusters.state(cluster().pod(listed));
    // Counted once: team asks 4500, above its min, and gets its min while other borrows.
    assertThat(TestClusters.status(state, "team").runtime().get("cpu")).isEqualTo(4_000);

    assertThat(schedule(state, listed).denials())
        .extracting(Denial::message)
        .containsExactly(
            "exceeds-runtime: group team cpu: used 1 + in-flight 0 + request 3500m > runtime 4");
  }
}
