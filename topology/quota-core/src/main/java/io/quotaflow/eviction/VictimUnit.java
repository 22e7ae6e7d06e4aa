package io.quotaflow.eviction;

import io.quotaflow.quota.GangKey;
import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What reclaim removes and adds back whole (issue 28): a pod without a gang, or the running members
 * of one gang, whose request is the sum of theirs. Evicting part of a gang would leave the rest
 * holding resources they cannot use.
 *
 * @param members the pods, least important first
 * @param requests each member's charged request, in the same order
 * @param request the sum of the members' requests
 * @param gang the gang, for a gang's unit
 * @param broken whether the gang already runs fewer members than its minMember
 * @param priority the priority of its most important member
 * @param startTime the latest start among its members ({@link Instant#MAX} while one has not
 *     started)
 * @param creationTime the latest creation among its members
 * @param name the pod's reference, or the gang's namespace and name, to break ties
 */
record VictimUnit(
    List<QuotaPod> members,
    List<ResourceList> requests,
    ResourceList request,
    Optional<GangKey> gang,
    boolean broken,
    int priority,
    Instant startTime,
    Instant creationTime,
    PodRef name) {

  /**
   * Least important first: a broken gang (useless already), then lowest priority, then most
   * recently started, then newest, then by name (a pod before a gang of the same name). Without
   * gangs this is exactly the pod-by-pod order of SPEC 11.
   */
  static final Comparator<VictimUnit> EVICTION_ORDER = VictimUnit::compareForEviction;

  /** {@link #EVICTION_ORDER}, written out: it sorts every candidate of every reclaim round. */
  private static int compareForEviction(VictimUnit a, VictimUnit b) {
    if (a.broken != b.broken) {
      return a.broken ? -1 : 1;
    }
    int order = Integer.compare(a.priority, b.priority);
    if (order == 0) {
      order = b.startTime.compareTo(a.startTime);
    }
    if (order == 0) {
      order = b.creationTime.compareTo(a.creationTime);
    }
    if (order == 0) {
      order = a.name.compareTo(b.name);
    }
    if (order == 0) {
      order = Boolean.compare(a.gang.isPresent(), b.gang.isPresent());
    }
    return order;
  }

  VictimUnit {
    members = List.copyOf(members);
    requests = List.copyOf(requests);
    Objects.requireNonNull(request, "request");
    Objects.requireNonNull(gang, "gang");
    Objects.requireNonNull(startTime, "startTime");
    Objects.requireNonNull(creationTime, "creationTime");
    Objects.requireNonNull(name, "name");
    if (members.isEmpty() || members.size() != requests.size()) {
      throw new IllegalArgumentException("a unit needs members, each with its request");
    }
  }

  /** A pod without a gang. */
  static VictimUnit ofPod(QuotaPod pod, ResourceList request) {
    return new VictimUnit(
        List.of(pod),
        List.of(request),
        request,
        Optional.empty(),
        false,
        pod.priority(),
        startOf(pod),
        pod.creationTime(),
        pod.ref());
  }

  /** A pod not started yet counts as the most recently started. */
  static Instant startOf(QuotaPod pod) {
    return pod.startTime().orElse(Instant.MAX);
  }

  /** The victims that evicting this unit makes, least important member first. */
  void addVictims(List<Victim> victims) {
    final Optional<EvictedGang> evictedGang =
        gang.map(key -> new EvictedGang(key.name(), members.size()));
    for (int i = 0; i < members.size(); i++) {
      final QuotaPod pod = members.get(i);
      victims.add(
          new Victim(
              pod.ref(), pod.uid(), pod.priority(), pod.startTime(), requests.get(i), evictedGang));
    }
  }
}
