package io.quotaflow.admission.inflight;

import io.quotaflow.quota.GangKey;
import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.rules.GangAdmission;
import io.quotaflow.rules.InFlight;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;

/**
 * The in-flight holds of one cluster (SPEC 10), kept with running sums per group so that adding,
 * releasing and reading cost a few map operations whatever the number of holds. Not thread-safe:
 * {@link ClusterAdmissions} guards it.
 *
 * <p>A gang (docs/semantics.md section 21) adds two things: its members' holds are counted per
 * gang, and the room of the members still to come is one gang hold, kept beside the pods' holds
 * under {@link GangKey#holdRef()}, that each arriving member takes its part of.
 */
final class HoldBook {

  /** One hold; identity matters (a renewed hold is a new entry). */
  static final class Entry {
    final InFlight.Hold hold;
    final Instant expiresAt;
    // The gang of the pod, or of the gang hold; empty for a pod judged without a gang.
    final Optional<GangKey> gang;
    // For a gang hold: what each member still to come takes of it; empty for a pod's hold.
    final Optional<ResourceList> part;
    boolean seenUsed;

    Entry(InFlight.Hold hold, Instant expiresAt) {
      this(hold, expiresAt, Optional.empty(), Optional.empty());
    }

    Entry(
        InFlight.Hold hold,
        Instant expiresAt,
        Optional<GangKey> gang,
        Optional<ResourceList> part) {
      this.hold = hold;
      this.expiresAt = expiresAt;
      this.gang = gang;
      this.part = part;
    }
  }

  /**
   * Queued entries beyond which the queue is rebuilt from the current ones: a pod renewed every
   * request leaves its earlier entries queued until they expire, up to a time to live's worth of
   * requests (400,000 at 13,000 requests/s and 30 s), which made every add and expiry slower and
   * kept them all alive for the collector.
   */
  private static final int SLACK = 64;

  private final Map<PodRef, Entry> entries = new HashMap<>();
  private final PriorityQueue<Entry> byExpiry =
      new PriorityQueue<>(Comparator.comparing((Entry entry) -> entry.expiresAt));
  private final Map<String, ResourceList> held = new HashMap<>();
  private final Map<String, ResourceList> nonPreemptibleHeld = new HashMap<>();
  private final Map<GangKey, Integer> membersHeld = new HashMap<>();

  /** Keeps {@code hold} until {@code expiresAt}, replacing the pod's earlier one. */
  void add(InFlight.Hold hold, Instant expiresAt) {
    add(new Entry(hold, expiresAt));
  }

  /** The same for a member of {@code gang}. */
  void addMember(InFlight.Hold hold, Instant expiresAt, GangKey gang) {
    add(new Entry(hold, expiresAt, Optional.of(gang), Optional.empty()));
  }

  /**
   * Keeps {@code rest}, the room of {@code gang}'s members still to come, until {@code expiresAt};
   * each member that arrives takes {@code part} of it ({@link #takePart}).
   */
  void addGang(GangKey gang, InFlight.Hold rest, ResourceList part, Instant expiresAt) {
    add(new Entry(rest, expiresAt, Optional.of(gang), Optional.of(part)));
  }

  /**
   * {@code gang}'s hold less one member's part, kept until the same expiry; released when no member
   * is left to come.
   */
  void takePart(GangKey gang) {
    final Optional<Entry> held = gangHold(gang);
    if (held.isEmpty()) {
      return;
    }
    final Entry entry = held.get();
    final Optional<InFlight.Hold> left =
        GangAdmission.lessOneMember(entry.hold, entry.part.orElseThrow());
    if (left.isEmpty()) {
      release(entry.hold.pod());
    } else {
      add(new Entry(left.get(), entry.expiresAt, entry.gang, entry.part));
    }
  }

  /** The hold of {@code gang}'s members still to come, if any. */
  Optional<Entry> gangHold(GangKey gang) {
    return Optional.ofNullable(entries.get(gang.holdRef()));
  }

  /**
   * How many members a gang hold of {@code rest} still keeps room for, each taking {@code part}:
   * the rest is the part times that number ({@link #takePart} subtracts whole parts), so any
   * dimension the part asks gives it; 0 for a part that asks nothing (such a hold keeps nothing).
   */
  static int membersToCome(ResourceList rest, ResourceList part) {
    for (int i = 0; i < part.size(); i++) {
      final long each = part.amountAt(i);
      if (each > 0) {
        final long left = rest.get(part.nameAt(i));
        return (int) Math.min(Integer.MAX_VALUE, (left + each - 1) / each);
      }
    }
    return 0;
  }

  /** How many of {@code gang}'s members hold their request in flight. */
  int membersHeld(GangKey gang) {
    return membersHeld.getOrDefault(gang, 0);
  }

  private void add(Entry entry) {
    final InFlight.Hold hold = entry.hold;
    release(hold.pod());
    entries.put(hold.pod(), entry);
    if (entry.gang.isPresent() && entry.part.isEmpty()) {
      membersHeld.merge(entry.gang.get(), 1, Integer::sum);
    }
    byExpiry.add(entry);
    apply(hold, ResourceList::plus);
    if (byExpiry.size() > 2 * entries.size() + SLACK) {
      // Half the queue is replaced or released entries, which expire() would skip anyway.
      byExpiry.clear();
      byExpiry.addAll(entries.values());
    }
  }

