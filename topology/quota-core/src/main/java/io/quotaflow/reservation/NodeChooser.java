package io.quotaflow.reservation;

import java.util.Optional;

/**
 * How one reservation's nodes are chosen: {@link LockChooser#choose} in quotaflow; another strategy
 * (a first-fit peer) in the benchmarks, which compare both on the same plans.
 */
@FunctionalInterface
public interface NodeChooser {

  /** The nodes to lock for {@code request}; empty when no set of candidates can. */
  Optional<LockChoice> choose(LockRequest request);
}
