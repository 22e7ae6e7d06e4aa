package io.quotaflow.tree;

import static io.quotaflow.tree.Fixtures.cluster;
import static io.quotaflow.tree.Fixtures.cpu;
import static io.quotaflow.tree.Fixtures.parentQuota;
import static io.quotaflow.tree.Fixtures.quota;
import static io.quotaflow.tree.Fixtures.runtime;
import static io.quotaflow.tree.Fixtures.status;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecProblem;
import org.junit.jupiter.api.Test;

/** SPEC 9: invalid groups are isolated, frozen, and everything else is computed normally. */
class InvalidGroupsTest {

  private static final String CPU = ResourceList.CPU;

  private static Fixtures.ClusterBuilder withHealthySibling(QuotaGroup.Builder broken) {
    return cluster()
        .total(cpu(100))
        .group(quota("healthy").min(cpu(10)).max(cpu(100)))
        .demand("healthy", cpu(100))
        .group(broken);
  }

  private static void assertInvalid(TreeSnapshot snapshot, String group, String reasonPart) {
    final GroupStatus status = status(snapshot, group);
    assertThat(status.valid()).as(group).isFalse();
    assertThat(status.reason())
        .as(group)
        .hasValueSatisfying(r -> assertThat(r).contains(reasonPart));
  }

  @Test
  void minAboveMaxMakesTheGroupInvalidAndItsSiblingGetsEverything() {
    final TreeSnapshot snapshot =
        withHealthySibling(quota("broken").min(cpu(50)).max(cpu(10)))
            .demand("broken", cpu(50))
            .compute();

    assertInvalid(snapshot, "broken", "spec.min[cpu] = 50 is above spec.max[cpu] = 10");
    assertThat(runtime(snapshot, "healthy", CPU)).isEqualTo(100);
    assertThat(status(snapshot, "broken").runtime()).isEqualTo(ResourceList.empty());
    assertThat(status(snapshot, "broken").request().get(CPU)).isEqualTo(50);
  }

  @Test
  void aNegativeValueMakesTheGroupInvalid() {
    assertInvalid(
        withHealthySibling(quota("broken").min(cpu(-1)).max(cpu(10))).compute(),
        "broken",
        "spec.min[cpu] = -1m is negative");
  }

  @Test
  void aMissingParentMakesTheGroupInvalid() {
    assertInvalid(
        withHealthySibling(quota("orphan").parent("nowhere").min(cpu(5))).compute(),
        "orphan",
        "parent nowhere does not exist");
  }

  @Test
  void aParentThatIsALeafMakesTheGroupInvalid() {
    final TreeSnapshot snapshot =
        withHealthySibling(quota("child").parent("healthy").min(cpu(5))).compute();

    assertInvalid(snapshot, "child", "parent healthy is not a parent group");
    assertThat(status(snapshot, "healthy").valid()).isTrue();
  }

  @Test
  void groupsOnACycleAndTheirDescendantsAreInvalidWhileTheRestIsComputed() {
    final TreeSnapshot snapshot =
        withHealthySibling(parentQuota("a").parent("b").min(cpu(5)))
            .group(parentQuota("b").parent("a").min(cpu(5)))
            .group(quota("under-cycle").parent("a").min(cpu(5)))
            .compute();

    assertInvalid(snapshot, "a", "on a parent cycle: a -> b -> a");
    assertInvalid(snapshot, "b", "on a parent cycle: a -> b -> a");
    assertInvalid(snapshot, "under-cycle", "ancestor a is invalid");
    assertThat(runtime(snapshot, "healthy", CPU)).isEqualTo(100);
    assertThat(snapshot.groups()).extracting(GroupStatus::name).endsWith("a", "b", "under-cycle");
  }

