package io.quotaflow.admission.inflight;

import io.quotaflow.admission.state.ClusterView;
import io.quotaflow.quota.Gang;
import io.quotaflow.quota.GangKey;
import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.rules.AdmissionCheck;
import io.quotaflow.rules.AdmissionDecision;
import io.quotaflow.rules.AdmissionRequest;
import io.quotaflow.rules.GangAdmission;
import io.quotaflow.rules.InFlight;
import io.quotaflow.tree.PodAssignment;
import io.quotaflow.tree.QuotaOptions;
import io.quotaflow.tree.WhatIfInputs;
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
import java.util.function.Supplier;

/**
 * The admission decisions of one cluster, made one at a time against its in-flight holds, so that
 * concurrent requests cannot both take the same room (SPEC 10). A granted admission is held in
 * flight until the pod is seen as used in the cluster's state (bound to a node) or its time to live
 * passes. Thread-safe.
 *
 * <p>A pod of a gang whose minMember is known and above one is judged with its gang
 * (docs/semantics.md section 21): the gang's first member only if the whole gang fits, the room of
 * the others then held as one gang hold that each later member takes its part of.
 */
public final class ClusterAdmissions {

  /** How long a gang's hold waits for its members by default ({@code admission.gang.hold.ttl}). */
  public static final Duration DEFAULT_GANG_HOLD_TTL = Duration.ofSeconds(60);

  private final String cluster;
  private final Duration ttl;
  private final Duration gangTtl;
  private final ReentrantLock lock = new ReentrantLock();
  private final HoldBook book = new HoldBook();
  // How far the engine had read the cluster's inputs at the last sweep (see HoldBook#expire).
  private volatile Optional<Instant> inputsAsOf = Optional.empty();
  // When this instance last decided for the cluster (issue 40.10, see InFlightHolds#sweep).
  private volatile Instant lastDecided = Instant.EPOCH;

  /** The admissions of {@code cluster}, each held in flight at most {@code ttl}. */
  public ClusterAdmissions(String cluster, Duration ttl) {
    this(cluster, ttl, DEFAULT_GANG_HOLD_TTL);
  }

  /**
   * The admissions of {@code cluster}, each pod's held in flight at most {@code ttl}, the room of a
   * gang's members still to come at most {@code gangTtl}.
   */
  public ClusterAdmissions(String cluster, Duration ttl, Duration gangTtl) {
    this.cluster = cluster;
    this.ttl = ttl;
    this.gangTtl = gangTtl;
  }

  public String cluster() {
    return cluster;
  }

  /** How long a pod's hold is kept at most. */
  Duration ttl() {
    return ttl;
  }

  /** Why a pod is checked, which decides what its check counts. */
  public enum Occasion {
    /**
     * The pod webhook at pod creation: the pod is counted nowhere yet, so it is checked against the
     * runtimes its group and ancestors would have with it (a what-if); an admitted pod's request is
     * held in flight.
     */
    CREATE(true, false),
    /** The same check for a dry run: nothing is held. */
    DRY_RUN(false, false),
    /**
     * The scheduler filter: the pod may have been admitted before, so its own hold does not count
     * against it, and is renewed when it still fits; the pod is added to its group's request only
     * when the state does not list it yet.
     */
    SCHEDULE(true, true),
    /**
     * The scheduler filter's check for a caller who may hold nothing (issue 39.7): as {@link
     * #SCHEDULE}, but nothing is held or renewed.
     */
    SCHEDULE_UNHELD(false, true);

    private final boolean hold;
    private final boolean recheck;

    Occasion(boolean hold, boolean recheck) {
      this.hold = hold;
      this.recheck = recheck;
    }

    /** This check without holding anything: the same question, asked for an answer only. */
    public Occasion unheld() {
      return recheck ? SCHEDULE_UNHELD : DRY_RUN;
    }
  }

