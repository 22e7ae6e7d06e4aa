package io.quotaflow.reservation;

import io.quotaflow.dra.DeviceSupply;
import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.QuotaNode;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ReservationPolicy;
import io.quotaflow.quota.ReservationSpec;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.tree.PodAccounting;
import io.quotaflow.tree.QuotaOptions;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The reservations of one cluster, updated event by event: its nodes, the groups that carry a
 * reservation, the unfinished pods bound to each node, and the last plan. {@link #plan} chooses the
 * locks again ({@link ReservationPlanner}: kept while good, new ones oldest first); {@link
 * #refreshIdle} only brings the idle amounts of the locks up to date (what pod events change: they
 * never change which nodes can cover a target). The core has no clock: the caller passes the time,
 * which dates a new target for the age order.
 *
 * <p>One instance per cluster, owned by one thread; not thread-safe. Deterministic.
 */
public final class ClusterReservations {

  /** The group each pod is charged to, as the quota tree resolved it (SPEC 4). */
  @FunctionalInterface
  public interface PodGroups {
    Optional<String> groupOf(PodRef pod);
  }

  /** Why a group is invalid (SPEC 9); empty for a valid group. */
  @FunctionalInterface
  public interface GroupProblems {
    Optional<String> problemOf(String group);
  }

  private final QuotaOptions options;
  private final int maxLockedPercent;
  private final NodeChooser chooser;
  private final Map<String, QuotaNode> nodes = new TreeMap<>();
  private final Map<String, QuotaGroup> reserving = new TreeMap<>();
  private final Map<String, Map<PodRef, QuotaPod>> podsByNode = new HashMap<>();
  private final Map<PodRef, String> nodeOfPod = new HashMap<>();
  private final Map<String, ReservationStatus> statuses = new TreeMap<>();
  // The spec each status was planned for: a new target dates the reservation anew.
  private final Map<String, ReservationSpec> planned = new HashMap<>();

  /**
   * @param options the quota options: derived resources, which nodes count, and the locked-share
   *     cap ({@link QuotaOptions#reservationMaxLockedPercent()})
   */
  public ClusterReservations(QuotaOptions options) {
    this(options, LockChooser::choose);
  }

  /** With another way of choosing nodes (the benchmarks' peer). */
  public ClusterReservations(QuotaOptions options, NodeChooser chooser) {
    this.options = Objects.requireNonNull(options, "options");
    this.maxLockedPercent = options.reservationMaxLockedPercent();
    this.chooser = Objects.requireNonNull(chooser, "chooser");
  }

  // ---------------------------------------------------------------------------------------------
  // Inputs

  public void putNode(QuotaNode node) {
    // Devices of slices bound to no single node are no node a reservation could hold.
    if (!DeviceSupply.isUnboundNode(node.name())) {
      nodes.put(node.name(), node);
    }
  }

  public void removeNode(String name) {
    nodes.remove(name);
  }

  /** Adds or replaces a group; only one with a reservation is kept. */
  public void putGroup(QuotaGroup group) {
    if (group.reservation().isPresent() && !SpecialGroups.ROOT.equals(group.name())) {
      reserving.put(group.name(), group);
    } else {
      reserving.remove(group.name());
    }
  }

  public void removeGroup(String name) {
    reserving.remove(name);
  }

  /** Adds or replaces a pod; it counts on its node while bound and not finished. */
  public void putPod(QuotaPod pod) {
    removePod(pod.ref());
    if (pod.nodeName().isPresent() && !pod.phase().isFinished()) {
      final String node = pod.nodeName().get();
      podsByNode.computeIfAbsent(node, n -> new HashMap<>()).put(pod.ref(), pod);
      nodeOfPod.put(pod.ref(), node);
    }
  }

  public void removePod(PodRef ref) {
    final String node = nodeOfPod.remove(ref);
    if (node != null) {
      final Map<PodRef, QuotaPod> pods = podsByNode.get(node);
      pods.remove(ref);
      if (pods.isEmpty()) {
        podsByNode.remove(node);
      }
    }
  }

  /**
   * Takes a status planned before (read back from a store after a restart): its lock is kept by the
   * next plan while good, and its age stands for the group's current target.
   */
  public void restore(String group, ReservationStatus status) {
    statuses.put(group, status);
    planned.remove(group);
  }

  // ---------------------------------------------------------------------------------------------
  // Queries and plans

  /** Whether some group carries a reservation (or a status of one is still held). */
  public boolean hasReservations() {
    return !reserving.isEmpty() || !statuses.isEmpty();
  }

  /** The last plan's statuses, by group name. */
  public Map<String, ReservationStatus> statuses() {
    return Collections.unmodifiableMap(statuses);
  }

  /**
   * Plans every lock again at {@code now} (epoch millis) and returns the statuses, by group name; a
   * group whose reservation is gone has none.
   */
  public Map<String, ReservationStatus> plan(
      long now, PodGroups podGroups, GroupProblems problems) {
    final List<ReservationInput> inputs = new ArrayList<>();
    for (final QuotaGroup group : reserving.values()) {
      final ReservationSpec spec = group.reservation().orElseThrow();
      final ReservationStatus previous = statuses.get(group.name());
      final ReservationSpec before = planned.get(group.name());
      final boolean sameTarget = previous != null && (before == null || before.sameTarget(spec));
      inputs.add(
          new ReservationInput(
              group,
              problems.problemOf(group.name()),
              sameTarget ? previous.requestedAt() : now,
              sameTarget ? previous.nodes() : List.of()));
    }
    final Map<String, ReservationStatus> next =
        ReservationPlanner.plan(
            List.copyOf(nodes.values()),
            load(podGroups),
            inputs,
            options,
            maxLockedPercent,
            chooser);
    statuses.clear();
    statuses.putAll(next);
    planned.clear();
    reserving.forEach((name, group) -> planned.put(name, group.reservation().orElseThrow()));
    return statuses();
  }

  /** Brings the idle amounts of the last plan's locks up to date; the locks stay as they are. */
  public Map<String, ReservationStatus> refreshIdle(PodGroups podGroups) {
    final NodeLoad load = load(podGroups);
    statuses.replaceAll(
        (group, status) -> {
          ResourceList idle = ResourceList.empty();
          for (final String node : status.nodes()) {
            final QuotaNode known = nodes.get(node);
            if (known != null) {
              idle =
                  idle.plus(
                      load.idleOn(
                          node,
                          PodAccounting.derive(known.allocatable(), options.derivedResources())));
            }
          }
          return status.withIdle(idle);
        });
    return statuses();
  }

  /**
   * The pods a Guaranteed reservation has evicted from its locked nodes: bound, unfinished, not
   * terminating, preemptible pods charged to another valid group than the reserving one and the
   * system group. By reserving group, node and pod.
   */
  public List<Intruder> intruders(PodGroups podGroups, GroupProblems problems) {
    final List<Intruder> intruders = new ArrayList<>();
    for (final Map.Entry<String, ReservationStatus> entry : statuses.entrySet()) {
      final ReservationStatus status = entry.getValue();
      if (status.policy() != ReservationPolicy.GUARANTEED || !status.satisfied()) {
        continue;
      }
      for (final String node : status.nodes()) {
        final List<QuotaPod> pods =
            new ArrayList<>(podsByNode.getOrDefault(node, Map.of()).values());
        pods.sort((a, b) -> a.ref().compareTo(b.ref()));
        for (final QuotaPod pod : pods) {
          if (!pod.preemptible() || pod.deletionTime().isPresent()) {
            continue;
          }
          final Optional<String> group = podGroups.groupOf(pod.ref());
          if (group.isEmpty()
              || group.get().equals(entry.getKey())
              || SpecialGroups.SYSTEM.equals(group.get())
              || problems.problemOf(group.get()).isPresent()) {
            continue;
          }
          intruders.add(
              new Intruder(
                  pod.ref(),
                  pod.uid(),
                  group.get(),
                  node,
                  entry.getKey(),
                  pod.priority(),
                  PodAccounting.effectiveRequest(pod, options)));
        }
      }
    }
    return intruders;
  }

  /** What the pods on each node request, in total and by group. */
  public NodeLoad load(PodGroups podGroups) {
    final Map<String, ResourceList> requested = new HashMap<>();
    final Map<String, Map<String, ResourceList>> byGroup = new HashMap<>();
    podsByNode.forEach(
        (node, pods) -> {
          ResourceList sum = ResourceList.empty();
          for (final QuotaPod pod : pods.values()) {
            final ResourceList request = PodAccounting.effectiveRequest(pod, options);
            sum = sum.plus(request);
            final Optional<String> group = podGroups.groupOf(pod.ref());
            if (group.isPresent() && reserving.containsKey(group.get())) {
              byGroup
                  .computeIfAbsent(group.get(), g -> new HashMap<>())
                  .merge(node, request, ResourceList::plus);
            }
          }
          requested.put(node, sum);
        });
    return NodeLoad.of(requested, byGroup);
  }
}
