package io.quotaflow.tree;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** SPEC 7 for one parent and one dimension, as a table: children are given in name order. */
class WaterFillTest {

  private static final long MAX = Long.MAX_VALUE;

  static Stream<Arguments> cases() {
    return Stream.of(
        row(
            "koordinator proposal: A lends 5, B caps at +5, C and D share the 9 returned",
            100,
            l(5, 20, 40, 70),
            l(10, 15, 20, 15),
            l(1, 60, 50, 80),
            l(5, 20, 35, 40)),
        row(
            "lender gets its request, the rest goes to the borrower",
            100,
            l(10, 100),
            l(40, 10),
            l(1, 1),
            l(10, 90)),
        row(
            "borrowers share the surplus by weight",
            100,
            l(100, 100),
            l(10, 10),
            l(1, 3),
            l(30, 70)),
        row(
            "a borrower capped at its request returns the excess for the next round",
            100,
            l(10, 100),
            l(0, 0),
            l(1, 1),
            l(10, 90)),
        row("a zero-weight borrower keeps its min", 100, l(50, 100), l(20, 10), l(0, 1), l(20, 80)),
        row(
            "only zero-weight borrowers: the surplus stays undistributed",
            100,
            l(50, 60),
            l(20, 10),
            l(0, 0),
            l(20, 10)),
        row(
            "leftover units go to the largest remainders",
            10,
            l(100, 100, 100),
            l(0, 0, 0),
            l(1, 1, 1),
            l(4, 3, 3)),
        row(
            "equal remainders: ties go to names in ascending order",
            2,
            l(100, 100, 100),
            l(0, 0, 0),
            l(1, 1, 1),
            l(1, 1, 0)),
        row(
            "a non-lender's request floor equals its min and it keeps it",
            100,
            l(30, 100),
            l(30, 0),
            l(1, 1),
            l(30, 70)),
        row(
            "min scaling: mins above what is available shrink in proportion",
            60,
            l(40, 80),
            l(40, 80),
            l(1, 1),
            l(20, 40)),
        row(
            "min scaling floors each scaled min; the remainder is shared",
            10,
            l(100, 100, 100),
            l(10, 10, 10),
            l(1, 1, 1),
            l(4, 3, 3)),
        row(
            "nothing to distribute: borrowers keep their scaled min of zero",
            0,
            l(10, 20),
            l(5, 5),
            l(1, 1),
            l(0, 0)),
        row(
            "huge weights and amounts split exactly without overflow",
            MAX,
            l(MAX, MAX),
            l(0, 0),
            l(MAX, MAX),
            l(MAX / 2 + 1, MAX / 2)),
        row(
            "unbounded parent: every weighted borrower gets its request",
            MAX,
            l(10, 20, 30),
            l(5, 5, 5),
            l(1, 1, 0),
            l(10, 20, 5)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void distributesAsSpecified(
      String description,
      long available,
      long[] request,
      long[] min,
      long[] weight,
      long[] expected) {
    final int n = request.length;
    final long[] scaled = new long[n];
    final long[] runtime = new long[n];

    new WaterFill().distribute(available, false, n, request, min, weight, true, scaled, runtime);

    assertThat(runtime).as(description).containsExactly(expected);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void agreesWithTheLiteralReference(
      String description,
      long available,
      long[] request,
      long[] min,
      long[] weight,
      long[] expected) {
    final WaterFillProperties.Case c =
        new WaterFillProperties.Case(available, false, request, min, weight, true);
    final java.math.BigInteger[] reference = WaterFillProperties.Reference.distribute(c)[1];
    final long[] runtime = WaterFillProperties.run(c)[1];
    for (int i = 0; i < runtime.length; i++) {
      assertThat(java.math.BigInteger.valueOf(runtime[i])).as(description).isEqualTo(reference[i]);
    }
  }

  @org.junit.jupiter.api.Test
  void anUnboundedParentGivesEveryWeightedBorrowerItsRequestAndZeroWeightsTheirMin() {
    final long[] scaled = new long[3];
    final long[] runtime = new long[3];

    new WaterFill()
        .distribute(0, true, 3, l(10, 20, 30), l(5, 5, 5), l(1, 1, 0), true, scaled, runtime);

    assertThat(runtime).containsExactly(10, 20, 5);
    assertThat(scaled).containsExactly(5, 5, 5);
  }

  private static Arguments row(
      String description,
      long available,
      long[] request,
      long[] min,
      long[] weight,
      long[] expected) {
    return Arguments.of(description, available, request, min, weight, expected);
  }

  private static long[] l(long... values) {
    return values;
  }
}
