package io.quotaflow.tree;

import static io.quotaflow.tree.Fixtures.GPU;
import static io.quotaflow.tree.Fixtures.cluster;
import static io.quotaflow.tree.Fixtures.cpu;
import static io.quotaflow.tree.Fixtures.cpuMemory;
import static io.quotaflow.tree.Fixtures.parentQuota;
import static io.quotaflow.tree.Fixtures.quota;
import static io.quotaflow.tree.Fixtures.res;
import static io.quotaflow.tree.Fixtures.runtime;
import static io.quotaflow.tree.Fixtures.status;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.ResourceList;
import org.junit.jupiter.api.Test;

/** SPEC 6 and 7 on whole trees: requests up, runtimes down. */
class RuntimeDistributionTest {

  private static final String CPU = ResourceList.CPU;
  private static final String MEMORY = ResourceList.MEMORY;

  @Test
  void aLenderGetsItsRequestAndABorrowerTheRest() {
    final TreeSnapshot snapshot =
        cluster()
            .total(cpu(100))
            .group(quota("a").min(cpu(40)).max(cpu(100)))
            .group(quota("b").min(cpu(10)).max(cpu(100)))
            .demand("a", cpu(10))
            .demand("b", cpu(100))
            .compute();

    assertThat(runtime(snapshot, "a", CPU)).isEqualTo(10);
    assertThat(runtime(snapshot, "b", CPU)).isEqualTo(90);
  }

  @Test
  void aNonLenderWithoutPodsKeepsItsMinAndAsksForIt() {
    final TreeSnapshot snapshot =
        cluster()
            .total(cpu(100))
            .group(quota("reserved").min(cpu(30)).max(cpu(30)).allowLent(false))
            .group(quota("busy").min(cpu(0)).max(cpu(100)))
            .demand("busy", cpu(100))
            .compute();

    assertThat(status(snapshot, "reserved").request().get(CPU)).isEqualTo(30);
    assertThat(runtime(snapshot, "reserved", CPU)).isEqualTo(30);
    assertThat(runtime(snapshot, "busy", CPU)).isEqualTo(70);
  }

  @Test
  void withMinScalingAtTheRootMinsShrinkInProportionAndAreReported() {
    final TreeSnapshot snapshot =
        cluster()
            .total(cpu(60))
            .group(quota("a").min(cpu(40)).max(cpu(100)))
            .group(quota("b").min(cpu(80)).max(cpu(100)))
            .demand("a", cpu(40))
            .demand("b", cpu(80))
            .compute();

    assertThat(status(snapshot, "a").scaledMin().get(CPU)).isEqualTo(20);
    assertThat(status(snapshot, "b").scaledMin().get(CPU)).isEqualTo(40);
    assertThat(runtime(snapshot, "a", CPU)).isEqualTo(20);
    assertThat(runtime(snapshot, "b", CPU)).isEqualTo(40);
    assertThat(status(snapshot, "a").min().get(CPU)).isEqualTo(40);
  }

  @Test
  void withoutMinScalingMinsAreKeptEvenWhenTheClusterCannotHoldThem() {
    final TreeSnapshot snapshot =
        cluster()
            .total(cpu(60))
            .group(quota("a").min(cpu(40)).max(cpu(100)))
            .group(quota("b").min(cpu(80)).max(cpu(100)))
            .demand("a", cpu(40))
            .demand("b", cpu(80))
            .options(QuotaOptions.DEFAULTS.withMinScaling(false))
            .compute();

    assertThat(runtime(snapshot, "a", CPU)).isEqualTo(40);
    assertThat(runtime(snapshot, "b", CPU)).isEqualTo(80);
  }

  @Test
  void minsAreScaledBelowTheRootToWhatTheParentDistributes() {
    final TreeSnapshot snapshot =
        cluster()
            .total(cpu(100))
            .group(parentQuota("dept").min(cpu(50)).max(cpu(50)))
            .group(quota("x").parent("dept").min(cpu(40)).max(cpu(100)))
            .group(quota("y").parent("dept").min(cpu(40)).max(cpu(100)))
            .demand("x", cpu(40))
            .demand("y", cpu(40))
            .compute();

    assertThat(runtime(snapshot, "dept", CPU)).isEqualTo(50);
    assertThat(runtime(snapshot, "x", CPU)).isEqualTo(25);
    assertThat(runtime(snapshot, "y", CPU)).isEqualTo(25);
  }

  @Test
  void aChildWhoseMaxExceedsItsParentsIsBoundedByWhatTheParentGets() {
    final TreeSnapshot snapshot =
        cluster()
            .total(cpu(100))
            .group(parentQuota("dev").min(cpu(0)).max(cpu(50)))
            .group(quota("team").parent("dev").min(cpu(0)).max(cpu(200)))
            .demand("team", cpu(150))
            .compute();

    assertThat(status(snapshot, "dev").request().get(CPU)).isEqualTo(150);
    assertThat(status(snapshot, "dev").limitedRequest().get(CPU)).isEqualTo(50);
    assertThat(runtime(snapshot, "dev", CPU)).isEqualTo(50);
    assertThat(runtime(snapshot, "team", CPU)).isEqualTo(50);
  }

