package io.quotaflow.tree;

import java.math.BigInteger;
import java.util.Arrays;

/**
 * The distribution of one parent's amount among its children in one dimension (SPEC 7): min
 * scaling, then lenders get their request and borrowers their (scaled) min, then rounds of weighted
 * integer water-filling over the borrowers.
 *
 * <p>Children are given in name order; that order breaks ties between equal remainders. One
 * instance keeps scratch buffers and is not thread-safe.
 */
final class WaterFill {

  private int[] active = new int[16];
  private long[] share = new long[16];
  private long[] remainder = new long[16];
  private int[] order = new int[16];
  private int[] mergeBuffer = new int[16];

  /**
   * Distributes {@code available} among {@code n} children; with {@code unbounded} there is no
   * limit at all (a dimension the parent does not track) and {@code available} is ignored.
   *
   * @param request each child's limited request (with its request floor applied)
   * @param min each child's min
   * @param weight each child's effective shared weight
   * @param scaledMin out: the min used for each child (scaled when the mins do not fit)
   * @param runtime out: each child's runtime
   */
  void distribute(
      long available,
      boolean unbounded,
      int n,
      long[] request,
      long[] min,
      long[] weight,
      boolean minScaling,
      long[] scaledMin,
      long[] runtime) {
    ensure(n);
    System.arraycopy(min, 0, scaledMin, 0, n);
    if (minScaling && !unbounded) {
      scaleMins(available, n, min, scaledMin);
    }
    long started = 0;
    int borrowers = 0;
    // What the weighted borrowers still ask for; -1 once it no longer fits a long.
    long need = 0;
    for (int i = 0; i < n; i++) {
      if (request[i] > scaledMin[i]) {
        runtime[i] = scaledMin[i];
        if (weight[i] > 0) {
          active[borrowers++] = i;
          need = need < 0 ? -1 : need + (request[i] - scaledMin[i]);
        }
      } else {
        runtime[i] = request[i];
      }
      started = Arith.add(started, runtime[i]);
    }
    if (borrowers == 0) {
      return;
    }
    if (unbounded) {
      giveAll(borrowers, request, runtime);
      return;
    }
    if (started >= available) {
      return;
    }
    long left = available - started;
    if (need >= 0 && left >= need) {
      // Every round would cap at least one borrower and the rest keep fitting: all end capped.
      giveAll(borrowers, request, runtime);
      return;
    }
    int count = borrowers;
    while (left > 0 && count > 0) {
      splitShares(left, count, weight);
      long returned = 0;
      int kept = 0;
      for (int a = 0; a < count; a++) {
        final int i = active[a];
        final long room = request[i] - runtime[i];
        final long given = Math.min(share[a], room);
        runtime[i] += given;
        returned += share[a] - given;
        if (runtime[i] < request[i]) {
          active[kept++] = i;
        }
      }
      count = kept;
      left = returned;
    }
  }

  private void giveAll(int borrowers, long[] request, long[] runtime) {
    for (int a = 0; a < borrowers; a++) {
      runtime[active[a]] = request[active[a]];
    }
  }

  /** Scales the mins to {@code floor(available·min/Σmin)} when they sum above what is available. */
  private static void scaleMins(long available, int n, long[] min, long[] scaledMin) {
    long sum = 0;
    boolean overflow = false;
    for (int i = 0; i < n; i++) {
      final long next = sum + min[i];
      if (next < 0) {
        overflow = true;
        break;
      }
      sum = next;
    }
    if (!overflow) {
      if (sum <= available) {
        return;
      }
      for (int i = 0; i < n; i++) {
        scaledMin[i] = Arith.multiplyDivide(available, min[i], sum);
      }
      return;
    }
    BigInteger big = BigInteger.ZERO;
    for (int i = 0; i < n; i++) {
      big = big.add(BigInteger.valueOf(min[i]));
    }
    final BigInteger avail = BigInteger.valueOf(available);
    for (int i = 0; i < n; i++) {
      scaledMin[i] = avail.multiply(BigInteger.valueOf(min[i])).divide(big).longValueExact();
    }
  }

