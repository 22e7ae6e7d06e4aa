package io.quotaflow.rules;

import static io.quotaflow.tree.Fixtures.cpu;
import static io.quotaflow.tree.Fixtures.cpuMemory;
import static io.quotaflow.tree.Fixtures.parentQuota;
import static io.quotaflow.tree.Fixtures.quota;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.ReservationPolicy;
import io.quotaflow.quota.ReservationSpec;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecProblem;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.rules.Violation.Rule;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** SPEC 9: every webhook rule, each with its rule id, field and numbers. */
class QuotaValidatorTest {

  /** dept (min 100) holds team-a (min 60, with pods) and team-b (min 30); solo is first level. */
  private static final List<QuotaGroup> GROUPS =
      List.of(
          parentQuota("dept").min(cpu(100)).max(cpu(200)).build(),
          quota("team-a")
              .parent("dept")
              .min(cpu(60))
              .max(cpu(100))
              .namespaces(List.of("ns-a"))
              .build(),
          quota("team-b").parent("dept").min(cpu(30)).max(cpu(100)).build(),
          quota("solo").min(cpu(10)).max(cpu(20)).build());

  private static final Map<String, Integer> PODS = Map.of("team-a", 3, "solo", 1);

  private static List<Violation> create(QuotaGroup.Builder group) {
    return QuotaValidator.validate(new QuotaChange.Create(group.build()), GROUPS, PODS);
  }

  private static List<Violation> update(String name, QuotaGroup.Builder updated) {
    final QuotaGroup old =
        GROUPS.stream().filter(g -> g.name().equals(name)).findFirst().orElseThrow();
    return QuotaValidator.validate(new QuotaChange.Update(old, updated.build()), GROUPS, PODS);
  }

  private static List<Rule> rules(List<Violation> violations) {
    return violations.stream().map(Violation::rule).toList();
  }

  @Test
  void aWellFormedGroupIsAccepted() {
    assertThat(create(quota("team-c").parent("dept").min(cpu(10)).max(cpu(50)))).isEmpty();
  }

  @Test
  void minAboveMaxIsRejectedWithBothNumbers() {
    assertThat(create(quota("x").min(cpu(50)).max(cpu(10))))
        .containsExactly(
            new Violation(
                Rule.MIN_ABOVE_MAX, "x", "spec.min[cpu]", "min 50m is above max 10m in cpu"));
  }

  @Test
  void everyNegativeValueIsRejected() {
    final List<Violation> violations =
        create(
            quota("x")
                .min(cpu(-1))
                .max(cpu(-2))
                .sharedWeight(cpu(-3))
                .lendingLimit(cpu(-4))
                .borrowingLimit(cpu(-5)));

    assertThat(violations)
        .filteredOn(v -> v.rule() == Rule.NEGATIVE_VALUE)
        .extracting(Violation::field)
        .containsExactly(
            "spec.min[cpu]",
            "spec.max[cpu]",
            "shared-weight[cpu]",
            "lending-limit[cpu]",
            "borrowing-limit[cpu]");
  }

  @Test
  void unreadableFieldsAreRejected() {
    assertThat(
            create(
                quota("x").min(cpu(1)).problem(new SpecProblem("spec.min.cpu", "not a quantity"))))
        .containsExactly(
            new Violation(Rule.UNREADABLE_FIELD, "x", "spec.min.cpu", "not a quantity"));
  }

  @Test
  void theParentMustExistAndBeAParent() {
    assertThat(rules(create(quota("x").parent("nowhere").min(cpu(1)))))
        .containsExactly(Rule.PARENT_MISSING);
    assertThat(rules(create(quota("x").parent("team-b").min(cpu(1)))))
        .containsExactly(Rule.PARENT_NOT_A_PARENT);
    assertThat(rules(create(quota("x").parent(SpecialGroups.DEFAULT).min(cpu(1)))))
        .containsExactly(Rule.PARENT_NOT_A_PARENT);
  }

  @Test
  void aParentChangeMayNotCloseACycle() {
    final List<Violation> violations =
        QuotaValidator.validate(
            new QuotaChange.Update(
                GROUPS.get(0), parentQuota("dept").parent("sub").min(cpu(100)).build()),
            List.of(GROUPS.get(0), parentQuota("sub").parent("dept").min(cpu(0)).build()),
            Map.of());

    assertThat(violations)
        .singleElement()
        .satisfies(
            v -> {
              assertThat(v.rule()).isEqualTo(Rule.PARENT_CYCLE);
              assertThat(v.message()).contains("dept -> sub -> dept");
            });
  }

