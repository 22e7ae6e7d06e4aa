package io.quotaflow.reservation;

import java.util.List;

/**
 * The nodes chosen for one reservation.
 *
 * @param nodes the nodes, by name
 * @param exact whether the exact search decided (else the heuristic did)
 */
public record LockChoice(List<String> nodes, boolean exact) {

  public LockChoice {
    nodes = List.copyOf(nodes);
  }
}
