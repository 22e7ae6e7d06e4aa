package io.quotaflow.tree;

import static io.quotaflow.tree.Fixtures.cluster;
import static io.quotaflow.tree.Fixtures.quota;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.explain.ExplanationText;
import io.quotaflow.explain.Reach;
import io.quotaflow.explain.RuntimeExplanation;
import io.quotaflow.quota.ResourceList;
import org.junit.jupiter.api.Test;

/**
 * Koordinator's worked example of the runtime (reference design, "Calculate RuntimeQuota"), as
 * quotaflow explains it (issue 27): the design's own steps, word for word where it gives them. A
 * count resource keeps its units (1 unit = 1), so the numbers are the design's.
 */
class KoordinatorExampleExplanationTest {

  private static final String GPU = "nvidia.com/gpu";

  private final ClusterQuotaState state =
      cluster()
          .total(gpu(100))
          .group(quota("a").min(gpu(10)).max(gpu(100)).sharedWeight(gpu(10)))
          .group(quota("b").min(gpu(15)).max(gpu(100)).sharedWeight(gpu(60)))
          .group(quota("c").min(gpu(20)).max(gpu(100)).sharedWeight(gpu(50)))
          .group(quota("d").min(gpu(15)).max(gpu(100)).sharedWeight(gpu(80)))
          .demand("a", gpu(5))
          .demand("b", gpu(20))
          .demand("c", gpu(40))
          .demand("d", gpu(70))
          .state();

  private static ResourceList gpu(long count) {
    return ResourceList.of(GPU, count);
  }

  @Test
  void theRoundsAreTheDesigns() {
    final RuntimeExplanation explanation = state.explainer().explain("c", GPU).orElseThrow();

    assertThat(explanation.runtime()).isEqualTo(35);
    final RuntimeExplanation.Level level = explanation.levels().get(0);
    // "A can lend 5 quotas to B\C\D, and the cluster has 40 quotas to allocate, so the sum is 45".
    assertThat(level.surplus()).isEqualTo(45);
    assertThat(ExplanationText.of(explanation))
        .isEqualTo(
            """
            c: runtime 35 nvidia.com/gpu

            What c asks of its parent: 40
              its pods ask 40
              it lends what it does not use of its min: floor 0, so its request is 40
              its max is 100, so it asks 40

            Step 1: the cluster distributes 100 (its allocatable less 0 used by the system group\
             and 0 by the default group) among 4 groups.
                group asks min weight starts ends
                a        5  10     10      5    5
                b       20  15     60     15   20
                c       40  20     50     20   35
                d       70  15     80     15   40
              Each starts with the smaller of its ask and its min: 55 in all; 45 is left to borrow.
              Round 1: 45 shared by weight (b 60, c 50, d 80): b 14, c 12 (with a leftover unit),\
             d 19 (with a leftover unit).
                b needs only 5 more and hands back 9.
              Round 2: 9 shared by weight (c 50, d 80): c 3, d 6 (with a leftover unit).
              → c: 35

            Rounding: each round gives floor(weight × left ÷ total weight); the units left over (1\
             each) go one each to the largest remainders, ties in name order.
            """);
  }

  @Test
  void whatCWouldNeedToGetItsWholeAsk() {
    final Reach reach = state.explainer().reach("c", GPU, 40).orElseThrow();

    assertThat(reach.reached()).isFalse();
    assertThat(reach.limits()).isEmpty();
    // d holds 40 and b 20 beside a's 5: c gets 40 only if they hold 5 less.
    assertThat(reach.siblingsHold()).isEqualTo(65);
    assertThat(reach.siblingsAskLess()).isEqualTo(5);
    // Each lever found is exact: one unit less does not reach 40.
    final long min = reach.min().orElseThrow();
    assertThat(runtimeOfC(quota("c").min(gpu(min)).max(gpu(100)).sharedWeight(gpu(50))))
        .isGreaterThanOrEqualTo(40);
    assertThat(runtimeOfC(quota("c").min(gpu(min - 1)).max(gpu(100)).sharedWeight(gpu(50))))
        .isLessThan(40);
    final long weight = reach.weight().orElseThrow();
    assertThat(runtimeOfC(quota("c").min(gpu(20)).max(gpu(100)).sharedWeight(gpu(weight))))
        .isGreaterThanOrEqualTo(40);
    assertThat(runtimeOfC(quota("c").min(gpu(20)).max(gpu(100)).sharedWeight(gpu(weight - 1))))
        .isLessThan(40);
  }

  @Test
  void aTargetAboveTheAskIsCappedByTheRequest() {
    final Reach reach = state.explainer().reach("c", GPU, 41).orElseThrow();

    assertThat(reach.limits()).containsExactly(new Reach.Limit(Reach.LimitKind.REQUEST, 40));
    assertThat(reach.min()).isEmpty();
  }

  /** c's runtime in a full recomputation with c specified as {@code c}. */
  private static long runtimeOfC(io.quotaflow.quota.QuotaGroup.Builder c) {
    final TreeSnapshot snapshot =
        cluster()
            .total(gpu(100))
            .group(quota("a").min(gpu(10)).max(gpu(100)).sharedWeight(gpu(10)))
            .group(quota("b").min(gpu(15)).max(gpu(100)).sharedWeight(gpu(60)))
            .group(c)
            .group(quota("d").min(gpu(15)).max(gpu(100)).sharedWeight(gpu(80)))
            .demand("a", gpu(5))
            .demand("b", gpu(20))
            .demand("c", gpu(40))
            .demand("d", gpu(70))
            .compute();
    return Fixtures.runtime(snapshot, "c", GPU);
  }
}
