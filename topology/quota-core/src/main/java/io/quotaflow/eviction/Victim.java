package io.quotaflow.eviction;

import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.ResourceList;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One pod chosen for eviction.
 *
 * @param pod the pod
 * @param uid the uid the eviction must be aimed at (never a later pod of the same name)
 * @param priority its priority
 * @param startTime when it started, if it has
 * @param request what it holds in the group's dimensions
 * @param gang the gang it is evicted with, when it goes because its gang goes (issue 28)
 */
public record Victim(
    PodRef pod,
    String uid,
    int priority,
    Optional<Instant> startTime,
    ResourceList request,
    Optional<EvictedGang> gang) {
  public Victim {
    Objects.requireNonNull(pod, "pod");
    Objects.requireNonNull(uid, "uid");
    Objects.requireNonNull(startTime, "startTime");
    Objects.requireNonNull(request, "request");
    Objects.requireNonNull(gang, "gang");
  }

  /** A victim evicted on its own, not with a gang. */
  public Victim(
      PodRef pod, String uid, int priority, Optional<Instant> startTime, ResourceList request) {
    this(pod, uid, priority, startTime, request, Optional.empty());
  }
}
