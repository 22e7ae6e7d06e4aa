package io.quotaflow.explain;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a group would need for its runtime in one resource to reach {@code target}, each lever
 * alone, everything else as it is, within its parent's split at the parent's current runtime (issue
 * 27). Amounts in canonical units.
 *
 * @param runtime its runtime now
 * @param reached the runtime is already at least the target
 * @param min a min that reaches the target (a min one unit lower does not), with the weight and
 *     floor that follow from it; empty when no min up to its max does
 * @param weight a shared weight that reaches it (one lower does not); empty when none does: the
 *     surplus is too small whatever the weight
 * @param siblingsHold what the group's siblings hold now in the split
 * @param siblingsAskLess how much less the siblings would have to hold in total, 0 when reached
 * @param limits what caps the group below the target whatever the levers: its own limited request
 *     (its pods do not ask for more), its max, its parent's runtime
 */
public record Reach(
    String group,
    String resource,
    long target,
    long runtime,
    boolean reached,
    Optional<Long> min,
    Optional<Long> weight,
    long siblingsHold,
    long siblingsAskLess,
    List<Limit> limits) {

  public Reach {
    Objects.requireNonNull(group, "group");
    Objects.requireNonNull(resource, "resource");
    limits = List.copyOf(limits);
  }

  /** A bound the levers cannot move: {@code kind} at {@code amount}. */
  public record Limit(LimitKind kind, long amount) {}

  /** Which bound caps the group. */
  public enum LimitKind {
    /** Its limited request: its pods (and children) do not ask for more. */
    REQUEST,
    /** Its ceiling: its max, or min plus its borrowing limit. */
    CEILING,
    /** What its parent distributes. */
    PARENT
  }
}