  /**
   * Splits {@code left} among the first {@code count} active borrowers in proportion to weight:
   * {@code floor(w·left/W)} each, then one unit each to the largest remainders, ties in name order.
   * The shares always sum to {@code left}.
   */
  private void splitShares(long left, int count, long[] weight) {
    long total = 0;
    long largest = 0;
    boolean fits = true;
    for (int a = 0; a < count; a++) {
      final long w = weight[active[a]];
      total += w;
      if (total < 0) {
        fits = false;
        break;
      }
      largest = Math.max(largest, w);
    }
    if (!fits) {
      splitSharesExactly(left, count, weight);
      return;
    }
    long given = 0;
    if (Math.multiplyHigh(largest, left) == 0 && largest * left >= 0) {
      for (int a = 0; a < count; a++) {
        final long product = weight[active[a]] * left;
        final long quotient = product / total;
        share[a] = quotient;
        remainder[a] = product - quotient * total;
        given += quotient;
      }
    } else {
      // 128-bit products (bytes times byte-sized weights): w <= total, so each quotient is at
      // most left and each remainder below total, both longs.
      for (int a = 0; a < count; a++) {
        final long w = weight[active[a]];
        final long low = w * left;
        final long quotient = Arith.divide128(Math.multiplyHigh(w, left), low, total, w, left);
        share[a] = quotient;
        remainder[a] = low - quotient * total;
        given += quotient;
      }
    }
    giveLeftoverUnits(left - given, count);
  }

  /** The same split through {@link BigInteger}, for weights or amounts whose products overflow. */
  private void splitSharesExactly(long left, int count, long[] weight) {
    BigInteger total = BigInteger.ZERO;
    for (int a = 0; a < count; a++) {
      total = total.add(BigInteger.valueOf(weight[active[a]]));
    }
    final BigInteger bigLeft = BigInteger.valueOf(left);
    final BigInteger[] remainders = new BigInteger[count];
    long given = 0;
    for (int a = 0; a < count; a++) {
      final BigInteger[] qr =
          BigInteger.valueOf(weight[active[a]]).multiply(bigLeft).divideAndRemainder(total);
      share[a] = qr[0].longValueExact();
      remainders[a] = qr[1];
      given += share[a];
    }
    final Integer[] ranked = new Integer[count];
    for (int a = 0; a < count; a++) {
      ranked[a] = a;
    }
    // Stable: equal remainders keep name order.
    Arrays.sort(ranked, (x, y) -> remainders[y].compareTo(remainders[x]));
    final long units = left - given;
    for (int u = 0; u < units; u++) {
      share[ranked[u]]++;
    }
  }

  private void giveLeftoverUnits(long units, int count) {
    if (units == 0) {
      return;
    }
    for (int a = 0; a < count; a++) {
      order[a] = a;
    }
    sortByRemainderDescending(0, count);
    for (int u = 0; u < units; u++) {
      share[order[u]]++;
    }
  }

  /** A stable merge sort of {@code order[from, to)} by remainder, largest first. */
  private void sortByRemainderDescending(int from, int to) {
    if (to - from < 2) {
      return;
    }
    if (to - from <= 12) {
      for (int i = from + 1; i < to; i++) {
        final int item = order[i];
        int j = i - 1;
        while (j >= from && remainder[order[j]] < remainder[item]) {
          order[j + 1] = order[j];
          j--;
        }
        order[j + 1] = item;
      }
      return;
    }
    final int middle = (from + to) >>> 1;
    sortByRemainderDescending(from, middle);
    sortByRemainderDescending(middle, to);
    System.arraycopy(order, from, mergeBuffer, from, to - from);
    int left = from;
    int right = middle;
    for (int k = from; k < to; k++) {
      if (right >= to
          || (left < middle && remainder[mergeBuffer[left]] >= remainder[mergeBuffer[right]])) {
        order[k] = mergeBuffer[left++];
      } else {
        order[k] = mergeBuffer[right++];
      }
    }
  }

  private void ensure(int n) {
    if (active.length < n) {
      final int size = Math.max(n, active.length * 2);
      active = new int[size];
      share = new long[size];
      remainder = new long[size];
      order = new int[size];
      mergeBuffer = new int[size];
    }
  }
}
