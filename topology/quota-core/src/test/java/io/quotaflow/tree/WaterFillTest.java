package io.quotaflow.tree;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.aggregator.AggregateWith;
import org.junit.jupiter.params.aggregator.ArgumentsAccessor;
import org.junit.jupiter.params.aggregator.ArgumentsAggregator;
import org.junit.jupiter.params.provider.CsvSource;

/** SPEC 7 for one parent and one dimension, as a table: children are given in name order. */
class WaterFillTest {

  private static final long MAX = Long.MAX_VALUE;

  /**
   * One parent's distribution a row: what it has, then per child (in name order) its request, min
   * and weight, and the runtime it must get. {@code MAX} stands for {@code Long.MAX_VALUE}.
   */
  private static final String TABLE =
      """
      # behaviour                                                                 | available | request     | min         | weight     | runtime
      koordinator proposal: A lends 5, B caps at +5, C and D share the 9 returned | 100       | 5 20 40 70  | 10 15 20 15 | 1 60 50 80 | 5 20 35 40
      lender gets its request, the rest goes to the borrower                      | 100       | 10 100      | 40 10       | 1 1        | 10 90
      borrowers share the surplus by weight                                       | 100       | 100 100     | 10 10       | 1 3        | 30 70
      a borrower capped at its request returns the excess for the next round      | 100       | 10 100      | 0 0         | 1 1        | 10 90
      a zero-weight borrower keeps its min                                        | 100       | 50 100      | 20 10       | 0 1        | 20 80
      only zero-weight borrowers: the surplus stays undistributed                 | 100       | 50 60       | 20 10       | 0 0        | 20 10
      leftover units go to the largest remainders                                 | 10        | 100 100 100 | 0 0 0       | 1 1 1      | 4 3 3
      equal remainders: ties go to names in ascending order                       | 2         | 100 100 100 | 0 0 0       | 1 1 1      | 1 1 0
      a non-lender's request floor equals its min and it keeps it                 | 100       | 30 100      | 30 0        | 1 1        | 30 70
      min scaling: mins above what is available shrink in proportion              | 60        | 40 80       | 40 80       | 1 1        | 20 40
      min scaling floors each scaled min; the remainder is shared                 | 10        | 100 100 100 | 10 10 10    | 1 1 1      | 4 3 3
      nothing to distribute: borrowers keep their scaled min of zero              | 0         | 10 20       | 5 5         | 1 1        | 0 0
      huge weights and amounts split exactly without overflow                     | MAX       | MAX MAX     | 0 0         | MAX MAX    | HALF_UP HALF
      unbounded parent: every weighted borrower gets its request                  | MAX       | 10 20 30    | 5 5 5       | 1 1 0      | 10 20 5
      """;

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', textBlock = TABLE)
  void distributesAsSpecified(@AggregateWith(Rows.class) Row row) {
    final int n = row.request().length;
    final long[] scaled = new long[n];
    final long[] runtime = new long[n];

    new WaterFill()
        .distribute(
            row.available(),
            false,
            n,
            row.request(),
            row.min(),
            row.weight(),
            true,
            scaled,
            runtime);

    assertThat(runtime).as(row.behaviour()).containsExactly(row.runtime());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', textBlock = TABLE)
  void agreesWithTheLiteralReference(@AggregateWith(Rows.class) Row row) {
    final WaterFillProperties.Case c =
        new WaterFillProperties.Case(
            row.available(), false, row.request(), row.min(), row.weight(), true);
    final java.math.BigInteger[] reference = WaterFillProperties.Reference.distribute(c)[1];
    final long[] runtime = WaterFillProperties.run(c)[1];
    for (int i = 0; i < runtime.length; i++) {
      assertThat(java.math.BigInteger.valueOf(runtime[i]))
          .as(row.behaviour())
          .isEqualTo(reference[i]);
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

  /** One row of {@link #TABLE}: per child, in name order, its request, min, weight and runtime. */
  record Row(
      String behaviour,
      long available,
      long[] request,
      long[] min,
      long[] weight,
      long[] runtime) {}

  /**
   * Reads a row of {@link #TABLE}: a cell is one amount or space-separated amounts; {@code MAX} is
   * {@code Long.MAX_VALUE}, {@code HALF} and {@code HALF_UP} its halves rounded down and up.
   */
  static final class Rows implements ArgumentsAggregator {
    @Override
    public Row aggregateArguments(ArgumentsAccessor cells, ParameterContext context) {
      return new Row(
          cells.getString(0),
          amounts(cells.getString(1))[0],
          amounts(cells.getString(2)),
          amounts(cells.getString(3)),
          amounts(cells.getString(4)),
          amounts(cells.getString(5)));
    }

    private static long[] amounts(String cell) {
      return Arrays.stream(cell.trim().split("\\s+")).mapToLong(Rows::amount).toArray();
    }

    private static long amount(String cell) {
      return switch (cell) {
        case "MAX" -> MAX;
        case "HALF_UP" -> MAX / 2 + 1;
        case "HALF" -> MAX / 2;
        default -> Long.parseLong(cell);
      };
    }
  }

  private static long[] l(long... values) {
    return values;
  }
}