  /**
   * Decides {@code request} against {@code view} and the in-flight holds; when allowed and the
   * occasion holds, holds the pod's request in flight until {@code now + ttl}.
   *
   * @param options the options the state was computed with (min scaling)
   */
  public AdmissionDecision decide(
      AdmissionRequest request,
      ClusterView view,
      QuotaOptions options,
      Instant now,
      Occasion occasion) {
    return decide(request, Optional.empty(), view, options, now, occasion);
  }

  /**
   * {@link #decide(AdmissionRequest, ClusterView, QuotaOptions, Instant, Occasion)} for a pod of
   * {@code gang}: judged with its gang when the gang's minMember is known and above one, alone
   * otherwise.
   */
  public AdmissionDecision decide(
      AdmissionRequest request,
      Optional<Gang> gang,
      ClusterView view,
      QuotaOptions options,
      Instant now,
      Occasion occasion) {
    lastDecided = now;
    return decide(request, gang, view, options, now, occasion, now.plus(ttl));
  }

  /** When this instance last decided a pod of the cluster; the epoch if never. */
  public Instant lastDecided() {
    return lastDecided;
  }

  /** {@link #decide} with the hold kept until {@code holdUntil} (see {@link PendingAdoption}). */
  AdmissionDecision decide(
      AdmissionRequest request,
      Optional<Gang> gang,
      ClusterView view,
      QuotaOptions options,
      Instant now,
      Occasion occasion,
      Instant holdUntil) {
    final Optional<Gang> judgedWith =
        gang.filter(each -> each.minMember().orElse(0) > 1)
            .filter(each -> request.problem().isEmpty());
    return judgedWith.isPresent()
        ? decideMember(request, judgedWith.get(), view, options, now, occasion, holdUntil)
        : decideAlone(request, view, options, now, occasion, holdUntil);
  }

  private AdmissionCheck.PodState podState(
      AdmissionRequest request, ClusterView view, Occasion occasion) {
    return occasion.recheck && view.pod(request.group(), request.pod()).isPresent()
        ? AdmissionCheck.PodState.COUNTED
        : AdmissionCheck.PodState.NEW;
  }

