package io.quotaflow.eviction;

import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.tree.GroupStatus;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A group whose used exceeds its runtime in some dimension (SPEC 11). The caller tracks how long a
 * group has stayed over (the core has no clock) and asks {@link VictimSelector} once the revoke
 * delay has passed.
 *
 * @param group the group
 * @param parentGroup true for a parent, which is reclaimed through its leaves
 * @param used the group's used
 * @param runtime the group's runtime
 * @param overDimensions the dimensions where used exceeds runtime, sorted
 */
public record OverUse(
    String group,
    boolean parentGroup,
    ResourceList used,
    ResourceList runtime,
    List<String> overDimensions) {

  public OverUse {
    Objects.requireNonNull(group, "group");
    Objects.requireNonNull(used, "used");
    Objects.requireNonNull(runtime, "runtime");
    overDimensions = List.copyOf(overDimensions);
  }

  /**
   * Whether {@code status} is over-used. The root, the system group (never limited) and invalid
   * groups (never evicted from) never are.
   */
  public static Optional<OverUse> of(GroupStatus status) {
    if (!status.valid()
        || SpecialGroups.ROOT.equals(status.name())
        || SpecialGroups.SYSTEM.equals(status.name())) {
      return Optional.empty();
    }
    final List<String> over = new ArrayList<>();
    for (final String dimension : status.trackedDimensions()) {
      if (status.used().get(dimension) > status.runtime().get(dimension)) {
        over.add(dimension);
      }
    }
    if (over.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        new OverUse(status.name(), status.parentGroup(), status.used(), status.runtime(), over));
  }

  /** Every over-used group among {@code statuses}, in their order. */
  public static List<OverUse> find(Collection<GroupStatus> statuses) {
    final List<OverUse> result = new ArrayList<>();
    for (final GroupStatus status : statuses) {
      of(status).ifPresent(result::add);
    }
    return result;
  }
}
