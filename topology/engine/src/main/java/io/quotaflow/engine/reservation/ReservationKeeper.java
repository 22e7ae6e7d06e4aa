package io.quotaflow.engine.reservation;

import io.quotaflow.engine.convert.InputRecords;
import io.quotaflow.engine.convert.ReservationRecords;
import io.quotaflow.engine.metrics.EngineMetrics;
import io.quotaflow.engine.reclaim.Reclaimer;
import io.quotaflow.engine.store.GroupId;
import io.quotaflow.engine.store.InputId;
import io.quotaflow.engine.store.KeyPrefixes;
import io.quotaflow.engine.store.PodId;
import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.reservation.ClusterReservations;
import io.quotaflow.reservation.Intruder;
import io.quotaflow.reservation.ReservationStatus;
import io.quotaflow.schemas.GroupReservation;
import io.quotaflow.schemas.NodeState;
import io.quotaflow.schemas.QuotaSpec;
import io.quotaflow.tree.ClusterInputs;
import io.quotaflow.tree.ClusterQuotaState;
import io.quotaflow.tree.PodAssignment;
import io.quotaflow.tree.QuotaOptions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node reservations of the clusters of one task (docs/semantics.md section 14): the engine's
 * shell around the core's {@link ClusterReservations}. It follows the inputs of the clusters that
 * have a reservation (a cluster without one costs nothing but a look at its quota events), plans
 * their locks after each recomputation (again on node and quota events and on every relock, only
 * the idle amounts on pod events), keeps each reserving group's state in the {@code reservations}
 * store, and evicts, through the {@link Reclaimer}, the pods of other groups that stay on a node a
 * Guaranteed reservation locks for the revoke delay ({@code reservation-intruders-since}).
 *
 * <p>Rebuilt from the stores when the task starts: the locks and their ages come back, so a restart
 * neither moves a lock nor reorders the reservations. Owned by one stream thread.
 */
public final class ReservationKeeper {
  private static final Logger LOG = LoggerFactory.getLogger(ReservationKeeper.class);

  private final KeyValueStore<GroupId, GroupReservation> store;
  private final KeyValueStore<PodId, Long> intrudersSince;
  private final QuotaOptions options;
  private final Duration revokeDelay;
  private final EngineMetrics metrics;
  private final Map<String, Cluster> clusters = new HashMap<>();

  /** One cluster's reservations and what the stores hold of them. */
  private static final class Cluster {
    final ClusterReservations reservations;
    final Map<String, GroupReservation> records = new TreeMap<>();
    final Map<PodRef, Long> intruderSince = new HashMap<>();
    boolean replan = true;
    boolean refresh;

    Cluster(final ClusterReservations reservations) {
      this.reservations = reservations;
    }
  }

  /**
   * @param store the reservations store
   * @param intrudersSince the reservation-intruders-since store
   * @param options the quota options (derived resources, counted nodes, the locked-share cap)
   * @param revokeDelay how long a pod of another group may stay on a Guaranteed lock
   * @param metrics where plan times go
   */
  public ReservationKeeper(
      final KeyValueStore<GroupId, GroupReservation> store,
      final KeyValueStore<PodId, Long> intrudersSince,
      final QuotaOptions options,
      final Duration revokeDelay,
      final EngineMetrics metrics) {
    this.store = Objects.requireNonNull(store, "store");
    this.intrudersSince = Objects.requireNonNull(intrudersSince, "intrudersSince");
    this.options = Objects.requireNonNull(options, "options");
    this.revokeDelay = Objects.requireNonNull(revokeDelay, "revokeDelay");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
  }