  /**
   * A pod of a gang (docs/semantics.md section 21). While the gang's hold stands at the pod's
   * group, a pod that holds nothing yet takes its part of it. With no other member held in flight,
   * no gang hold and none bound, the pod is the gang's first member: also when it holds its own
   * request already and the scheduler filter places it again, for that hold may have been granted
   * before the gang was known (judged alone) or have outlived the gang's hold; judged alone on its
   * own hold, one early answer would stand for every later one. Otherwise, as a member beyond the
   * gang's room, it is judged alone.
   */
  private AdmissionDecision decideMember(
      AdmissionRequest request,
      Gang gang,
      ClusterView view,
      QuotaOptions options,
      Instant now,
      Occasion occasion,
      Instant holdUntil) {
    final GangKey key = GangKey.of(request.pod().namespace(), gang);
    final WhatIfInputs state = WhatIfReads.of(view);
    final List<String> chain = WhatIfReads.chain(request.group(), state::status);
    WhatIfReads.prefetch(state, request.group(), chain);
    final AdmissionCheck.PodState pod = podState(request, view, occasion);
    final Optional<PodRef> excluded =
        occasion.recheck ? Optional.of(request.pod()) : Optional.empty();
    // The state's members cost a read of the group's pods: outside the lock, and only when the
    // book knows nothing of the gang (then read under it only if that changed in between).
    final boolean known =
        underLock(
            () ->
                book.gangHold(key).isPresent()
                    || book.membersHeld(key) > 0
                    || book.entry(request.pod()).isPresent());
    final Optional<GangMembers> read =
        known ? Optional.empty() : Optional.of(GangMembers.of(view, request.group(), key));
    lock.lock();
    try {
      book.expire(now, this.inputsAsOf);
      final Optional<HoldBook.Entry> own = book.entry(request.pod());
      final boolean ownHeld = own.isPresent();
      final boolean ownIsMember = own.flatMap(entry -> entry.gang).filter(key::equals).isPresent();
      final int othersHeld = book.membersHeld(key) - (ownIsMember ? 1 : 0);
      final Optional<HoldBook.Entry> gangHold = book.gangHold(key);
      Optional<AdmissionDecision> withGang = Optional.empty();
      if (!ownHeld && gangHold.isPresent() && gangHold.get().hold.groups().equals(chain)) {
        final InFlight.Hold held = gangHold.get().hold;
        final InFlight.Hold part =
            new InFlight.Hold(
                held.pod(),
                held.groups(),
                gangHold.get().part.orElseThrow(),
                held.nonPreemptible());
        withGang =
            Optional.of(
                AdmissionCheck.check(
                    request, state, book.view(chain, List.of(part)), pod, options));
        if (occasion.hold && withGang.get().allowed()) {
          book.takePart(key);
        }
      } else if ((!ownHeld || occasion.recheck) && gangHold.isEmpty() && othersHeld == 0) {
        final GangMembers members =
            read.orElseGet(() -> GangMembers.of(view, request.group(), key));
        if (members.bound() == 0) {
          final GangAdmission.FirstMember first =
              GangAdmission.first(
                  request, gang, members.listed(), state, book.view(chain, excluded), options);
          if (occasion.hold && first.rest().isPresent()) {
            book.addGang(key, first.rest().get(), request.request(), now.plus(gangTtl));
          }
          withGang = Optional.of(first.decision());
        }
      }
      final AdmissionDecision decision =
          withGang.orElseGet(
              () -> AdmissionCheck.check(request, state, book.view(chain, excluded), pod, options));
      if (occasion.hold && decision.hold().isPresent()) {
        book.addMember(decision.hold().get(), holdUntil, key);
      }
      return decision;
    } finally {
      lock.unlock();
    }
  }