  @Test
  void aGroupWithPodsCannotBecomeAParentNorHoldChildGroups() {
    assertThat(rules(update("solo", parentQuota("solo").min(cpu(10)).max(cpu(20)))))
        .containsExactly(Rule.LEAF_WITH_PODS_BECOMES_PARENT);
    assertThat(
            QuotaValidator.validate(
                new QuotaChange.Create(quota("x").parent("holder").build()),
                List.of(parentQuota("holder").build()),
                Map.of("holder", 2)))
        .extracting(Violation::rule)
        .containsExactly(Rule.PARENT_HAS_PODS);
  }

  @Test
  void aGroupWithChildrenCannotBecomeALeaf() {
    assertThat(rules(update("dept", quota("dept").min(cpu(100)).max(cpu(200)))))
        .containsExactly(Rule.PARENT_WITH_CHILDREN_BECOMES_LEAF);
  }

  @Test
  void aGroupWithChildrenOrPodsCannotBeDeleted() {
    assertThat(rules(QuotaValidator.validate(new QuotaChange.Delete("dept"), GROUPS, PODS)))
        .containsExactly(Rule.DELETE_WITH_CHILDREN);
    assertThat(QuotaValidator.validate(new QuotaChange.Delete("team-a"), GROUPS, PODS))
        .containsExactly(
            new Violation(Rule.DELETE_WITH_PODS, "team-a", "metadata.name", "group has 3 pods"));
    assertThat(QuotaValidator.validate(new QuotaChange.Delete("team-b"), GROUPS, PODS)).isEmpty();
  }

  @Test
  void belowTheFirstLevelChildrensMinsMustFitInTheParentsMin() {
    final List<Violation> violations = create(quota("team-c").parent("dept").min(cpu(20)));

    assertThat(violations)
        .containsExactly(
            new Violation(
                Rule.CHILD_MINS_EXCEED_PARENT_MIN,
                "dept",
                "spec.min[cpu]",
                "children [team-a, team-b, team-c] have mins summing to 110 above the parent's min 100 in cpu"));
    assertThat(rules(update("dept", parentQuota("dept").min(cpu(80)).max(cpu(200)))))
        .containsExactly(Rule.CHILD_MINS_EXCEED_PARENT_MIN);
    assertThat(create(quota("first-level").min(cpu(10_000)).max(cpu(10_000)))).isEmpty();
  }

  @Test
  void childMinDimensionsMustBeASubsetOfTheParents() {
    assertThat(create(quota("team-c").parent("dept").min(cpuMemory(1, 1))))
        .containsExactly(
            new Violation(
                Rule.CHILD_MIN_NOT_IN_PARENT,
                "team-c",
                "spec.min[memory]",
                "parent dept has no min for memory"));
  }

  @Test
  void aNamespaceBelongsToAtMostOneGroup() {
    assertThat(rules(create(quota("x").namespaces(List.of("ns-a")))))
        .containsExactly(Rule.NAMESPACE_TAKEN);
    assertThat(rules(create(quota("x").namespaces(List.of("solo")))))
        .containsExactly(Rule.NAMESPACE_TAKEN);
    assertThat(rules(create(quota("ns-a")))).containsExactly(Rule.NAMESPACE_TAKEN);
    assertThat(
            update(
                "team-a",
                quota("team-a")
                    .parent("dept")
                    .min(cpu(60))
                    .max(cpu(100))
                    .namespaces(List.of("ns-a"))))
        .isEmpty();
  }

  @Test
  void theRootCannotBeChanged() {
    assertThat(rules(create(quota(SpecialGroups.ROOT)))).containsExactly(Rule.RESERVED_NAME);
  }

