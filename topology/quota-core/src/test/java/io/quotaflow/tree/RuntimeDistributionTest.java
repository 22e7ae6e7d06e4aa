package io.quotaflow.tree;

import static io.quotaflow.tree.Expected.limitedRequestIs;
import static io.quotaflow.tree.Expected.minIs;
import static io.quotaflow.tree.Expected.requestIs;
import static io.quotaflow.tree.Expected.runtimeIs;
import static io.quotaflow.tree.Expected.scaledMinIs;
import static io.quotaflow.tree.Expected.sharedWeightIs;
import static io.quotaflow.tree.Expected.totalIs;
import static io.quotaflow.tree.Expected.usedIs;
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
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** SPEC 6 and 7 on whole trees: requests up, runtimes down. */
class RuntimeDistributionTest {

  private static final String CPU = ResourceList.CPU;
  private static final String MEMORY = ResourceList.MEMORY;

  /** Whole trees with the numbers SPEC 6 and 7 give them, one behaviour a row. */
  static Stream<TreeCase> distributions() {
    final long huge = Long.MAX_VALUE - 5;
    return Stream.of(
        TreeCase.of(
            "a lender gets its request and a borrower the rest",
            cluster()
                .total(cpu(100))
                .group(quota("a").min(cpu(40)).max(cpu(100)))
                .group(quota("b").min(cpu(10)).max(cpu(100)))
                .demand("a", cpu(10))
                .demand("b", cpu(100)),
            runtimeIs("a", CPU, 10),
            runtimeIs("b", CPU, 90)),
        TreeCase.of(
            "a non-lender without pods keeps its min and asks for it",
            cluster()
                .total(cpu(100))
                .group(quota("reserved").min(cpu(30)).max(cpu(30)).allowLent(false))
                .group(quota("busy").min(cpu(0)).max(cpu(100)))
                .demand("busy", cpu(100)),
            requestIs("reserved", CPU, 30),
            runtimeIs("reserved", CPU, 30),
            runtimeIs("busy", CPU, 70)),
        TreeCase.of(
            "with min scaling at the root, mins shrink in proportion and are reported",
            cluster()
                .total(cpu(60))
                .group(quota("a").min(cpu(40)).max(cpu(100)))
                .group(quota("b").min(cpu(80)).max(cpu(100)))
                .demand("a", cpu(40))
                .demand("b", cpu(80)),
            scaledMinIs("a", CPU, 20),
            scaledMinIs("b", CPU, 40),
            runtimeIs("a", CPU, 20),
            runtimeIs("b", CPU, 40),
            minIs("a", CPU, 40)),
        TreeCase.of(
            "without min scaling, mins are kept even when the cluster cannot hold them",
            cluster()
                .total(cpu(60))
                .group(quota("a").min(cpu(40)).max(cpu(100)))
                .group(quota("b").min(cpu(80)).max(cpu(100)))
                .demand("a", cpu(40))
                .demand("b", cpu(80))
                .options(QuotaOptions.DEFAULTS.withMinScaling(false)),
            runtimeIs("a", CPU, 40),
            runtimeIs("b", CPU, 80)),
        TreeCase.of(
            "mins are scaled below the root to what the parent distributes",
            cluster()
                .total(cpu(100))
                .group(parentQuota("dept").min(cpu(50)).max(cpu(50)))
                .group(quota("x").parent("dept").min(cpu(40)).max(cpu(100)))
                .group(quota("y").parent("dept").min(cpu(40)).max(cpu(100)))
                .demand("x", cpu(40))
                .demand("y", cpu(40)),
            runtimeIs("dept", CPU, 50),
            runtimeIs("x", CPU, 25),
            runtimeIs("y", CPU, 25)),
        TreeCase.of(
            "a child whose max exceeds its parent's is bounded by what the parent gets",
            cluster()
                .total(cpu(100))
                .group(parentQuota("dev").min(cpu(0)).max(cpu(50)))
                .group(quota("team").parent("dev").min(cpu(0)).max(cpu(200)))
                .demand("team", cpu(150)),
            requestIs("dev", CPU, 150),
            limitedRequestIs("dev", CPU, 50),
            runtimeIs("dev", CPU, 50),
            runtimeIs("team", CPU, 50)),
        TreeCase.of(
            "a parent sees only its children's requests capped by their max",
            cluster()
                .total(cpu(100))
                .group(parentQuota("dept").min(cpu(0)).max(cpu(100)))
                .group(quota("small").parent("dept").min(cpu(0)).max(cpu(30)))
                .group(quota("big").parent("dept").min(cpu(0)).max(cpu(100)))
                .demand("small", cpu(100))
                .demand("big", cpu(20)),
            requestIs("small", CPU, 100),
            limitedRequestIs("small", CPU, 30),
            requestIs("dept", CPU, 50),
            runtimeIs("small", CPU, 30)),
        TreeCase.of(
            "used adds up raw while request is capped",
            cluster()
                .total(cpu(100))
                .group(parentQuota("dept").min(cpu(0)).max(cpu(100)))
                .group(quota("small").parent("dept").min(cpu(0)).max(cpu(10)))
                .holding("small", cpu(25)),
            usedIs("dept", CPU, 25),
            requestIs("dept", CPU, 10)),
        TreeCase.of(
            "a lending limit keeps part of min from being lent",
            cluster()
                .total(cpu(100))
                .group(quota("lender").min(cpu(50)).max(cpu(100)).lendingLimit(cpu(20)))
                .group(quota("borrower").min(cpu(0)).max(cpu(100)))
                .demand("borrower", cpu(100)),
            requestIs("lender", CPU, 30),
            runtimeIs("lender", CPU, 30),
            runtimeIs("borrower", CPU, 70)),
        TreeCase.of(
            "a borrowing limit caps the group at min plus the limit",
            cluster()
                .total(cpu(100))
                .group(quota("capped").min(cpu(20)).max(cpu(100)).borrowingLimit(cpu(15)))
                .group(quota("other").min(cpu(20)).max(cpu(100)))
                .demand("capped", cpu(100))
                .demand("other", cpu(10)),
            limitedRequestIs("capped", CPU, 35),
            runtimeIs("capped", CPU, 35)),
        TreeCase.of(
            "an explicit all-zero weight falls back to the policy default",
            cluster()
                .total(cpu(100))
                .group(quota("a").min(cpu(0)).max(cpu(80)).sharedWeight(cpu(0))),
            sharedWeightIs("a", CPU, 80)),
        TreeCase.of(
            "amounts near Long.MAX_VALUE saturate instead of overflowing",
            cluster()
                .total(cpu(huge))
                .total(cpu(huge))
                .group(
                    quota("a")
                        .min(cpu(0))
                        .max(cpu(Long.MAX_VALUE))
                        .sharedWeight(cpu(Long.MAX_VALUE)))
                .group(
                    quota("b")
                        .min(cpu(0))
                        .max(cpu(Long.MAX_VALUE))
                        .sharedWeight(cpu(Long.MAX_VALUE)))
                .demand("a", cpu(huge))
                .demand("a", cpu(huge))
                .demand("b", cpu(huge)),
            totalIs(CPU, Long.MAX_VALUE),
            requestIs("a", CPU, Long.MAX_VALUE),
            runtimeIs("a", CPU, Long.MAX_VALUE / 2 + 1),
            runtimeIs("b", CPU, Long.MAX_VALUE / 2)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("distributions")
  void distributesAsSpecified(TreeCase specification) {
    specification.verify();
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
