package io.quotaflow.admission.state;

import io.quotaflow.quota.ResourceList;
import io.quotaflow.tree.GroupStatus;
import io.quotaflow.tree.PodAssignment;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a new {@link ClusterSnapshot} takes over from the previous one: each part read now that
 * equals the previous snapshot's is replaced by the previous (immutable) object, so an unchanged
 * group costs a comparison instead of a new copy, and the indexes over unchanged parts are shared.
 * The signal is value equality with what was just read, never the age of the previous copy: a part
 * is reused only when it is exactly what the stores hold at this read, so nothing stale is served
 * as fresh.
 */
final class SnapshotReuse {

  private final ClusterSnapshot previous; // null for a first copy
  private int changedGroups;
  private int changedPodLists;
  private int changedOwnRequests;

  SnapshotReuse(Optional<ClusterSnapshot> previous) {
    this.previous = Objects.requireNonNull(previous, "previous").orElse(null);
  }

  /** The previous snapshot, if any. */
  Optional<ClusterSnapshot> previous() {
    return Optional.ofNullable(previous);
  }

  /** {@code read}, or the previous snapshot's equal status of the same group. */
  GroupStatus status(GroupStatus read) {
    final GroupStatus before = previous == null ? null : previous.byName(read.name());
    if (read.equals(before)) {
      return before;
    }
    changedGroups++;
    return read;
  }

  /** {@code read}, or the previous snapshot's equal own request of {@code group}. */
  ResourceList ownRequest(String group, ResourceList read) {
    final ResourceList before = previous == null ? null : previous.ownRequestOrNull(group);
    if (read.equals(before)) {
      return before;
    }
    changedOwnRequests++;
    return read;
  }

  /** An immutable copy of {@code read}, or the previous snapshot's equal list of {@code group}. */
  List<PodAssignment> pods(String group, List<PodAssignment> read) {
    final List<PodAssignment> before = previous == null ? null : previous.podsOrNull(group);
    if (before != null && before.size() == read.size() && before.equals(read)) {
      return before;
    }
    changedPodLists++;
    return List.copyOf(read);
  }

  /** Whether every status read was the previous snapshot's own object (none changed or is new). */
  boolean noGroupChanged() {
    return previous != null && changedGroups == 0;
  }

  /** Whether every non-empty pod list read was the previous snapshot's own list. */
  boolean noPodListChanged() {
    return previous != null && changedPodLists == 0;
  }

  /** Whether every own request read was the previous snapshot's own object. */
  boolean noOwnRequestChanged() {
    return previous != null && changedOwnRequests == 0;
  }

  /** {@code read}, or {@code before} when equal. */
  static <T> T either(T read, T before) {
    return read.equals(before) ? before : read;
  }

  /** Whether {@code a} and {@code b} hold the same objects in the same order. */
  static <T> boolean sameObjects(List<T> a, List<T> b) {
    if (a.size() != b.size()) {
      return false;
    }
    for (int i = 0; i < a.size(); i++) {
      if (a.get(i) != b.get(i)) {
        return false;
      }
    }
    return true;
  }
}