  private AdmissionDecision decideAlone(
      AdmissionRequest request,
      ClusterView view,
      QuotaOptions options,
      Instant now,
      Occasion occasion,
      Instant holdUntil) {
    final WhatIfInputs state = WhatIfReads.of(view);
    final List<String> chain = WhatIfReads.chain(request.group(), state::status);
    WhatIfReads.prefetch(state, request.group(), chain);
    final AdmissionCheck.PodState pod = podState(request, view, occasion);
    final Optional<PodRef> excluded =
        occasion.recheck ? Optional.of(request.pod()) : Optional.empty();
    // The what-if, most of a check, reads the book only as the sum held at the pod's group: it is
    // computed before the lock that every request of the cluster waits for, and again under it only
    // if an admission changed that sum in between.
    final ResourceList heldBefore;
    lock.lock();
    try {
      heldBefore = book.view(List.of(request.group()), excluded).at(request.group());
    } finally {
      lock.unlock();
    }
    final AdmissionCheck.WhatIf ahead =
        AdmissionCheck.whatIf(request, state, heldBefore, pod, options);
    lock.lock();
    try {
      book.expire(now, this.inputsAsOf);
      final InFlight inFlight = book.view(chain, excluded);
      final AdmissionDecision decision =
          AdmissionCheck.check(request, state, inFlight, pod, options, ahead);
      if (occasion.hold && decision.hold().isPresent()) {
        book.add(decision.hold().get(), holdUntil);
      }
      return decision;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Compares the in-flight holds with the cluster's state: a hold whose pod has been seen as used
   * (bound, so counted in its groups' used) in two sweeps in a row is released, because the store
   * of pods and the store of group totals are updated one after the other; expired ones are
   * released too.
   *
   * @return how many holds are still kept
   */
  public int sweep(ClusterView view, Instant now) {
    final Optional<Instant> inputsAsOf;
    final List<HoldBook.Entry> entries;
    // Read once per sweep (a store read), not per request: requests use the last one read.
    inputsAsOf = view.inputsAsOf();
    this.inputsAsOf = inputsAsOf;
    lock.lock();
    try {
      book.expire(now, inputsAsOf);
      entries = book.entries();
    } finally {
      lock.unlock();
    }
    // One read of each group's pods per sweep, however many holds the group has.
    final Map<String, Set<PodRef>> boundByGroup = new HashMap<>();
    final List<HoldBook.Entry> used = new ArrayList<>();
    for (final HoldBook.Entry entry : entries) {
      final InFlight.Hold hold = entry.hold;
      final Set<PodRef> bound =
          boundByGroup.computeIfAbsent(hold.groups().get(0), group -> bound(view, group));
      if (bound.contains(hold.pod())) {
        used.add(entry);
      }
    }
    lock.lock();
    try {
      for (final HoldBook.Entry entry : used) {
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

  /**
   * Releases the holds whose time to live has passed, for a sweep that cannot read the cluster's
   * state. The time to live alone decides: a cluster that is gone never reads again, so the inputs'
   * last position would keep its holds for good.
   *
   * @return how many holds are still kept
   */
  public int expire(Instant now) {
    return underLock(
        () -> {
          book.expire(now, Optional.empty());
          return book.size();
        });
  }

  /** Releases the hold of {@code pod}, if any. */
  public void release(PodRef pod) {
    underLock(
        () -> {
          book.release(pod);
          return null;
        });
  }

  /**
   * One in-flight hold as the web view shows it.
   *
   * @param pod the admitted pod
   * @param groups its group, then each ancestor the request is held at
   * @param request what is held
   * @param expiresAt when it is released at the latest
   */
  public record Held(PodRef pod, List<String> groups, ResourceList request, Instant expiresAt) {}

  /** The holds kept at {@code group} (its own pods' and its descendants'), by pod. */
  public List<Held> heldAt(String group) {
    return underLock(
        () ->
            book.entries().stream()
                .filter(entry -> entry.hold.groups().contains(group))
                .map(
                    entry ->
                        new Held(
                            entry.hold.pod(),
                            entry.hold.groups(),
                            entry.hold.request(),
                            entry.expiresAt))
                .sorted(java.util.Comparator.comparing(Held::pod))
                .toList());
  }

  /**
   * The room a gang's hold keeps for its members still to come, as the query API and the web view
   * show it (docs/semantics.md 21.4).
   *
   * @param membersToCome how many members may still take their part of it
   * @param request what is held for them, at the group and each ancestor below the root
   * @param expiresAt when it is released at the latest
   */
  public record GangHeld(int membersToCome, ResourceList request, Instant expiresAt) {}

  /** The gang holds kept for gangs whose members go to {@code group} itself, by gang. */
  public Map<GangKey, GangHeld> gangsHeldAt(String group) {
    return underLock(
        () -> {
          final Map<GangKey, GangHeld> gangs = new HashMap<>();
          for (final HoldBook.Entry entry : book.entries()) {
            if (entry.part.isPresent()
                && entry.gang.isPresent()
                && entry.hold.groups().get(0).equals(group)) {
              gangs.put(
                  entry.gang.get(),
                  new GangHeld(
                      HoldBook.membersToCome(entry.hold.request(), entry.part.get()),
                      entry.hold.request(),
                      entry.expiresAt));
            }
          }
          return gangs;
        });
  }

  /** How far the engine had read the cluster's inputs at the last sweep; empty without markers. */
  public Optional<Instant> inputsAsOf() {
    return inputsAsOf;
  }

  /** How many holds are kept. */
  public int held() {
    return underLock(book::size);
  }

  /** Whether {@code pod}'s request is held in flight. */
  public boolean holds(PodRef pod) {
    return underLock(() -> book.entry(pod).isPresent());
  }

  /** What {@code read} returns, read while holding the book's lock. */
  private <T> T underLock(Supplier<T> read) {
    lock.lock();
    try {
      return read.get();
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
}