  /**
   * Takes up a cluster rebuilt from the stores: if one of its groups carries a reservation, or the
   * store still holds one, its reservations are followed from here, with their locks and ages.
   */
  public void restore(
      final String cluster, final ClusterQuotaState state, final Collection<QuotaGroup> groups) {
    final Map<String, GroupReservation> stored = new TreeMap<>();
    try (KeyValueIterator<GroupId, GroupReservation> scan =
        store.prefixScan(cluster, KeyPrefixes.cluster())) {
      scan.forEachRemaining(entry -> stored.put(entry.key.name(), entry.value));
    }
    if (stored.isEmpty() && groups.stream().noneMatch(group -> group.reservation().isPresent())) {
      return;
    }
    final Cluster held = activate(cluster, state);
    stored.forEach(
        (group, record) -> {
          held.records.put(group, record);
          held.reservations.restore(group, ReservationRecords.status(record));
        });
    try (KeyValueIterator<PodId, Long> scan =
        intrudersSince.prefixScan(cluster, KeyPrefixes.cluster())) {
      scan.forEachRemaining(entry -> held.intruderSince.put(entry.key.ref(), entry.value));
    }
  }

  /** Forgets every cluster (the task starts over from its stores). */
  public void clear() {
    clusters.clear();
  }

  /**
   * Follows one input event, already applied to {@code state}: a cluster starts being followed when
   * one of its groups gets a reservation.
   */
  public void inputChanged(
      final String cluster, final ClusterQuotaState state, final InputId id, final Object value) {
    Cluster held = clusters.get(cluster);
    if (held == null) {
      if (id.kind() == InputId.InputKind.QUOTA
          && value instanceof QuotaSpec spec
          && spec.getReservation().isPresent()) {
        activate(cluster, state);
      }
      return;
    }
    switch (id.kind()) {
      case POD -> {
        final PodRef ref = new PodRef(id.namespace(), id.name());
        final Optional<io.quotaflow.quota.QuotaPod> pod =
            value == null ? Optional.empty() : state.podInput(ref);
        if (pod.isPresent()) {
          held.reservations.putPod(pod.get());
        } else {
          held.reservations.removePod(ref);
        }
        held.refresh = true;
      }
      case QUOTA -> {
        if (value instanceof QuotaSpec spec) {
          held.reservations.putGroup(InputRecords.group(id.name(), spec));
        } else {
          held.reservations.removeGroup(id.name());
        }
        held.replan = true;
      }
      case NODE -> {
        if (value instanceof NodeState node) {
          held.reservations.putNode(InputRecords.node(id.name(), node));
        } else {
          held.reservations.removeNode(id.name());
        }
        held.replan = true;
      }
    }
  }

  /** The clusters whose reservations are followed, by name. */
  public Set<String> clusters() {
    return new TreeSet<>(clusters.keySet());
  }

  /** Plans {@code cluster}'s locks again at its next recomputation (the relock). */
  public void relock(final String cluster) {
    final Cluster held = clusters.get(cluster);
    if (held != null) {
      held.replan = true;
    }
  }

  /**
   * After {@code cluster}'s recomputation: plans its reservations when due, writes what changed to
   * the store and returns it, by group: the new state, or null for a reservation that is gone.
   */
  public Map<String, GroupReservation> afterRecompute(
      final String cluster, final ClusterQuotaState state, final Instant now) {
    final Cluster held = clusters.get(cluster);
    if (held == null || !(held.replan || held.refresh)) {
      return Map.of();
    }
    final boolean full = held.replan;
    final long started = System.nanoTime();
    final Map<String, ReservationStatus> statuses =
        full
            ? held.reservations.plan(
                now.toEpochMilli(), pod -> groupOf(state, pod), group -> problemOf(state, group))
            : held.reservations.refreshIdle(pod -> groupOf(state, pod));
    metrics.reservationsPlanned(full, Duration.ofNanos(System.nanoTime() - started));
    held.replan = false;
    held.refresh = false;

    final Map<String, GroupReservation> changed = new LinkedHashMap<>();
    final Set<String> gone = new HashSet<>(held.records.keySet());
    statuses.forEach(
        (group, status) -> {
          gone.remove(group);
          final GroupReservation record = ReservationRecords.record(status);
          final GroupReservation before = held.records.get(group);
          if (!record.equals(before)) {
            changed.put(group, record);
            held.records.put(group, record);
            store.put(new GroupId(cluster, group), record);
          }
          // Logged when the lock changes, not when only its idle amounts (pod events) do.
          if (before == null || !sameLock(before, record)) {
            LOG.info(
                "Cluster {}: reservation of {} {}",
                cluster,
                group,
                status.satisfied()
                    ? "locks " + status.nodes()
                    : "locks nothing: " + status.reason().orElse(""));
          }
        });
    for (final String group : gone) {
      changed.put(group, null);
      held.records.remove(group);
      store.delete(new GroupId(cluster, group));
      LOG.info("Cluster {}: group {} no longer reserves nodes", cluster, group);
    }
    if (!held.reservations.hasReservations() && held.records.isEmpty()) {
      // Nothing left to follow: drop the pod index, and the clocks with it.
      held.intruderSince.keySet().forEach(ref -> intrudersSince.delete(PodId.of(cluster, ref)));
      clusters.remove(cluster);
    }
    return changed;
  }

