package io.quotaflow.tree;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/** Invariants of one parent's distribution in one dimension (SPEC 7). */
class WaterFillProperties {

  /** One random split problem; amounts are small or close to {@link Long#MAX_VALUE}. */
  record Case(
      long available,
      boolean unbounded,
      long[] request,
      long[] min,
      long[] weight,
      boolean scaling) {
    int n() {
      return request.length;
    }
  }

  static Case randomCase(long seed, int n) {
    final Random random = new Random(seed);
    final boolean huge = random.nextInt(4) == 0;
    final long[] request = new long[n];
    final long[] min = new long[n];
    final long[] weight = new long[n];
    for (int i = 0; i < n; i++) {
      min[i] = amount(random, huge, 40);
      request[i] =
          random.nextBoolean()
              ? amount(random, huge, 100)
              : Math.min(min[i], amount(random, huge, 40));
      weight[i] = random.nextInt(6) == 0 ? 0 : amount(random, huge && random.nextBoolean(), 90);
    }
    final boolean unbounded = random.nextInt(10) == 0;
    final long available =
        random.nextInt(8) == 0 ? Long.MAX_VALUE : amount(random, huge, 60 * n + 1);
    return new Case(available, unbounded, request, min, weight, random.nextInt(5) > 0);
  }

  private static long amount(Random random, boolean huge, int scale) {
    if (huge) {
      return Long.MAX_VALUE / (1 + random.nextInt(8)) - random.nextInt(1000);
    }
    return random.nextInt(scale + 1);
  }

  static long[][] run(Case c) {
    final long[] scaled = new long[c.n()];
    final long[] runtime = new long[c.n()];
    new WaterFill()
        .distribute(
            c.available(),
            c.unbounded(),
            c.n(),
            c.request(),
            c.min(),
            c.weight(),
            c.scaling(),
            scaled,
            runtime);
    return new long[][] {scaled, runtime};
  }

  @Property(tries = 300)
  void splitMatchesAStraightReadingOfTheSpecInExactArithmetic(
      @ForAll long seed, @ForAll @IntRange(min = 1, max = 9) int n) {
    final Case c = randomCase(seed, n);
    final long[][] result = run(c);
    final BigInteger[][] expected = Reference.distribute(c);
    for (int i = 0; i < n; i++) {
      assertThat(BigInteger.valueOf(result[0][i])).as("scaled min %d", i).isEqualTo(expected[0][i]);
      assertThat(BigInteger.valueOf(result[1][i])).as("runtime %d", i).isEqualTo(expected[1][i]);
    }
  }

  /**
   * Wide parents (past the point where the leftover units are sorted rather than selected) and
   * amounts of every magnitude (where the floating-point estimate of each quotient is furthest
   * off), against the same exact reading.
   */
  @Property(tries = 300)
  void splitOfManyChildrenWithAmountsOfEveryMagnitudeMatchesTheExactReading(
      @ForAll long seed, @ForAll @IntRange(min = 1, max = 40) int n) {
    final Random random = new Random(seed);
    final int bits = 1 + random.nextInt(63);
    final long[] request = new long[n];
    final long[] min = new long[n];
    final long[] weight = new long[n];
    for (int i = 0; i < n; i++) {
      min[i] = anyMagnitude(random, bits);
      request[i] = random.nextBoolean() ? anyMagnitude(random, bits) : min[i] / 2;
      // Equal weights make equal remainders: the ties must go to the earlier name.
      weight[i] = random.nextInt(4) == 0 ? 7 : anyMagnitude(random, bits);
    }
    final Case c =
        new Case(anyMagnitude(random, bits), random.nextInt(10) == 0, request, min, weight, true);
    final long[][] result = run(c);
    final BigInteger[][] expected = Reference.distribute(c);
    for (int i = 0; i < n; i++) {
      assertThat(BigInteger.valueOf(result[0][i])).as("scaled min %d", i).isEqualTo(expected[0][i]);
      assertThat(BigInteger.valueOf(result[1][i])).as("runtime %d", i).isEqualTo(expected[1][i]);
    }
  }