  /** How many entries the expiry queue holds, the current ones and not yet dropped old ones. */
  int queued() {
    return byExpiry.size();
  }

  /** Releases the hold of {@code pod}, if any. */
  void release(PodRef pod) {
    final Entry old = entries.remove(pod);
    if (old != null) {
      apply(old.hold, ResourceList::minus);
      if (old.gang.isPresent() && old.part.isEmpty()) {
        membersHeld.computeIfPresent(old.gang.get(), (gang, n) -> n > 1 ? n - 1 : null);
      }
    }
  }

  /** Releases {@code entry} if it is still the pod's current hold. */
  void release(Entry entry) {
    if (entries.get(entry.hold.pod()) == entry) {
      release(entry.hold.pod());
    }
  }

  /**
   * Releases every hold that expires at or before {@code now}, unless the cluster's inputs, read as
   * of {@code inputsAsOf}, do not reach its expiry yet: its pod may have been created meanwhile
   * without the engine having read it (the connectors or Kafka away), so the room stays held until
   * the inputs pass the hold's expiry. Without markers ({@code inputsAsOf} empty) the time to live
   * alone decides.
   *
   * @return how many holds were released
   */
  int expire(Instant now, Optional<Instant> inputsAsOf) {
    int expired = 0;
    final List<Entry> kept = new ArrayList<>();
    while (!byExpiry.isEmpty() && !byExpiry.peek().expiresAt.isAfter(now)) {
      final Entry entry = byExpiry.poll();
      if (entries.get(entry.hold.pod()) != entry) {
        continue;
      }
      if (inputsAsOf.isPresent() && inputsAsOf.get().isBefore(entry.expiresAt)) {
        kept.add(entry);
        continue;
      }
      release(entry.hold.pod());
      expired++;
    }
    byExpiry.addAll(kept);
    if (entries.isEmpty()) {
      // Released entries stay queued until they expire; an empty book drops them at once.
      byExpiry.clear();
    }
    return expired;
  }

  /** The current entries (a copy). */
  List<Entry> entries() {
    return new ArrayList<>(entries.values());
  }

  int size() {
    return entries.size();
  }

  Optional<Entry> entry(PodRef pod) {
    return Optional.ofNullable(entries.get(pod));
  }

  /**
   * What the core's admission check needs to see of the book for a pod whose group chain is {@code
   * chain}: the sums held at each of those groups, less the hold of {@code excluded} (a pod being
   * checked again must not count against itself).
   */
  InFlight view(Collection<String> chain, Optional<PodRef> excluded) {
    return view(chain, excluded.map(entries::get).map(entry -> entry.hold).stream().toList());
  }

  /**
   * The same less each of {@code less}, at the groups of its chain: the hold of a pod checked
   * again, and the part of a gang's hold a member takes.
   */
  InFlight view(Collection<String> chain, List<InFlight.Hold> less) {
    final List<InFlight.Hold> held = new ArrayList<>(2 * chain.size());
    for (final String group : chain) {
      ResourceList all = this.held.getOrDefault(group, ResourceList.empty());
      ResourceList nonPreemptible = nonPreemptibleHeld.getOrDefault(group, ResourceList.empty());
      for (final InFlight.Hold own : less) {
        if (own.groups().contains(group)) {
          all = all.minus(own.request());
          if (own.nonPreemptible()) {
            nonPreemptible = nonPreemptible.minus(own.request());
          }
        }
      }
      // InFlight sums holds; one synthetic hold per group and kind carries the sum.
      final ResourceList preemptible = all.minus(nonPreemptible);
      if (!preemptible.isEmpty()) {
        held.add(
            new InFlight.Hold(new PodRef("", "held/" + group), List.of(group), preemptible, false));
      }
      if (!nonPreemptible.isEmpty()) {
        held.add(
            new InFlight.Hold(
                new PodRef("", "held-non-preemptible/" + group),
                List.of(group),
                nonPreemptible,
                true));
      }
    }
    return InFlight.of(held);
  }

  /** What all holds keep at {@code group}. */
  ResourceList heldAt(String group) {
    return held.getOrDefault(group, ResourceList.empty());
  }

  private void apply(
      InFlight.Hold hold, java.util.function.BinaryOperator<ResourceList> operation) {
    for (final String group : hold.groups()) {
      update(held, group, hold.request(), operation);
      if (hold.nonPreemptible()) {
        update(nonPreemptibleHeld, group, hold.request(), operation);
      }
    }
  }

  private static void update(
      Map<String, ResourceList> sums,
      String group,
      ResourceList amount,
      java.util.function.BinaryOperator<ResourceList> operation) {
    final ResourceList result =
        operation.apply(sums.getOrDefault(group, ResourceList.empty()), amount);
    if (allZero(result)) {
      sums.remove(group);
    } else {
      sums.put(group, result);
    }
  }

  private static boolean allZero(ResourceList list) {
    for (int i = 0; i < list.size(); i++) {
      if (list.amountAt(i) != 0) {
        return false;
      }
    }
    return true;
  }
}