  /** The state of {@code group}'s reservation as last written, or null when it has none. */
  public GroupReservation record(final String cluster, final String group) {
    final Cluster held = clusters.get(cluster);
    return held == null ? null : held.records.get(group);
  }

  /**
   * The reclaim check of Guaranteed reservations at {@code now}: starts the clock of a pod of
   * another group newly found on a locked node, stops it once the pod is no longer there (gone,
   * finished, moved, or the node unlocked), and has {@code reclaimer} evict a pod whose clock has
   * run for the revoke delay.
   */
  public void reclaim(
      final String cluster,
      final ClusterQuotaState state,
      final Instant now,
      final Reclaimer reclaimer) {
    final Cluster held = clusters.get(cluster);
    if (held == null) {
      return;
    }
    final List<Intruder> intruders =
        held.reservations.intruders(pod -> groupOf(state, pod), group -> problemOf(state, group));
    final Set<PodRef> present = new HashSet<>();
    intruders.forEach(intruder -> present.add(intruder.pod()));
    for (final PodRef ref : new ArrayList<>(held.intruderSince.keySet())) {
      if (!present.contains(ref)) {
        held.intruderSince.remove(ref);
        intrudersSince.delete(PodId.of(cluster, ref));
      }
    }
    for (final Intruder intruder : intruders) {
      final Long since = held.intruderSince.get(intruder.pod());
      if (since == null) {
        held.intruderSince.put(intruder.pod(), now.toEpochMilli());
        intrudersSince.put(PodId.of(cluster, intruder.pod()), now.toEpochMilli());
        LOG.info(
            "Cluster {}: pod {} of group {} runs on node {}, locked by the Guaranteed reservation"
                + " of {}; evicted after {} s unless it leaves",
            cluster,
            intruder.pod(),
            intruder.group(),
            intruder.node(),
            intruder.reservingGroup(),
            revokeDelay.toSeconds());
        continue;
      }
      final Duration there = Duration.ofMillis(now.toEpochMilli() - since);
      if (there.compareTo(revokeDelay) >= 0) {
        reclaimer.evictIntruder(cluster, intruder, state.group(intruder.group()), there, now);
      }
    }
  }

  private Cluster activate(final String cluster, final ClusterQuotaState state) {
    final ClusterReservations reservations = new ClusterReservations(options);
    final ClusterInputs inputs = state.inputs();
    inputs.nodes().forEach(reservations::putNode);
    inputs.groups().forEach(reservations::putGroup);
    inputs.pods().forEach(reservations::putPod);
    final Cluster held = new Cluster(reservations);
    clusters.put(cluster, held);
    LOG.info("Cluster {}: following node reservations", cluster);
    return held;
  }

  /** The group a pod is charged to; none for a pod resolving to a parent group. */
  private static Optional<String> groupOf(final ClusterQuotaState state, final PodRef pod) {
    return state.pod(pod).filter(a -> a.problem().isEmpty()).map(PodAssignment::group);
  }

  private static Optional<String> problemOf(final ClusterQuotaState state, final String group) {
    return state
        .group(group)
        .filter(status -> !status.valid())
        .map(status -> status.reason().orElse("invalid"));
  }

  /** Whether two states lock the same nodes for the same reason. */
  private static boolean sameLock(final GroupReservation a, final GroupReservation b) {
    return a.getNodes().equals(b.getNodes())
        && a.getSatisfied() == b.getSatisfied()
        && a.getValid() == b.getValid()
        && Objects.equals(a.getReason(), b.getReason());
  }
}
