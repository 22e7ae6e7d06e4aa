package io.quotaflow.tree;

import static io.quotaflow.tree.Fixtures.at;
import static io.quotaflow.tree.Fixtures.cluster;
import static io.quotaflow.tree.Fixtures.cpu;
import static io.quotaflow.tree.Fixtures.quota;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.quota.PodPhase;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.SpecialGroups;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** SPEC 12: which bound pods are in-quota and which are over-quota. */
class PodClassificationTest {

  private static Map<String, Optional<PodClass>> classes(TreeSnapshot snapshot) {
    return snapshot.pods().stream()
        .collect(Collectors.toMap(p -> p.ref().name(), PodAssignment::podClass));
  }

  @Test
  void podsAreInQuotaOldestFirstWhileTheirRunningSumStaysWithinMin() {
    final TreeSnapshot snapshot =
        cluster()
            .group(quota("g").min(cpu(10)).max(cpu(100)))
            .pod(Fixtures.runningPod("g", "old").request(cpu(4)).creationTime(at(1)))
            .pod(Fixtures.runningPod("g", "middle").request(cpu(6)).creationTime(at(2)))
            .pod(Fixtures.runningPod("g", "young").request(cpu(1)).creationTime(at(3)))
            .compute();

    assertThat(classes(snapshot))
        .containsEntry("old", Optional.of(PodClass.IN_QUOTA))
        .containsEntry("middle", Optional.of(PodClass.IN_QUOTA))
        .containsEntry("young", Optional.of(PodClass.OVER_QUOTA));
  }

  @Test
  void amongPodsOfTheSameAgeTheSmallerComesFirst() {
    final TreeSnapshot snapshot =
        cluster()
            .group(quota("g").min(cpu(5)).max(cpu(100)))
            .pod(Fixtures.runningPod("g", "large").request(cpu(5)).creationTime(at(1)))
            .pod(Fixtures.runningPod("g", "small").request(cpu(2)).creationTime(at(1)))
            .compute();

    assertThat(classes(snapshot))
        .containsEntry("small", Optional.of(PodClass.IN_QUOTA))
        .containsEntry("large", Optional.of(PodClass.OVER_QUOTA));
  }

  @Test
  void onceOverMinEveryYoungerPodIsOverQuotaEvenIfSmall() {
    final TreeSnapshot snapshot =
        cluster()
            .group(quota("g").min(cpu(5)).max(cpu(100)))
            .pod(Fixtures.runningPod("g", "first").request(cpu(6)).creationTime(at(1)))
            .pod(Fixtures.runningPod("g", "tiny").request(cpu(0)).creationTime(at(2)))
            .compute();

    assertThat(classes(snapshot)).containsEntry("tiny", Optional.of(PodClass.OVER_QUOTA));
  }

  @Test
  void pendingPodsAndPodsNotCountedAsUsedHaveNoClass() {
    final TreeSnapshot snapshot =
        cluster()
            .group(quota("g").min(cpu(10)).max(cpu(100)))
            .pod(Fixtures.pod("g", "pending").request(cpu(1)))
            .pod(Fixtures.pod("g", "bound").request(cpu(1)).nodeName("n").phase(PodPhase.PENDING))
            .options(QuotaOptions.DEFAULTS.withUsedPolicy(QuotaOptions.UsedPolicy.RUNNING))
            .compute();

    assertThat(classes(snapshot))
        .containsEntry("pending", Optional.empty())
        .containsEntry("bound", Optional.empty());
  }

  @Test
  void systemPodsAreAlwaysInQuota() {
    final TreeSnapshot snapshot =
        cluster()
            .pod(
                QuotaPod.builder("kube-system", "dns")
                    .quotaName(SpecialGroups.SYSTEM)
                    .request(cpu(1000))
                    .running("n"))
            .compute();

    assertThat(classes(snapshot)).containsEntry("dns", Optional.of(PodClass.IN_QUOTA));
  }

  @Test
  void raisingMinMovesPodsBackInQuota() {
    final ClusterQuotaState state = new ClusterQuotaState(QuotaOptions.DEFAULTS);
    state.putGroup(quota("g").min(cpu(1)).max(cpu(100)).build());
    state.putPod(Fixtures.runningPod("g", "p").request(cpu(5)).build());
    state.recompute();
    assertThat(state.snapshot().pods().get(0).podClass()).contains(PodClass.OVER_QUOTA);

    state.putGroup(quota("g").min(cpu(5)).max(cpu(100)).build());
    final TreeDelta delta = state.recompute();

    assertThat(delta.changedPods())
        .singleElement()
        .satisfies(p -> assertThat(p.podClass()).contains(PodClass.IN_QUOTA));
  }
}
