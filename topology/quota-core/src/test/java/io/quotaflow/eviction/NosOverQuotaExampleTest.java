package io.quotaflow.eviction;

import static io.quotaflow.tree.Fixtures.at;
import static io.quotaflow.tree.Fixtures.res;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.QuotaNode;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.rules.AdmissionCheck;
import io.quotaflow.rules.AdmissionDecision;
import io.quotaflow.rules.AdmissionRequest;
import io.quotaflow.rules.GroupLookup;
import io.quotaflow.rules.InFlight;
import io.quotaflow.tree.ClusterQuotaState;
import io.quotaflow.tree.GroupDirectory;
import io.quotaflow.tree.PodAssignment;
import io.quotaflow.tree.PodClass;
import io.quotaflow.tree.QuotaOptions;
import io.quotaflow.tree.QuotaOptions.DefaultWeightPolicy;
import io.quotaflow.tree.QuotaOptions.DerivedResourceRule;
import io.quotaflow.tree.TreeSnapshot;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * SPEC 13: nos's over-quota example. Mins of 40, 10 and 30 GB of GPU memory, surplus shared in
 * proportion to min, every pod asks for one 10 GB MIG slice. At t1 A uses 40 and B 40; at t2 a new
 * pod of A fits (A's runtime becomes 50) and B (used 40, runtime 30) loses exactly one pod.
 */
class NosOverQuotaExampleTest {

  private static final String MIG = "nvidia.com/mig-1g.10gb";
  private static final String GPU_MEMORY = "quotaflow.io/gpu-memory";
  private static final QuotaOptions OPTIONS =
      QuotaOptions.DEFAULTS
          .withDefaultWeight(DefaultWeightPolicy.MIN)
          .withDerivedResources(List.of(new DerivedResourceRule(MIG, GPU_MEMORY, 10)));

  private ClusterQuotaState state;
  private GroupDirectory directory;

  @BeforeEach
  void timeOne() {
    state = new ClusterQuotaState(OPTIONS);
    final List<QuotaGroup> groups =
        List.of(
            QuotaGroup.builder("team-a").min(res(GPU_MEMORY, 40)).build(),
            QuotaGroup.builder("team-b").min(res(GPU_MEMORY, 10)).build(),
            QuotaGroup.builder("team-c").min(res(GPU_MEMORY, 30)).build());
    groups.forEach(state::putGroup);
    directory = GroupDirectory.of(groups);
    state.putNode(QuotaNode.healthy("gpu-node", res(MIG, 8, "cpu", 64_000)));
    for (int i = 1; i <= 4; i++) {
      state.putPod(slicePod("team-a", "a" + i, i).running("gpu-node").startTime(at(i)).build());
      state.putPod(slicePod("team-b", "b" + i, i).running("gpu-node").startTime(at(i)).build());
    }
    state.recompute();
  }

  private static QuotaPod.Builder slicePod(String namespace, String name, long created) {
    return QuotaPod.builder(namespace, name).request(res(MIG, 1)).creationTime(at(created));
  }

  @Test
  void atTimeOneBorrowerBHoldsAllTheIdleGuarantee() {
    final TreeSnapshot t1 = state.snapshot();

    assertThat(t1.total().get(GPU_MEMORY)).isEqualTo(80);
    assertThat(runtimeOf(t1, "team-a")).isEqualTo(40);
    assertThat(runtimeOf(t1, "team-b")).isEqualTo(40);
    assertThat(runtimeOf(t1, "team-c")).isZero();
    assertThat(OverUse.find(t1.groups())).isEmpty();
    assertThat(overQuotaPods(t1, "team-b")).hasSize(3);
    assertThat(overQuotaPods(t1, "team-a")).isEmpty();
  }

  @Test
  void atTimeTwoTheNewPodOfAFitsAndExactlyOneOfBsPodsIsReclaimed() {
    final QuotaPod newPod = slicePod("team-a", "a5", 5).build();
    state.putPod(newPod);
    state.recompute();
    final TreeSnapshot t2 = state.snapshot();

    assertThat(runtimeOf(t2, "team-a")).isEqualTo(50);
    assertThat(runtimeOf(t2, "team-b")).isEqualTo(30);
    final AdmissionDecision decision =
        AdmissionCheck.check(
            AdmissionRequest.of(newPod, directory, OPTIONS), GroupLookup.of(t2), InFlight.empty());
    assertThat(decision.allowed()).isTrue();

    final List<OverUse> overUsed = OverUse.find(t2.groups());
    assertThat(overUsed).extracting(OverUse::group).containsExactly("team-b");
    assertThat(overUsed.get(0).used().get(GPU_MEMORY)).isEqualTo(40);
    assertThat(overUsed.get(0).runtime().get(GPU_MEMORY)).isEqualTo(30);

    final VictimPlan plan =
        VictimSelector.select(t2.group("team-b").orElseThrow(), state.podsOf("team-b"), OPTIONS);
    assertThat(plan.victims()).extracting(v -> v.pod().name()).containsExactly("b4");
    assertThat(plan.usedAfter().get(GPU_MEMORY)).isEqualTo(30);
  }

  @Test
  void afterTheReclaimTheTableShowsTimeTwo() {
    state.putPod(slicePod("team-a", "a5", 5).running("gpu-node").startTime(at(5)).build());
    state.removePod(new io.quotaflow.quota.PodRef("team-b", "b4"));
    state.recompute();
    final TreeSnapshot t2 = state.snapshot();

    assertThat(t2.group("team-a").orElseThrow().used().get(GPU_MEMORY)).isEqualTo(50);
    assertThat(t2.group("team-b").orElseThrow().used().get(GPU_MEMORY)).isEqualTo(30);
    assertThat(overQuotaPods(t2, "team-a")).containsExactly("a5");
    assertThat(overQuotaPods(t2, "team-b")).containsExactly("b2", "b3");
    assertThat(OverUse.find(t2.groups())).isEmpty();
  }

  private static long runtimeOf(TreeSnapshot snapshot, String group) {
    return snapshot.group(group).orElseThrow().runtime().get(GPU_MEMORY);
  }

  private static List<String> overQuotaPods(TreeSnapshot snapshot, String group) {
    return snapshot.pods().stream()
        .filter(p -> p.group().equals(group))
        .filter(p -> p.podClass().orElse(null) == PodClass.OVER_QUOTA)
        .map(PodAssignment::ref)
        .map(ref -> ref.name())
        .toList();
  }
}
