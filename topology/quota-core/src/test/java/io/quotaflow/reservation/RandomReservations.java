package io.quotaflow.reservation;

import io.quotaflow.quota.ResourceList;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/** Random choice problems for the property tests: small palettes, so that shapes repeat. */
final class RandomReservations {

  static final String[] DIMENSIONS = {"cpu", "memory", "nvidia.com/gpu"};
  private static final long[][] PALETTE = {
    {4_000, 16, 0},
    {8_000, 32, 0},
    {8_000, 64, 2},
    {16_000, 64, 0},
    {16_000, 128, 4},
    {32_000, 256, 8}
  };

  private RandomReservations() {}

  /**
   * {@code n} candidates named node-00..; a third of them random sizes, the rest from a palette.
   */
  static List<ReservationCandidate> candidates(Random random, int n) {
    final List<ReservationCandidate> nodes = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      final long[] size =
          random.nextInt(3) == 0
              ? new long[] {
                1_000 * (1 + random.nextInt(32)), 8 * (1 + random.nextInt(32)), random.nextInt(3)
              }
              : PALETTE[random.nextInt(PALETTE.length)];
      final ResourceList allocatable = list(size[0], size[1], size[2]);
      final ResourceList used =
          random.nextInt(3) == 0
              ? list(
                  random.nextInt((int) size[0] + 1),
                  random.nextInt((int) size[1] + 1),
                  size[2] == 0 ? 0 : random.nextInt((int) size[2] + 1))
              : ResourceList.empty();
      final ResourceList idle =
          list(
              random.nextInt((int) size[0] + 1),
              random.nextInt((int) size[1] + 1),
              size[2] == 0 ? 0 : random.nextInt((int) size[2] + 1));
      nodes.add(
          new ReservationCandidate(
              String.format("node-%02d", i), allocatable, idle, used, random.nextInt(5) == 0));
    }
    return nodes;
  }

  /** A target over a random non-empty set of dimensions, up to {@code share}% of the total. */
  static ReservationTarget target(Random random, ResourceList total, int share, int maxNodes) {
    final Map<String, Long> amounts = new TreeMap<>();
    for (final String dimension : DIMENSIONS) {
      if (random.nextInt(2) == 0 || (dimension.equals("cpu") && amounts.isEmpty())) {
        amounts.put(dimension, total.get(dimension) * random.nextInt(share + 1) / 100);
      }
    }
    return new ReservationTarget(ResourceList.of(amounts), random.nextInt(maxNodes + 1));
  }

  /** No cap, or a random cap on every dimension. */
  static ResourceList cap(Random random, ResourceList total) {
    if (random.nextBoolean()) {
      return ResourceList.empty();
    }
    final Map<String, Long> cap = new TreeMap<>();
    for (final String dimension : DIMENSIONS) {
      cap.put(dimension, total.get(dimension) * (30 + random.nextInt(71)) / 100);
    }
    return ResourceList.of(cap);
  }

  static ResourceList total(List<ReservationCandidate> nodes) {
    ResourceList total = ResourceList.empty();
    for (final ReservationCandidate node : nodes) {
      total = total.plus(node.allocatable());
    }
    return total;
  }

  static ResourceList list(long cpu, long memoryGib, long gpu) {
    final Map<String, Long> amounts = new TreeMap<>();
    amounts.put("cpu", cpu);
    amounts.put("memory", memoryGib << 30);
    if (gpu > 0) {
      amounts.put("nvidia.com/gpu", gpu);
    }
    return ResourceList.of(amounts);
  }
}