  /** A non-negative amount of at most {@code bits} bits, often far fewer. */
  private static long anyMagnitude(Random random, int bits) {
    return random.nextLong() >>> (64 - 1 - random.nextInt(bits));
  }

  @Property(tries = 300)
  void withMinScalingChildrenNeverGetMoreThanTheParentDistributes(
      @ForAll long seed, @ForAll @IntRange(min = 1, max = 9) int n) {
    final Case c = randomCase(seed, n);
    if (!c.scaling() || c.unbounded()) {
      return;
    }
    final long[] runtime = run(c)[1];
    BigInteger sum = BigInteger.ZERO;
    for (final long r : runtime) {
      sum = sum.add(BigInteger.valueOf(r));
    }
    assertThat(sum).isLessThanOrEqualTo(BigInteger.valueOf(c.available()));
  }

  @Property(tries = 300)
  void theSplitHandsOutEverythingUnlessEveryWeightedBorrowerIsFull(
      @ForAll long seed, @ForAll @IntRange(min = 1, max = 9) int n) {
    final Case c = randomCase(seed, n);
    if (!c.scaling() || c.unbounded()) {
      return;
    }
    final long[][] result = run(c);
    BigInteger sum = BigInteger.ZERO;
    boolean someoneHungry = false;
    for (int i = 0; i < n; i++) {
      sum = sum.add(BigInteger.valueOf(result[1][i]));
      if (c.weight()[i] > 0 && result[1][i] < c.request()[i]) {
        someoneHungry = true;
      }
    }
    if (someoneHungry) {
      assertThat(sum).isEqualTo(BigInteger.valueOf(c.available()));
    } else {
      assertThat(sum).isLessThanOrEqualTo(BigInteger.valueOf(c.available()));
    }
  }

  @Property(tries = 300)
  void everyRuntimeLiesBetweenItsStartAndItsRequest(
      @ForAll long seed, @ForAll @IntRange(min = 1, max = 9) int n) {
    final Case c = randomCase(seed, n);
    final long[][] result = run(c);
    for (int i = 0; i < n; i++) {
      final long start = Math.min(c.request()[i], result[0][i]);
      assertThat(result[1][i]).isBetween(start, c.request()[i]);
      assertThat(result[0][i]).isLessThanOrEqualTo(c.min()[i]);
      if (c.weight()[i] == 0) {
        assertThat(result[1][i]).isEqualTo(start);
      }
    }
  }

  /**
   * With the parent's amount fixed, raising one child's request never raises another child's
   * runtime by more than the rounding of the integer split (one unit per child at most): the
   * largest-remainder rule can hand a leftover unit to a different child when one more borrower
   * stays in a round.
   */
  @Property(tries = 500)
  void raisingOneRequestNeverRaisesAnotherRuntimeBeyondRounding(
      @ForAll long seed, @ForAll @IntRange(min = 2, max = 9) int n) {
    final Case c = randomCase(seed, n);
    final Random random = new Random(seed ^ 0x5DEECE66DL);
    final int raised = random.nextInt(n);
    final long[] more = c.request().clone();
    more[raised] = Arith.add(more[raised], 1 + random.nextInt(50));
    final long[] before = run(c)[1];
    final long[] after =
        run(new Case(c.available(), c.unbounded(), more, c.min(), c.weight(), c.scaling()))[1];
    for (int i = 0; i < n; i++) {
      if (i != raised) {
        assertThat(after[i]).as("child %d", i).isLessThanOrEqualTo(Arith.add(before[i], n - 1));
      }
    }
  }

