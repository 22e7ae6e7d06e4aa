package io.quotaflow.reservation;

import io.quotaflow.quota.ResourceList;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The reference for the exact search: every subset of the candidates, kept when it covers the
 * target, fits the cap and is irreducible, ranked by the documented criteria in a straight reading
 * (docs/semantics.md section 14). Exponential: for at most a dozen candidates.
 */
final class BruteForceChooser {

  private static final BigInteger SCALE = BigInteger.valueOf(1_000_000);

  private BruteForceChooser() {}

  static Optional<List<String>> best(LockRequest request) {
    final List<ReservationCandidate> nodes = request.candidates();
    final int n = nodes.size();
    List<String> best = null;
    long[] bestRank = null;
    for (int mask = 0; mask < (1 << n); mask++) {
      final List<ReservationCandidate> set = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        if ((mask & (1 << i)) != 0) {
          set.add(nodes.get(i));
        }
      }
      final List<String> names = set.stream().map(ReservationCandidate::name).sorted().toList();
      if (!LockChooser.irreducible(request.target(), nodes, names) || !withinCap(request, set)) {
        continue;
      }
      final long[] rank = rank(request, set);
      final int order = bestRank == null ? -1 : compare(rank, bestRank);
      if (order < 0 || (order == 0 && compareNames(names, best) < 0)) {
        best = names;
        bestRank = rank;
      }
    }
    return Optional.ofNullable(best);
  }

  private static boolean withinCap(LockRequest request, List<ReservationCandidate> set) {
    ResourceList sum = ResourceList.empty();
    for (final ReservationCandidate node : set) {
      sum = sum.plus(node.allocatable());
    }
    for (final String dimension : request.capRemaining().names()) {
      if (sum.get(dimension) > request.capRemaining().get(dimension)) {
        return false;
      }
    }
    return true;
  }

  /** {excess, −used, count, −idle, −held}: smaller is better, compared in order. */
  private static long[] rank(LockRequest request, List<ReservationCandidate> set) {
    final List<String> dims = new ArrayList<>();
    request
        .target()
        .amounts()
        .asMap()
        .forEach(
            (dimension, amount) -> {
              if (amount > 0) {
                dims.add(dimension);
              }
            });
    // Every other dimension of the cluster counts too (with a target of 0), pod slots excepted.
    for (final String dimension : request.clusterTotal().names()) {
      if (!dims.contains(dimension) && !dimension.equals("pods")) {
        dims.add(dimension);
      }
    }
    if (dims.isEmpty()) {
      dims.addAll(request.clusterTotal().names());
    }
    long excess = 0;
    long used = 0;
    long idle = 0;
    long held = 0;
    for (final String dimension : dims) {
      final long total = request.clusterTotal().get(dimension);
      long allocated = 0;
      for (final ReservationCandidate node : set) {
        allocated += down(node.allocatable().get(dimension), total);
        used += down(node.groupUsed().get(dimension), total);
        idle += down(node.idle().get(dimension), total);
      }
      excess += Math.max(0, allocated - up(request.target().amounts().get(dimension), total));
    }
    for (final ReservationCandidate node : set) {
      held += node.heldByGroup() ? 1 : 0;
    }
    return new long[] {excess, -used, set.size(), -idle, -held};
  }

  private static long down(long amount, long total) {
    if (total <= 0 || amount <= 0) {
      return 0;
    }
    return BigInteger.valueOf(amount).multiply(SCALE).divide(BigInteger.valueOf(total)).longValue();
  }

  private static long up(long amount, long total) {
    if (total <= 0 || amount <= 0) {
      return 0;
    }
    final BigInteger[] qr =
        BigInteger.valueOf(amount).multiply(SCALE).divideAndRemainder(BigInteger.valueOf(total));
    return qr[0].longValue() + (qr[1].signum() > 0 ? 1 : 0);
  }

  private static int compare(long[] a, long[] b) {
    for (int i = 0; i < a.length; i++) {
      final int c = Long.compare(a[i], b[i]);
      if (c != 0) {
        return c;
      }
    }
    return 0;
  }

  private static int compareNames(List<String> a, List<String> b) {
    final Comparator<List<String>> lexicographic =
        (x, y) -> {
          for (int i = 0; i < Math.min(x.size(), y.size()); i++) {
            final int c = x.get(i).compareTo(y.get(i));
            if (c != 0) {
              return c;
            }
          }
          return Integer.compare(x.size(), y.size());
        };
    return lexicographic.compare(a, b);
  }
}
