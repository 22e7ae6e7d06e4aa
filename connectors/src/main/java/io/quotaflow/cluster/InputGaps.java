package io.quotaflow.cluster;

import java.time.Instant;
import java.util.Optional;

/**
 * Whether the engine's picture of a cluster may have missed changes since a decision was taken: the
 * eviction executor asks before it acts on a command, the source answers (docs/reliability.md).
 */
@FunctionalInterface
public interface InputGaps {

  /** The answer when no source runs beside the executor: only the command's age decides. */
  InputGaps NONE = (cluster, decidedAt) -> Optional.empty();

  /**
   * Why a decision taken at {@code decidedAt} for {@code cluster} rests on inputs that may be
   * incomplete (a watch down, a write lost, or a relist since the decision); empty when nothing is
   * known against it.
   */
  Optional<String> staleness(String cluster, Instant decidedAt);
}