  @Test
  void anUnreadableSharedWeightFallsBackToMaxWithAWarningAndTheGroupStaysValid() {
    final TreeSnapshot snapshot =
        withHealthySibling(
                quota("odd")
                    .min(cpu(0))
                    .max(cpu(70))
                    .problem(
                        new SpecProblem(
                            "metadata.annotations[quota.scheduling.koordinator.sh/shared-weight]",
                            "\"{\" is not JSON")))
            .compute();

    final GroupStatus odd = status(snapshot, "odd");
    assertThat(odd.valid()).isTrue();
    assertThat(odd.sharedWeight().get(CPU)).isEqualTo(70);
    assertThat(odd.reason()).hasValueSatisfying(r -> assertThat(r).startsWith("warning:"));
  }

  @Test
  void anyOtherUnreadableFieldMakesTheGroupInvalid() {
    assertInvalid(
        withHealthySibling(
                quota("odd").min(cpu(1)).problem(new SpecProblem("spec.min.cpu", "not a quantity")))
            .compute(),
        "odd",
        "spec.min.cpu: not a quantity");
  }

  @Test
  void anInvalidGroupKeepsItsLastValidRuntimeAndItsSubtreeIsFrozenToo() {
    final Fixtures.ClusterBuilder before =
        cluster()
            .total(cpu(100))
            .group(parentQuota("dept").min(cpu(40)).max(cpu(100)))
            .group(quota("team").parent("dept").min(cpu(40)).max(cpu(100)))
            .group(quota("other").min(cpu(0)).max(cpu(100)))
            .demand("team", cpu(60))
            .demand("other", cpu(100));
    final TreeSnapshot valid = before.compute();
    assertThat(runtime(valid, "dept", CPU)).isEqualTo(60);
    assertThat(runtime(valid, "team", CPU)).isEqualTo(60);
    assertThat(runtime(valid, "other", CPU)).isEqualTo(40);

    final Fixtures.ClusterBuilder after =
        cluster()
            .total(cpu(100))
            .group(parentQuota("dept").min(cpu(40)).max(cpu(10)))
            .group(quota("team").parent("dept").min(cpu(40)).max(cpu(100)))
            .group(quota("other").min(cpu(0)).max(cpu(100)))
            .demand("team", cpu(60))
            .demand("other", cpu(100));
    final TreeSnapshot frozen = QuotaCalculator.compute(after.inputs(), after.options(), valid);

    assertThat(status(frozen, "dept").valid()).isFalse();
    assertThat(runtime(frozen, "dept", CPU)).isEqualTo(60);
    assertThat(status(frozen, "team").valid()).isFalse();
    assertThat(status(frozen, "team").reason()).contains("ancestor dept is invalid");
    assertThat(runtime(frozen, "team", CPU)).isEqualTo(60);
    assertThat(runtime(frozen, "other", CPU)).isEqualTo(100);
  }

  @Test
  void theIncrementalStateFreezesTheSameWayAndUnfreezesWhenFixed() {
    final ClusterQuotaState state = new ClusterQuotaState(QuotaOptions.DEFAULTS);
    state.putNode(Fixtures.node("n", cpu(100)));
    final QuotaGroup team = quota("team").min(cpu(10)).max(cpu(100)).build();
    state.putGroup(team);
    state.putGroup(quota("other").min(cpu(10)).max(cpu(100)).build());
    state.putPod(Fixtures.pod("team", "t").request(cpu(60)).build());
    state.putPod(Fixtures.pod("other", "o").request(cpu(60)).build());
    state.recompute();
    assertThat(state.group("team").orElseThrow().runtime().get(CPU)).isEqualTo(50);

    state.putGroup(team.toBuilder().min(cpu(200)).build());
    state.recompute();
    assertThat(state.group("team").orElseThrow().valid()).isFalse();
    assertThat(state.group("team").orElseThrow().runtime().get(CPU)).isEqualTo(50);
    assertThat(state.group("other").orElseThrow().runtime().get(CPU)).isEqualTo(60);

    state.putGroup(team);
    state.recompute();
    assertThat(state.group("team").orElseThrow().valid()).isTrue();
    assertThat(state.group("team").orElseThrow().runtime().get(CPU)).isEqualTo(50);
  }
}