  @Test
  void aParentSeesOnlyItsChildrensRequestsCappedByTheirMax() {
    final TreeSnapshot snapshot =
        cluster()
            .total(cpu(100))
            .group(parentQuota("dept").min(cpu(0)).max(cpu(100)))
            .group(quota("small").parent("dept").min(cpu(0)).max(cpu(30)))
            .group(quota("big").parent("dept").min(cpu(0)).max(cpu(100)))
            .demand("small", cpu(100))
            .demand("big", cpu(20))
            .compute();

    assertThat(status(snapshot, "small").request().get(CPU)).isEqualTo(100);
    assertThat(status(snapshot, "small").limitedRequest().get(CPU)).isEqualTo(30);
    assertThat(status(snapshot, "dept").request().get(CPU)).isEqualTo(50);
    assertThat(runtime(snapshot, "small", CPU)).isEqualTo(30);
  }

  @Test
  void usedAddsUpRawWhileRequestIsCapped() {
    final TreeSnapshot snapshot =
        cluster()
            .total(cpu(100))
            .group(parentQuota("dept").min(cpu(0)).max(cpu(100)))
            .group(quota("small").parent("dept").min(cpu(0)).max(cpu(10)))
            .holding("small", cpu(25))
            .compute();

    assertThat(status(snapshot, "dept").used().get(CPU)).isEqualTo(25);
    assertThat(status(snapshot, "dept").request().get(CPU)).isEqualTo(10);
  }

  @Test
  void eachGroupReportsAndIsLimitedInExactlyTheDimensionsItTracks() {
    final TreeSnapshot snapshot =
        cluster()
            .total(cpuMemory(100, 1000))
            .group(quota("both").min(cpuMemory(10, 100)).max(cpuMemory(100, 1000)))
            .group(quota("cpu-only").min(cpu(10)).max(cpu(100)))
            .demand("both", cpuMemory(50, 500))
            .demand("cpu-only", cpuMemory(80, 900))
            .compute();

    assertThat(status(snapshot, "cpu-only").runtime().names()).containsExactly(CPU);
    assertThat(status(snapshot, "cpu-only").request().names()).containsExactly(CPU);
    assertThat(runtime(snapshot, "both", MEMORY)).isEqualTo(500);
    assertThat(runtime(snapshot, "both", CPU) + runtime(snapshot, "cpu-only", CPU)).isEqualTo(100);
  }

  @Test
  void aDimensionTheParentDoesNotTrackIsBoundedOnlyByTheChildsOwnMax() {
    final TreeSnapshot snapshot =
        cluster()
            .total(res(CPU, 100, GPU, 8))
            .group(parentQuota("dept").min(cpu(0)).max(cpu(100)))
            .group(quota("ml").parent("dept").min(cpu(0)).max(res(CPU, 100, GPU, 4)))
            .demand("ml", res(CPU, 10, GPU, 6))
            .compute();

    assertThat(status(snapshot, "dept").runtime().names()).containsExactly(CPU);
    assertThat(runtime(snapshot, "ml", GPU)).isEqualTo(4);
  }

  @Test
  void aLendingLimitKeepsPartOfMinFromBeingLent() {
    final TreeSnapshot snapshot =
        cluster()
            .total(cpu(100))
            .group(quota("lender").min(cpu(50)).max(cpu(100)).lendingLimit(cpu(20)))
            .group(quota("borrower").min(cpu(0)).max(cpu(100)))
            .demand("borrower", cpu(100))
            .compute();

    assertThat(status(snapshot, "lender").request().get(CPU)).isEqualTo(30);
    assertThat(runtime(snapshot, "lender", CPU)).isEqualTo(30);
    assertThat(runtime(snapshot, "borrower", CPU)).isEqualTo(70);
  }

  @Test
  void aBorrowingLimitCapsTheGroupAtMinPlusTheLimit() {
    final TreeSnapshot snapshot =
        cluster()
            .total(cpu(100))
            .group(quota("capped").min(cpu(20)).max(cpu(100)).borrowingLimit(cpu(15)))
            .group(quota("other").min(cpu(20)).max(cpu(100)))
            .demand("capped", cpu(100))
            .demand("other", cpu(10))
            .compute();

    assertThat(status(snapshot, "capped").limitedRequest().get(CPU)).isEqualTo(35);
    assertThat(runtime(snapshot, "capped", CPU)).isEqualTo(35);
  }

