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

  /** Up to this many borrowers, the leftover units are handed out by selection, not sorting. */
  private static final int SELECTION_LIMIT = 16;

  /** Bits of a borrower's position in a selection key: enough for {@link #SELECTION_LIMIT}. */
  private static final int INDEX_BITS = 4;

  private static final int INDEX_MASK = (1 << INDEX_BITS) - 1;

  // Set only while an explanation is recorded (SplitTrace); the computation itself never sets it.
  private SplitTrace trace;

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
    distribute(available, unbounded, n, request, min, weight, minScaling, null, scaledMin, runtime);
  }

  /**
   * {@link #distribute(long, boolean, int, long[], long[], long[], boolean, long[], long[],
   * long[])} with every step recorded in {@code into}: the same computation, so an explanation
   * built from the record cannot drift from the runtimes (issue 27).
   */
  void distributeTraced(
      SplitTrace into,
      long available,
      boolean unbounded,
      int n,
      long[] request,
      long[] min,
      long[] weight,
      boolean minScaling,
      long[] guaranteed,
      long[] scaledMin,
      long[] runtime) {
    trace = into;
    try {
      distribute(
          available,
          unbounded,
          n,
          request,
          min,
          weight,
          minScaling,
          guaranteed,
          scaledMin,
          runtime);
    } finally {
      trace = null;
    }
  }

  /**
   * {@link #distribute(long, boolean, int, long[], long[], long[], boolean, long[], long[])} with
   * guaranteed amounts (docs/semantics.md section 17), as Koordinator's redistribution under
   * ElasticQuotaGuaranteeUsage: each child starts at {@code max(scaled min, guaranteed)} even when
   * it asks for less (no group lends), and borrows above it. Guarantees are never scaled, so the
   * starts may sum above what is available; then nobody borrows.
   *
   * @param guaranteed each child's guaranteed amount; null for the plain distribution
   */
  void distribute(
      long available,
      boolean unbounded,
      int n,
      long[] request,
      long[] min,
      long[] weight,
      boolean minScaling,
      long[] guaranteed,
      long[] scaledMin,
      long[] runtime) {
    ensure(n);
    // The mins and their sum, in one loop (amounts are non-negative: the sum overflowed iff it
    // went negative at some point).
    long minSum = 0;
    boolean minOverflow = false;
    for (int i = 0; i < n; i++) {
      final long m = min[i];
      scaledMin[i] = m;
      minSum += m;
      minOverflow |= minSum < 0;
    }
    final boolean scaling = minScaling && !unbounded && (minOverflow || minSum > available);
    if (scaling) {
      scaleMins(available, n, min, scaledMin, minOverflow ? -1 : minSum);
    }
    if (trace != null) {
      trace.minsScaled(scaling, minOverflow ? Long.MAX_VALUE : minSum);
    }
    // Without branches (whether a child borrows is a coin toss for the branch predictor): every
    // amount is non-negative, so a running sum overflowed iff it was negative at some point, and
    // the saturated sum is then Long.MAX_VALUE.
    long started = 0;
    boolean startedOverflow = false;
    int borrowers = 0;
    // What the weighted borrowers still ask for.
    long need = 0;
    boolean needOverflow = false;
    for (int i = 0; i < n; i++) {
      final long asked = request[i];
      final long floor = guaranteed == null ? scaledMin[i] : Math.max(scaledMin[i], guaranteed[i]);
      final long first = guaranteed == null ? Math.min(asked, floor) : floor;
      runtime[i] = first;
      final boolean weighted = asked > floor & weight[i] > 0;
      active[borrowers] = i;
      borrowers += weighted ? 1 : 0;
      need += weighted ? asked - floor : 0;
      needOverflow |= need < 0;
      started += first;
      startedOverflow |= started < 0;
    }
    if (trace != null) {
      trace.started(runtime, n, startedOverflow ? Long.MAX_VALUE : started, active, borrowers);
    }
    if (borrowers == 0) {
      return;
    }
    if (unbounded) {
      if (trace != null) {
        trace.allFit(0, Long.MAX_VALUE, active, borrowers);
      }
      giveAll(borrowers, request, runtime);
      return;
    }
    if (startedOverflow || started >= available) {
      return;
    }
    long left = available - started;
    if (!needOverflow && left >= need) {
      // Every round would cap at least one borrower and the rest keep fitting: all end capped.
      if (trace != null) {
        trace.allFit(need, left, active, borrowers);
      }
      giveAll(borrowers, request, runtime);
      return;
    }
    int count = borrowers;
    while (left > 0 && count > 0) {
      splitShares(left, count, weight);
      if (trace != null) {
        trace.round(left, active, count, share, runtime);
      }
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
      if (trace != null) {
        trace.roundDone(runtime, returned);
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

  /**
   * Scales the mins to {@code floor(available·min/Σmin)} when they sum above what is available;
   * {@code sum} is Σmin, or -1 when it does not fit a long.
   */
  private static void scaleMins(long available, int n, long[] min, long[] scaledMin, long sum) {
    if (sum >= 0) {
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
    boolean fits = true;
    for (int a = 0; a < count; a++) {
      total += weight[active[a]];
      fits &= total >= 0;
    }
    if (!fits) {
      splitSharesExactly(left, count, weight);
      return;
    }
    // w·left/W for every borrower: one floating-point scale per round gives each quotient to
    // within one, the exact 128-bit remainder corrects it (w <= W, so each quotient is at most
    // left and each remainder below W, both longs).
    final double scale = (double) left / (double) total;
    long given = 0;
    for (int a = 0; a < count; a++) {
      final long w = weight[active[a]];
      final long low = w * left;
      final long quotient =
          Arith.divide128(Math.multiplyHigh(w, left), low, total, (long) (w * scale));
      share[a] = quotient;
      remainder[a] = low - quotient * total;
      given += quotient;
    }
    if (trace != null) {
      trace.quotients(share, count);
    }
    giveLeftoverUnits(left - given, count, total);
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
    if (trace != null) {
      trace.quotients(share, count);
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

  /** Hands out the leftover units; every remainder is below {@code total}. */
  private void giveLeftoverUnits(long units, int count, long total) {
    if (units == 0) {
      return;
    }
    if (count <= SELECTION_LIMIT) {
      if (total >>> (63 - INDEX_BITS) == 0) {
        selectLeftoverUnitsByKey((int) units, count);
      } else {
        selectLeftoverUnits((int) units, count);
      }
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

  /**
   * {@link #giveLeftoverUnits} for a few borrowers, without sorting: the units go one at a time to
   * the largest remainder left (ties to the earlier name), or, when most borrowers get one, all get
   * one and it is taken back one at a time from the smallest remainder left (ties from the later
   * name): the same borrowers the stable sort picks. Uses up {@link #remainder}.
   */
  private void selectLeftoverUnits(int units, int count) {
    if (units * 2 <= count) {
      for (int u = 0; u < units; u++) {
        // The best remainder so far stays in a register: no load waits on the last comparison.
        int best = 0;
        long largest = remainder[0];
        for (int a = 1; a < count; a++) {
          final long r = remainder[a];
          final boolean larger = r > largest;
          best = larger ? a : best;
          largest = larger ? r : largest;
        }
        share[best]++;
        remainder[best] = -1;
      }
      return;
    }
    for (int a = 0; a < count; a++) {
      share[a]++;
    }
    for (int u = units; u < count; u++) {
      int worst = 0;
      long smallest = remainder[0];
      for (int a = 1; a < count; a++) {
        final long r = remainder[a];
        final boolean notLarger = r <= smallest;
        worst = notLarger ? a : worst;
        smallest = notLarger ? r : smallest;
      }
      share[worst]--;
      remainder[worst] = Long.MAX_VALUE;
    }
  }

  /**
   * {@link #selectLeftoverUnits} with each remainder and its position packed in one key, {@code
   * remainder << 4 | (15 - a)} (remainders below 2^59, at most 16 borrowers): a larger key is a
   * larger remainder or, for equal remainders, the earlier name, so each pick is a plain maximum
   * (or minimum) over distinct keys. Picks the same borrowers. Uses up {@link #remainder}.
   */
  private void selectLeftoverUnitsByKey(int units, int count) {
    final long[] key = remainder;
    for (int a = 0; a < count; a++) {
      key[a] = key[a] << INDEX_BITS | (INDEX_MASK - a);
    }
    if (units * 2 <= count) {
      for (int u = 0; u < units; u++) {
        long largest = key[0];
        for (int a = 1; a < count; a++) {
          largest = Math.max(largest, key[a]);
        }
        final int best = INDEX_MASK - (int) (largest & INDEX_MASK);
        share[best]++;
        key[best] = Long.MIN_VALUE;
      }
      return;
    }
    for (int a = 0; a < count; a++) {
      share[a]++;
    }
    for (int u = units; u < count; u++) {
      long smallest = key[0];
      for (int a = 1; a < count; a++) {
        smallest = Math.min(smallest, key[a]);
      }
      final int worst = INDEX_MASK - (int) (smallest & INDEX_MASK);
      share[worst]--;
      key[worst] = Long.MAX_VALUE;
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
