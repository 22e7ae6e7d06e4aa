package io.quotaflow.rules;

import static io.quotaflow.tree.Fixtures.cpu;
import static io.quotaflow.tree.Fixtures.cpuMemory;
import static io.quotaflow.tree.Fixtures.parentQuota;
import static io.quotaflow.tree.Fixtures.quota;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecProblem;
import io.quotaflow.rules.Violation.Rule;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * docs/semantics.md sections 16 and 18: the quota webhook under Koordinator's {@code
 * allow-force-update}, {@code max-strict-check-resource-keys} and SupportParentQuotaSubmitPod.
 */
class KoordinatorWebhookRulesTest {

  /** dept (min 100) holds team-a (min 60, 3 pods, uses 8 cpu) and team-b (min 30). */
  private static final List<QuotaGroup> GROUPS =
      List.of(
          parentQuota("dept").min(cpu(100)).max(cpu(200)).build(),
          quota("team-a").parent("dept").min(cpu(60)).max(cpu(100)).build(),
          quota("team-b").parent("dept").min(cpu(30)).max(cpu(100)).build());

  private static final ClusterFacts FACTS =
      new ClusterFacts(
          Map.of("team-a", 3),
          Map.of("team-a", cpuMemory(8_000, 1_000), "team-b", cpu(0)),
          Optional.empty(),
          false);

  private static List<Violation> update(String name, QuotaGroup.Builder updated, ClusterFacts f) {
    final QuotaGroup old =
        GROUPS.stream().filter(g -> g.name().equals(name)).findFirst().orElseThrow();
    return QuotaValidator.validate(new QuotaChange.Update(old, updated.build()), GROUPS, f);
  }

  private static List<Rule> rules(List<Violation> violations) {
    return violations.stream().map(Violation::rule).toList();
  }

  @Test
  void aChildMinThatOverfillsTheParentIsRejectedWithoutForceUpdate() {
    // 80 + 30 = 110 above dept's 100.
    assertThat(rules(update("team-a", quota("team-a").parent("dept").min(cpu(80)), FACTS)))
        .containsExactly(Rule.CHILD_MINS_EXCEED_PARENT_MIN);
  }

  @Test
  void forceUpdateBypassesTheMinSumsOfTheParentAndOfTheChildren() {
    assertThat(
            update(
                "team-a",
                quota("team-a").parent("dept").min(cpu(80)).max(cpu(100)).allowForceUpdate(true),
                FACTS))
        .isEmpty();
    // dept's own min below its children's 60 + 30.
    assertThat(
            rules(
                update(
                    "dept",
                    parentQuota("dept").min(cpu(50)).max(cpu(200)).allowForceUpdate(false),
                    FACTS)))
        .containsExactly(Rule.CHILD_MINS_EXCEED_PARENT_MIN);
    assertThat(
            update(
                "dept",
                parentQuota("dept").min(cpu(50)).max(cpu(200)).allowForceUpdate(true),
                FACTS))
        .isEmpty();
  }

  @Test
  void forceUpdateBypassesNothingElse() {
    // A child min in a dimension the parent's min lacks is still rejected.
    assertThat(
            rules(
                update(
                    "team-a",
                    quota("team-a")
                        .parent("dept")
                        .min(cpuMemory(60, 5))
                        .max(cpuMemory(100, 5))
                        .allowForceUpdate(true),
                    FACTS)))
        .containsExactly(Rule.CHILD_MIN_NOT_IN_PARENT);
  }

  @Test
  void aMaxBelowUsedInAStrictKeyIsRejectedNamingTheKeyAndBothAmounts() {
    final List<Violation> violations =
        update(
            "team-a",
            quota("team-a")
                .parent("dept")
                .min(cpu(60))
                .max(cpuMemory(6_000, 500))
                .maxStrictCheckKeys(List.of("cpu", "memory")),
            FACTS);

    assertThat(violations)
        .extracting(Violation::rule, Violation::field, Violation::message)
        .containsExactly(
            tuple(
                Rule.MAX_NOT_BELOW_USED,
                "spec.max[cpu]",
                "max 6 is below used 8 in cpu, which"
                    + " quota.scheduling.koordinator.sh/max-strict-check-resource-keys lists"),
            tuple(
                Rule.MAX_NOT_BELOW_USED,
                "spec.max[memory]",
                "max 500 is below used 1k in memory, which"
                    + " quota.scheduling.koordinator.sh/max-strict-check-resource-keys lists"));
  }

  @Test
  void aMaxBelowUsedPassesForKeysNotListedUnusedOrUnbounded() {
    // memory is not listed; gpu is not used; a max without cpu does not bound cpu.
    assertThat(
            update(
                "team-a",
                quota("team-a")
                    .parent("dept")
                    .min(cpu(60))
                    .max(cpuMemory(8_000, 500))
                    .maxStrictCheckKeys(List.of("cpu", "nvidia.com/gpu")),
                FACTS))
        .isEmpty();
    assertThat(
            update(
                "team-a",
                quota("team-a")
                    .parent("dept")
                    .min(ResourceList.empty())
                    .max(ResourceList.of("memory", 2_000))
                    .maxStrictCheckKeys(List.of("cpu")),
                FACTS))
        .isEmpty();
  }

  @Test
  void anUnreadableStrictKeyListIsRejectedAsAnUnreadableField() {
    final SpecProblem problem =
        new SpecProblem(
            "metadata.annotations[quota.scheduling.koordinator.sh/max-strict-check-resource-keys]",
            "expected a JSON list of resource names, found \"cpu\"");

    assertThat(
            update("team-a", quota("team-a").parent("dept").min(cpu(60)).problem(problem), FACTS))
        .extracting(Violation::rule, Violation::field)
        .containsExactly(tuple(Rule.UNREADABLE_FIELD, problem.field()));
  }

  @Test
  void aParentWithPodsMayTakeChildrenOnlyWhenParentGroupsOwnPods() {
    final ClusterFacts deptHasPods =
        new ClusterFacts(Map.of("dept", 2), Map.of(), Optional.empty(), false);
    final QuotaGroup.Builder child = quota("team-c").parent("dept").min(cpu(5)).max(cpu(10));

    assertThat(
            rules(
                QuotaValidator.validate(
                    new QuotaChange.Create(child.build()), GROUPS, deptHasPods)))
        .containsExactly(Rule.PARENT_HAS_PODS);
    final ClusterFacts parentPods =
        new ClusterFacts(Map.of("dept", 2), Map.of(), Optional.empty(), true);
    assertThat(QuotaValidator.validate(new QuotaChange.Create(child.build()), GROUPS, parentPods))
        .isEmpty();
  }

  @Test
  void aLeafWithPodsStillCannotBecomeAParentAsInKoordinator() {
    final ClusterFacts parentPods =
        new ClusterFacts(Map.of("team-a", 3), Map.of(), Optional.empty(), true);

    assertThat(
            rules(
                update(
                    "team-a",
                    parentQuota("team-a").parent("dept").min(cpu(60)).max(cpu(100)),
                    parentPods)))
        .containsExactly(Rule.LEAF_WITH_PODS_BECOMES_PARENT);
  }
}