  @Test
  void theDefaultWeightIsMaxOrMinByPolicy() {
    final Fixtures.ClusterBuilder cluster =
        cluster()
            .total(cpu(100))
            .group(quota("a").min(cpu(10)).max(cpu(90)))
            .group(quota("b").min(cpu(30)).max(cpu(30 + 60)))
            .demand("a", cpu(100))
            .demand("b", cpu(100));
    // Surplus 60 shared 90:90 by max, or 10:30 by min.
    final TreeSnapshot byMax = cluster.compute();
    final TreeSnapshot byMin =
        cluster
            .options(QuotaOptions.DEFAULTS.withDefaultWeight(QuotaOptions.DefaultWeightPolicy.MIN))
            .compute();

    assertThat(runtime(byMax, "a", CPU)).isEqualTo(40);
    assertThat(runtime(byMax, "b", CPU)).isEqualTo(60);
    assertThat(status(byMax, "a").sharedWeight().get(CPU)).isEqualTo(90);
    assertThat(runtime(byMin, "a", CPU)).isEqualTo(25);
    assertThat(runtime(byMin, "b", CPU)).isEqualTo(75);
    assertThat(status(byMin, "a").sharedWeight().get(CPU)).isEqualTo(10);
  }

  @Test
  void anExplicitAllZeroWeightFallsBackToThePolicyDefault() {
    final TreeSnapshot snapshot =
        cluster()
            .total(cpu(100))
            .group(quota("a").min(cpu(0)).max(cpu(80)).sharedWeight(cpu(0)))
            .compute();

    assertThat(status(snapshot, "a").sharedWeight().get(CPU)).isEqualTo(80);
  }

  @Test
  void amountsNearLongMaxValueSaturateInsteadOfOverflowing() {
    final long huge = Long.MAX_VALUE - 5;
    final TreeSnapshot snapshot =
        cluster()
            .total(cpu(huge))
            .total(cpu(huge))
            .group(
                quota("a").min(cpu(0)).max(cpu(Long.MAX_VALUE)).sharedWeight(cpu(Long.MAX_VALUE)))
            .group(
                quota("b").min(cpu(0)).max(cpu(Long.MAX_VALUE)).sharedWeight(cpu(Long.MAX_VALUE)))
            .demand("a", cpu(huge))
            .demand("a", cpu(huge))
            .demand("b", cpu(huge))
            .compute();

    assertThat(snapshot.total().get(CPU)).isEqualTo(Long.MAX_VALUE);
    assertThat(status(snapshot, "a").request().get(CPU)).isEqualTo(Long.MAX_VALUE);
    assertThat(runtime(snapshot, "a", CPU)).isEqualTo(Long.MAX_VALUE / 2 + 1);
    assertThat(runtime(snapshot, "b", CPU)).isEqualTo(Long.MAX_VALUE / 2);
  }

  @Test
  void movingAGroupToAnotherParentMovesItsRequestAndReportsAllThree() {
    final ClusterQuotaState state = new ClusterQuotaState(QuotaOptions.DEFAULTS);
    state.putNode(Fixtures.node("n", cpu(100)));
    state.putGroup(parentQuota("p1").min(cpu(0)).max(cpu(100)).build());
    state.putGroup(parentQuota("p2").min(cpu(0)).max(cpu(100)).build());
    final QuotaGroup team = quota("team").parent("p1").min(cpu(0)).max(cpu(100)).build();
    state.putGroup(team);
    state.putPod(Fixtures.pod("team", "t1").request(cpu(30)).build());
    state.recompute();
    assertThat(state.group("p1").orElseThrow().request().get(CPU)).isEqualTo(30);

    state.putGroup(team.toBuilder().parent("p2").build());
    final TreeDelta delta = state.recompute();

    assertThat(delta.changedGroups()).extracting(GroupStatus::name).contains("p1", "p2", "team");
    assertThat(state.group("p1").orElseThrow().request().get(CPU)).isZero();
    assertThat(state.group("p2").orElseThrow().request().get(CPU)).isEqualTo(30);
    assertThat(state.group("team").orElseThrow().parent()).isEqualTo("p2");
  }

  @Test
  void siblingsWhoseRuntimeChangesAreReportedWithTheGroupThatChanged() {
    final ClusterQuotaState state = new ClusterQuotaState(QuotaOptions.DEFAULTS);
    state.putNode(Fixtures.node("n", cpu(100)));
    state.putGroup(quota("a").min(cpu(0)).max(cpu(100)).build());
    state.putGroup(quota("b").min(cpu(0)).max(cpu(100)).build());
    state.putGroup(quota("idle").min(cpu(0)).max(cpu(100)).build());
    state.putPod(Fixtures.pod("b", "b1").request(cpu(100)).build());
    state.recompute();
    assertThat(state.group("b").orElseThrow().runtime().get(CPU)).isEqualTo(100);

    state.putPod(Fixtures.pod("a", "a1").request(cpu(100)).build());
    final TreeDelta delta = state.recompute();

    assertThat(delta.changedGroups())
        .extracting(GroupStatus::name)
        .containsExactly(io.quotaflow.quota.SpecialGroups.ROOT, "a", "b");
    assertThat(state.group("b").orElseThrow().runtime().get(CPU)).isEqualTo(50);
  }
}
