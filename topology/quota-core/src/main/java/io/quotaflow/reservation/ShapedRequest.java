package io.quotaflow.reservation;

import io.quotaflow.quota.ResourceList;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One lock request prepared for the searches: the target, the cap and the ranking scale as arrays
 * over their dimensions, and the candidates grouped into {@link NodeShape}s, larger first. Read
 * only once built.
 */
final class ShapedRequest {
  final String[] coverDims;
  final long[] target;
  final String[] capDims;
  final long[] cap;
  final String[] rankDims;
  final long[] rankTotals;
  final long[] rankedTarget;
  final int minNodes;
  final NodeShape[] shapes;

  ShapedRequest(LockRequest request) {
    final Map<String, Long> amounts = new LinkedHashMap<>();
    request
        .target()
        .amounts()
        .asMap()
        .forEach(
            (dimension, amount) -> {
              if (amount > 0) {
                // Beyond 2^61 nothing real is counted; the cap keeps sums of a few far from
                // overflow.
                amounts.put(dimension, Math.min(amount, LockChooser.MAX_AMOUNT));
              }
            });
    coverDims = amounts.keySet().toArray(String[]::new);
    target = amounts.values().stream().mapToLong(Long::longValue).toArray();
    capDims = request.capRemaining().names().toArray(String[]::new);
    cap = new long[capDims.length];
    for (int j = 0; j < capDims.length; j++) {
      cap[j] = Math.max(0, request.capRemaining().get(capDims[j]));
    }
    final ResourceList total = request.clusterTotal();
    rankDims = rankDimensions(coverDims, total);
    rankedTarget = new long[rankDims.length];
    rankTotals = new long[rankDims.length];
    for (int r = 0; r < rankDims.length; r++) {
      rankTotals[r] = total.get(rankDims[r]);
      rankedTarget[r] =
          LockChooser.scaledUp(request.target().amounts().get(rankDims[r]), rankTotals[r]);
    }
    minNodes = request.target().minNodes();
    shapes = shapes(request.candidates(), total);
  }

  /** The names of the first {@code counts[s]} nodes of each shape {@code s}, sorted. */
  List<String> names(int[] counts) {
    final List<String> names = new ArrayList<>();
    for (int s = 0; s < shapes.length; s++) {
      for (int i = 0; i < counts[s]; i++) {
        names.add(shapes[s].nodes.get(i).name());
      }
    }
    names.sort(null);
    return List.copyOf(names);
  }

  /** The target's dimensions first, then every other one of the cluster but pod slots. */
  private static String[] rankDimensions(String[] cover, ResourceList total) {
    final List<String> dims = new ArrayList<>(List.of(cover));
    for (final String dimension : total.names()) {
      if (!dims.contains(dimension) && !LockChooser.POD_SLOTS.equals(dimension)) {
        dims.add(dimension);
      }
    }
    if (dims.isEmpty()) {
      dims.addAll(total.names());
    }
    return dims.toArray(String[]::new);
  }

  private NodeShape[] shapes(List<ReservationCandidate> candidates, ResourceList total) {
    final Map<ResourceList, NodeShape> byAllocatable = new LinkedHashMap<>();
    final List<ReservationCandidate> sorted = new ArrayList<>(candidates);
    sorted.sort(Comparator.comparing(ReservationCandidate::name));
    for (final ReservationCandidate candidate : sorted) {
      byAllocatable
          .computeIfAbsent(candidate.allocatable(), a -> new NodeShape())
          .nodes
          .add(candidate);
    }
    final List<NodeShape> list = new ArrayList<>();
    for (final Map.Entry<ResourceList, NodeShape> entry : byAllocatable.entrySet()) {
      final ResourceList allocatable = entry.getKey();
      final NodeShape shape = entry.getValue();
      shape.cover = amounts(allocatable, coverDims);
      for (int j = 0; j < coverDims.length; j++) {
        // Exact for coverage: a node covers a dimension alone once it reaches the target there.
        shape.cover[j] = Math.min(shape.cover[j], target[j]);
      }
      shape.capped = amounts(allocatable, capDims);
      shape.ranked = new long[rankDims.length];
      for (int r = 0; r < rankDims.length; r++) {
        shape.ranked[r] = LockChooser.scaled(allocatable.get(rankDims[r]), rankTotals[r]);
        shape.size += shape.ranked[r];
      }
      orderNodes(shape, total);
      shape.bound = Math.min(shape.nodes.size(), bound(shape));
      list.add(shape);
    }
    // Larger shapes first: the search finds covering sets, and so tight bounds, sooner.
    list.sort(
        Comparator.comparingLong((NodeShape shape) -> -shape.size)
            .thenComparing(shape -> shape.nodes.get(0).name()));
    return list.toArray(NodeShape[]::new);
  }

  /** Sorts a shape's nodes best first (use, idle, held, name) and sums those prefixes. */
  private void orderNodes(NodeShape shape, ResourceList total) {
    final int n = shape.nodes.size();
    final Map<ReservationCandidate, long[]> keys = new LinkedHashMap<>();
    for (final ReservationCandidate node : shape.nodes) {
      keys.put(
          node,
          new long[] {
            rankedSum(node.groupUsed(), total),
            rankedSum(node.idle(), total),
            node.heldByGroup() ? 1 : 0
          });
    }
    shape.nodes.sort(
        Comparator.comparingLong((ReservationCandidate node) -> -keys.get(node)[0])
            .thenComparingLong(node -> -keys.get(node)[1])
            .thenComparingLong(node -> -keys.get(node)[2])
            .thenComparing(ReservationCandidate::name));
    shape.usedPrefix = new long[n + 1];
    shape.idlePrefix = new long[n + 1];
    shape.heldPrefix = new long[n + 1];
    for (int i = 0; i < n; i++) {
      final long[] key = keys.get(shape.nodes.get(i));
      shape.usedPrefix[i + 1] = shape.usedPrefix[i] + key[0];
      shape.idlePrefix[i + 1] = shape.idlePrefix[i] + key[1];
      shape.heldPrefix[i + 1] = shape.heldPrefix[i] + key[2];
    }
  }

  private long rankedSum(ResourceList amounts, ResourceList total) {
    long sum = 0;
    for (final String dimension : rankDims) {
      sum += LockChooser.scaled(amounts.get(dimension), total.get(dimension));
    }
    return sum;
  }

  private static long[] amounts(ResourceList list, String[] dimensions) {
    final long[] amounts = new long[dimensions.length];
    for (int j = 0; j < dimensions.length; j++) {
      amounts[j] = Math.max(0, list.get(dimensions[j]));
    }
    return amounts;
  }

  /**
   * The most nodes of {@code shape} an irreducible set holds: dropping one of them must uncover a
   * dimension it adds to, so there are at most {@code ceil(target / amount)} of them in such a
   * dimension; or the node count must fall short.
   */
  private int bound(NodeShape shape) {
    long most = minNodes;
    for (int j = 0; j < coverDims.length; j++) {
      if (shape.cover[j] > 0) {
        most = Math.max(most, (target[j] + shape.cover[j] - 1) / shape.cover[j]);
      }
    }
    return (int) Math.min(Integer.MAX_VALUE, most);
  }
}
