package io.quotaflow.bench.reservation;

import io.quotaflow.quota.ResourceList;
import io.quotaflow.reservation.LockChoice;
import io.quotaflow.reservation.LockRequest;
import io.quotaflow.reservation.NodeChooser;
import io.quotaflow.reservation.ReservationCandidate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The peer of the benchmarks: a plain greedy first-fit, as a scheduler plugin would write it first.
 * Candidates in name order; a node is taken when it adds to a dimension still short (or the node
 * count is) and fits what the cap leaves; it stops once the target is covered. No ranking, no
 * pruning to an irreducible set.
 */
public final class FirstFitChooser implements NodeChooser {

  @Override
  public Optional<LockChoice> choose(LockRequest request) {
    final List<ReservationCandidate> candidates = new ArrayList<>(request.candidates());
    candidates.sort(Comparator.comparing(ReservationCandidate::name));
    final Map<String, Long> target = request.target().amounts().asMap();
    final int minNodes = request.target().minNodes();
    ResourceList sum = ResourceList.empty();
    final List<String> chosen = new ArrayList<>();
    for (final ReservationCandidate node : candidates) {
      if (covered(target, sum) && chosen.size() >= minNodes) {
        break;
      }
      if (!helps(target, sum, node.allocatable()) && chosen.size() >= minNodes) {
        continue;
      }
      final ResourceList after = sum.plus(node.allocatable());
      if (withinCap(after, request.capRemaining())) {
        chosen.add(node.name());
        sum = after;
      }
    }
    if (!covered(target, sum) || chosen.size() < minNodes) {
      return Optional.empty();
    }
    chosen.sort(null);
    return Optional.of(new LockChoice(chosen, false));
  }

  /** Whether {@code node} adds to a dimension {@code sum} is still short of. */
  private static boolean helps(Map<String, Long> target, ResourceList sum, ResourceList node) {
    for (final Map.Entry<String, Long> entry : target.entrySet()) {
      if (sum.get(entry.getKey()) < entry.getValue() && node.get(entry.getKey()) > 0) {
        return true;
      }
    }
    return false;
  }

  private static boolean covered(Map<String, Long> target, ResourceList sum) {
    for (final Map.Entry<String, Long> entry : target.entrySet()) {
      if (sum.get(entry.getKey()) < entry.getValue()) {
        return false;
      }
    }
    return true;
  }

  private static boolean withinCap(ResourceList locked, ResourceList cap) {
    for (final String dimension : cap.names()) {
      if (locked.get(dimension) > cap.get(dimension)) {
        return false;
      }
    }
    return true;
  }
}
