package io.quotaflow.admission.http.reservation;

import io.quotaflow.admission.AdmissionCheck;
import io.quotaflow.admission.AdmissionDecision;
import io.quotaflow.admission.AdmissionRequest;
import io.quotaflow.admission.GroupLookup;
import io.quotaflow.admission.InFlight;
import io.quotaflow.admission.http.state.ClusterView;
import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.tree.GroupStatus;
import io.quotaflow.tree.PodAssignment;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The admission decisions of one cluster, made one at a time against its reservations, so that
 * concurrent requests cannot both take the same room (SPEC 10). A granted admission is held until
 * the pod is seen as used in the cluster's state (bound to a node) or its time to live passes.
 * Thread-safe.
 */
public final class ClusterAdmissions {

  private final String cluster;
  private final Duration ttl;
  private final ReentrantLock lock = new ReentrantLock();
  private final ReservationBook book = new ReservationBook();

  /** The admissions of {@code cluster}, each reservation held at most {@code ttl}. */
  public ClusterAdmissions(String cluster, Duration ttl) {
    this.cluster = cluster;
    this.ttl = ttl;
  }

  public String cluster() {
    return cluster;
  }

  /**
   * Decides {@code request} against {@code groups} and the reservations; when allowed and {@code
   * hold} is set, reserves the pod's request until {@code now + ttl}.
   *
   * @param recheck true when the pod was admitted before and is checked again (the scheduler
   *     filter): its own reservation does not count against it, and is renewed when it still fits
   */
  public AdmissionDecision decide(
      AdmissionRequest request, GroupLookup groups, Instant now, boolean hold, boolean recheck) {
    final GroupLookup memo = memoized(groups);
    final List<String> chain = chain(request.group(), memo);
    lock.lock();
    try {
      book.expire(now);
      final InFlight inFlight =
          book.view(chain, recheck ? Optional.of(request.pod()) : Optional.empty());
      final AdmissionDecision decision = AdmissionCheck.check(request, memo, inFlight);
      if (hold && decision.reservation().isPresent()) {
        book.add(decision.reservation().get(), now.plus(ttl));
      }
      return decision;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Compares the reservations with the cluster's state: a reservation whose pod has been seen as
   * used (bound, so counted in its groups' used) in two sweeps in a row is released, because the
   * store of pods and the store of group totals are updated one after the other; expired ones are
   * released too.
   *
   * @return how many reservations are still held
   */
  public int sweep(ClusterView view, Instant now) {
    final List<ReservationBook.Entry> entries;
    lock.lock();
    try {
      book.expire(now);
      entries = book.entries();
    } finally {
      lock.unlock();
    }
    // One read of each group's pods per sweep, however many reservations the group has.
    final Map<String, Set<PodRef>> boundByGroup = new HashMap<>();
    final List<ReservationBook.Entry> used = new ArrayList<>();
    for (final ReservationBook.Entry entry : entries) {
      final InFlight.Reservation reservation = entry.reservation;
      final Set<PodRef> bound =
          boundByGroup.computeIfAbsent(reservation.groups().get(0), group -> bound(view, group));
      if (bound.contains(reservation.pod())) {
        used.add(entry);
      }
    }
    lock.lock();
    try {
      for (final ReservationBook.Entry entry : used) {
        if (entry.seenUsed) {
          book.release(entry);
        } else {
          entry.seenUsed = true;
        }
      }
      return book.size();
    } finally {
      lock.unlock();
    }
  }

  /** Releases the reservation of {@code pod}, if any. */
  public void release(PodRef pod) {
    lock.lock();
    try {
      book.release(pod);
    } finally {
      lock.unlock();
    }
  }

  /** How many reservations are held. */
  public int held() {
    lock.lock();
    try {
      return book.size();
    } finally {
      lock.unlock();
    }
  }

  /** Whether {@code pod} holds a reservation. */
  public boolean holds(PodRef pod) {
    lock.lock();
    try {
      return book.entry(pod).isPresent();
    } finally {
      lock.unlock();
    }
  }

  /** The pods of {@code group} bound to a node (they have an over-quota class). */
  private static Set<PodRef> bound(ClusterView view, String group) {
    final Set<PodRef> bound = new HashSet<>();
    for (final PodAssignment pod : view.podsOf(group)) {
      if (pod.podClass().isPresent()) {
        bound.add(pod.ref());
      }
    }
    return bound;
  }

  /** The pod's group and its ancestors below the root, as the check walks them. */
  private static List<String> chain(String group, GroupLookup groups) {
    final List<String> chain = new ArrayList<>();
    final Set<String> seen = new HashSet<>();
    String name = group;
    while (!SpecialGroups.ROOT.equals(name) && !name.isEmpty() && seen.add(name)) {
      final Optional<GroupStatus> status = groups.find(name);
      if (status.isEmpty()) {
        break;
      }
      chain.add(name);
      name = status.get().parent();
    }
    return chain;
  }

  /** Each group read once per decision, however often the walk and the check ask for it. */
  private static GroupLookup memoized(GroupLookup groups) {
    final Map<String, Optional<GroupStatus>> seen = new HashMap<>();
    return name -> seen.computeIfAbsent(name, groups::find);
  }
}
