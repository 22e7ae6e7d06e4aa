package io.quotaflow.reservation;

import static io.quotaflow.tree.Fixtures.cpu;
import static io.quotaflow.tree.Fixtures.cpuMemory;
import static io.quotaflow.tree.Fixtures.quota;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.ReservationPercentage;
import io.quotaflow.quota.ReservationPolicy;
import io.quotaflow.quota.ReservationSpec;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecProblem;
import io.quotaflow.quota.SpecialGroups;
import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The rules a reservation keeps, each broken one named with its field, dimension and numbers. */
class ReservationRulesTest {

  private static final long GIB = 1L << 30;
  private static final ResourceList CLUSTER = cpuMemory(64_000, 256 * GIB);

  private static ReservationSpec reserve(ResourceList resource) {
    return ReservationSpec.of(ReservationPolicy.BEST_EFFORT, resource);
  }

  private static ReservationSpec share(String value, String... dimensions) {
    return new ReservationSpec(
        ReservationPolicy.BEST_EFFORT,
        Optional.empty(),
        Optional.of(new ReservationPercentage(new BigDecimal(value), List.of(dimensions))),
        List.of());
  }

  private static List<ReservationProblem> check(QuotaGroup group) {
    return ReservationRules.check(group, CLUSTER, 4);
  }

  @Test
  void aReservationWithinTheMaxAndTheClusterBreaksNoRule() {
    assertThat(check(quota("a").max(cpu(32_000)).reservation(reserve(cpu(16_000))).build()))
        .isEmpty();
    assertThat(check(quota("a").reservation(share("1", "cpu", "memory")).build())).isEmpty();
  }

  @Test
  void aGroupWithoutReservationBreaksNoRule() {
    assertThat(check(quota("a").build())).isEmpty();
  }

  @Test
  void aReservationAboveTheGroupsMaxIsRejectedNamingTheDimension() {
    final List<ReservationProblem> problems =
        check(
            quota("a")
                .max(cpuMemory(8_000, 512 * GIB))
                .reservation(reserve(cpuMemory(16_000, 8 * GIB)))
                .build());

    assertThat(problems)
        .singleElement()
        .satisfies(
            problem -> {
              assertThat(problem.rule()).isEqualTo(ReservationRule.WITHIN_MAX);
              assertThat(problem.field()).endsWith(".resource[cpu]");
              assertThat(problem.message())
                  .isEqualTo("reservation 16 is above the group's max 8 in cpu");
            });
  }

  @Test
  void aDimensionTheMaxDoesNotBoundIsNotLimitedByIt() {
    assertThat(
            check(
                quota("a")
                    .max(cpu(8_000))
                    .reservation(reserve(cpuMemory(8_000, 64 * GIB)))
                    .build()))
        .isEmpty();
  }

  @Test
  void aReservationAboveTheClusterTotalIsRejectedNamingTheDimension() {
    final List<ReservationProblem> problems =
        check(quota("a").reservation(reserve(ResourceList.of("nvidia.com/gpu", 1))).build());

    assertThat(problems)
        .singleElement()
        .satisfies(
            problem -> {
              assertThat(problem.rule()).isEqualTo(ReservationRule.WITHIN_CLUSTER);
              assertThat(problem.message())
                  .isEqualTo("reservation 1 is above the cluster total 0 in nvidia.com/gpu");
            });
  }

  @Test
  void aPercentageAboveTheMaxIsRejectedAgainstWhatItAmountsToNow() {
    // 50 % of 64 cores is 32 cores, above a max of 16.
    final List<ReservationProblem> problems =
        check(quota("a").max(cpu(16_000)).reservation(share("0.5", "cpu")).build());

    assertThat(problems)
        .extracting(ReservationProblem::rule, ReservationProblem::message)
        .containsExactly(
            tuple(ReservationRule.WITHIN_MAX, "reservation 32 is above the group's max 16 in cpu"));
  }

  @Test
  void aPercentageOutsideZeroToOneIsRejected() {
    for (final String value : List.of("-0.1", "1.01", "20")) {
      assertThat(check(quota("a").reservation(share(value, "cpu")).build()))
          .as(value)
          .singleElement()
          .satisfies(
              problem -> {
                assertThat(problem.rule()).isEqualTo(ReservationRule.PERCENTAGE_IN_RANGE);
                assertThat(problem.message()).contains(value).contains("outside [0, 1]");
              });
    }
  }

  @Test
  void aHugePercentageIsRejectedInExponentFormNotAsABillionDigits() {
    assertThat(check(quota("a").reservation(share("1e999999999", "cpu")).build()))
        .singleElement()
        .satisfies(
            problem ->
                assertThat(problem.message())
                    .isEqualTo("percentage 1E+999999999 is outside [0, 1]"));
  }

  @Test
  void onlyALeafGroupOtherThanTheSystemGroupReserves() {
    assertThat(check(quota("dept").parentGroup(true).reservation(reserve(cpu(1))).build()))
        .extracting(ReservationProblem::rule)
        .containsExactly(ReservationRule.ON_LEAF);
    assertThat(check(quota(SpecialGroups.SYSTEM).reservation(reserve(cpu(1))).build()))
        .extracting(ReservationProblem::rule)
        .containsExactly(ReservationRule.ON_LEAF);
    assertThat(check(quota(SpecialGroups.DEFAULT).reservation(reserve(cpu(1))).build())).isEmpty();
  }

  @Test
  void anUnreadableAnnotationBreaksTheReadableRuleWithEachProblem() {
    final ReservationSpec unreadable =
        ReservationSpec.unreadable(
            List.of(
                new SpecProblem("f.policy", "\"Always\" is not a policy"),
                new SpecProblem("f.resource[cpu]", "must not be negative")));

    assertThat(check(quota("a").reservation(unreadable).build()))
        .extracting(ReservationProblem::rule, ReservationProblem::field)
        .containsExactly(
            tuple(ReservationRule.READABLE, "f.policy"),
            tuple(ReservationRule.READABLE, "f.resource[cpu]"));
  }

  @Test
  void aPercentageTargetsTheFloorOfItsShareOfNodesAndOfEachDimension() {
    final ReservationTarget target =
        ReservationTarget.of(share("0.3", "cpu"), cpuMemory(10_001, 64 * GIB), 7);

    // floor(7 × 0.3) = 2 nodes; floor(10001 × 0.3) = 3000 milli-cores; memory is not named.
    assertThat(target.minNodes()).isEqualTo(2);
    assertThat(target.amounts()).isEqualTo(cpu(3_000));
  }

  @Test
  void withResourceAndPercentageTheLargerAmountWinsInEachDimension() {
    final ReservationSpec both =
        reserve(cpuMemory(20_000, 8 * GIB))
            .withPercentage(
                new ReservationPercentage(new BigDecimal("0.25"), List.of("cpu", "memory")));

    final ReservationTarget target = ReservationTarget.of(both, CLUSTER, 4);

    assertThat(target.amounts()).isEqualTo(cpuMemory(20_000, 64 * GIB));
    assertThat(target.minNodes()).isEqualTo(1);
  }
}
