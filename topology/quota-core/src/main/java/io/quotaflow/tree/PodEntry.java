package io.quotaflow.tree;

import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;

/** One pod as the state holds it: the pod, where it is charged and what it contributes. */
final class PodEntry {

  QuotaPod pod;

  /** The group the pod resolves to (also when it cannot be charged there). */
  String groupName;

  /** Why the pod is not charged, or null. */
  String problem;

  /** Why the pod's label was ignored (it names a group not bound to its namespace), or null. */
  String unbound;

  /** The slot charged, or -1. */
  int group = -1;

  /** Where the entry sits in its group's {@link GroupPods}, or -1. */
  int position = -1;

  /**
   * Effective request (derived dimensions added): interned dimension ids, in the order of {@link
   * #request}'s names (shared between pods whose requests name the same dimensions; never changed),
   * and the request itself.
   */
  int[] dimensions = new int[0];

  ResourceList request = ResourceList.empty();

  /** The pod's creation time (seconds and nanoseconds of the epoch), kept at hand for sorting. */
  long createdSecond;

  int createdNano;

  boolean countsRequest;
  boolean countsUsed;
  boolean nonPreemptible;

  /** Over-quota class, or null when the pod is not counted as used. */
  PodClass podClass;

  /** The assignment last handed out, or null. */
  PodAssignment emitted;

  /** Whether the assignment must be compared at the next recomputation. */
  boolean pending;

  /** Set once the pod is removed from the state. */
  boolean removed;

  PodEntry(QuotaPod pod) {
    this.pod = pod;
  }
}