  @Test
  void everyViolationIsReturnedNotJustTheFirst() {
    final List<Violation> violations =
        create(
            quota("x")
                .parent("team-b")
                .min(cpuMemory(-1, 50))
                .max(cpuMemory(10, 5))
                .namespaces(List.of("ns-a")));

    assertThat(rules(violations))
        .containsExactlyInAnyOrder(
            Rule.NEGATIVE_VALUE,
            Rule.MIN_ABOVE_MAX,
            Rule.PARENT_NOT_A_PARENT,
            Rule.NAMESPACE_TAKEN);
    assertThat(violations).allSatisfy(v -> assertThat(v.toString()).startsWith(v.rule().id()));
  }

  @Test
  void anUpdateThatChangesNothingTheTreeReadsIsAllowedEvenOnABrokenTree() {
    // team-b's min of 50 would not fit dept's 100 beside team-a's 60; an update that leaves it as
    // it is (a status or runtime write) is no new break.
    final QuotaGroup broken = quota("team-b").parent("dept").min(cpu(50)).max(cpu(40)).build();
    final QuotaGroup root = quota(SpecialGroups.ROOT).build();

    assertThat(new QuotaChange.Update(broken, broken).changesTree()).isFalse();
    assertThat(QuotaValidator.validate(new QuotaChange.Update(broken, broken), GROUPS, PODS))
        .isEmpty();
    assertThat(QuotaValidator.validate(new QuotaChange.Update(root, root), GROUPS, PODS)).isEmpty();
    assertThat(
            rules(
                QuotaValidator.validate(
                    new QuotaChange.Update(broken, broken.toBuilder().max(cpu(45)).build()),
                    GROUPS,
                    PODS)))
        .contains(Rule.MIN_ABOVE_MAX, Rule.CHILD_MINS_EXCEED_PARENT_MIN);
  }

  @Test
  void aReservationAboveTheClusterOrTheMaxIsRejectedNamingTheDimension() {
    final QuotaGroup reserving =
        quota("team-c")
            .parent("dept")
            .min(cpu(10))
            .max(cpu(50))
            .reservation(
                ReservationSpec.of(
                    ReservationPolicy.BEST_EFFORT, ResourceList.of("cpu", 60, "nvidia.com/gpu", 1)))
            .build();

    final List<Violation> violations =
        QuotaValidator.validate(
            new QuotaChange.Create(reserving), GROUPS, PODS, Optional.of(cpu(1_000)));

    assertThat(violations)
        .extracting(Violation::rule, Violation::field, Violation::message)
        .containsExactly(
            tuple(
                Rule.RESERVATION_WITHIN_MAX,
                "metadata.annotations[quotaflow.io/reservation].resource[cpu]",
                "reservation 60m is above the group's max 50m in cpu"),
            tuple(
                Rule.RESERVATION_WITHIN_CLUSTER,
                "metadata.annotations[quotaflow.io/reservation].resource[nvidia.com/gpu]",
                "reservation 1 is above the cluster total 0 in nvidia.com/gpu"));
  }

  @Test
  void addingChangingOrRemovingAReservationIsAChangeTheWebhookChecks() {
    final QuotaGroup solo = GROUPS.get(3);
    final QuotaGroup reserving =
        solo.toBuilder()
            .reservation(ReservationSpec.of(ReservationPolicy.GUARANTEED, cpu(30)))
            .build();

    assertThat(new QuotaChange.Update(solo, reserving).changesTree()).isTrue();
    assertThat(new QuotaChange.Update(reserving, solo).changesTree()).isTrue();
    assertThat(
            rules(
                QuotaValidator.validate(
                    new QuotaChange.Update(solo, reserving), GROUPS, PODS, Optional.of(cpu(100)))))
        .containsExactly(Rule.RESERVATION_WITHIN_MAX);
    assertThat(
            QuotaValidator.validate(
                new QuotaChange.Update(reserving, solo), GROUPS, PODS, Optional.of(cpu(100))))
        .isEmpty();
  }

  @Test
  void anUnreadableReservationIsRejectedButNeverTheQuotaRulesOfTheGroup() {
    final QuotaGroup unreadable =
        quota("team-c")
            .parent("dept")
            .min(cpu(10))
            .max(cpu(50))
            .reservation(
                ReservationSpec.unreadable(
                    List.of(
                        new SpecProblem(
                            "metadata.annotations[quotaflow.io/reservation]", "is not JSON"))))
            .build();

    assertThat(rules(create(unreadable.toBuilder()))).containsExactly(Rule.RESERVATION_READABLE);
  }
}