  @org.junit.jupiter.api.Test
  void roundingCanMoveOneLeftoverUnitToASiblingWhenAnotherBorrowerStaysInTheRound() {
    final long[] request = {18, 6, 4, 23, 12};
    final long[] min = {3, 4, 3, 1, 0};
    final long[] weight = {9, 9, 1, 2, 3};
    final long[] raised = {18, 6, 7, 23, 12};

    assertThat(run(new Case(27, false, request, min, weight, true))[1])
        .containsExactly(12, 6, 4, 2, 3);
    // Child 2 no longer caps in round one; in round two the leftover unit ranks differently.
    assertThat(run(new Case(27, false, raised, min, weight, true))[1])
        .containsExactly(11, 6, 4, 3, 3);
  }

  /** SPEC 7 read literally, in {@link BigInteger}, one borrower at a time. */
  static final class Reference {
    static BigInteger[][] distribute(Case c) {
      final int n = c.n();
      final BigInteger[] scaled = new BigInteger[n];
      BigInteger sumMin = BigInteger.ZERO;
      for (int i = 0; i < n; i++) {
        sumMin = sumMin.add(BigInteger.valueOf(c.min()[i]));
      }
      final boolean unbounded = c.unbounded();
      final BigInteger available = BigInteger.valueOf(c.available());
      for (int i = 0; i < n; i++) {
        scaled[i] = BigInteger.valueOf(c.min()[i]);
        if (c.scaling() && !unbounded && sumMin.compareTo(available) > 0) {
          scaled[i] = available.multiply(scaled[i]).divide(sumMin);
        }
      }
      final BigInteger[] runtime = new BigInteger[n];
      final BigInteger[] request = new BigInteger[n];
      final List<Integer> borrowers = new ArrayList<>();
      BigInteger started = BigInteger.ZERO;
      for (int i = 0; i < n; i++) {
        request[i] = BigInteger.valueOf(c.request()[i]);
        if (request[i].compareTo(scaled[i]) > 0) {
          runtime[i] = scaled[i];
          if (c.weight()[i] > 0) {
            borrowers.add(i);
          }
        } else {
          runtime[i] = request[i];
        }
        started = started.add(runtime[i]);
      }
      if (unbounded) {
        for (final int i : borrowers) {
          runtime[i] = request[i];
        }
        return new BigInteger[][] {scaled, runtime};
      }
      BigInteger left = available.subtract(started);
      while (left.signum() > 0 && !borrowers.isEmpty()) {
        BigInteger total = BigInteger.ZERO;
        for (final int i : borrowers) {
          total = total.add(BigInteger.valueOf(c.weight()[i]));
        }
        final BigInteger[] share = new BigInteger[n];
        final BigInteger[] rest = new BigInteger[n];
        BigInteger given = BigInteger.ZERO;
        for (final int i : borrowers) {
          final BigInteger[] qr =
              BigInteger.valueOf(c.weight()[i]).multiply(left).divideAndRemainder(total);
          share[i] = qr[0];
          rest[i] = qr[1];
          given = given.add(qr[0]);
        }
        final List<Integer> ranked = new ArrayList<>(borrowers);
        ranked.sort(
            Comparator.<Integer, BigInteger>comparing(i -> rest[i])
                .reversed()
                .thenComparing(i -> i));
        BigInteger units = left.subtract(given);
        for (int k = 0; units.signum() > 0; k++, units = units.subtract(BigInteger.ONE)) {
          share[ranked.get(k)] = share[ranked.get(k)].add(BigInteger.ONE);
        }
        BigInteger returned = BigInteger.ZERO;
        final List<Integer> still = new ArrayList<>();
        for (final int i : borrowers) {
          final BigInteger room = request[i].subtract(runtime[i]);
          final BigInteger take = share[i].min(room);
          runtime[i] = runtime[i].add(take);
          returned = returned.add(share[i].subtract(take));
          if (runtime[i].compareTo(request[i]) < 0) {
            still.add(i);
          }
        }
        borrowers.clear();
        borrowers.addAll(still);
        left = returned;
      }
      return new BigInteger[][] {scaled, runtime};
    }
  }
}
