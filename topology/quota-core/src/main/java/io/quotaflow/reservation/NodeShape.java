package io.quotaflow.reservation;

import java.util.ArrayList;
import java.util.List;

/**
 * Candidates with the same allocatable, which are interchangeable for coverage, excess, count and
 * cap: best first by the group's use, idle, held and name, with prefix sums of those so that taking
 * the first {@code k} is summed in one step.
 */
final class NodeShape {
  final List<ReservationCandidate> nodes = new ArrayList<>();
  long[] cover; // target dimensions, each capped at the target
  long[] capped; // cap dimensions
  long[] ranked; // rank dimensions, scaled
  long size; // Σ ranked
  long[] usedPrefix;
  long[] idlePrefix;
  long[] heldPrefix;
  int bound; // the most nodes of this shape an irreducible set can hold
}
