package io.quotaflow.reservation;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.QuotaNode;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.tree.QuotaOptions;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.statistics.Statistics;

/** Invariants of a cluster's locks (docs/semantics.md section 14). */
class ReservationPlannerProperties {

  private static ClusterReservations fed(RandomClusters.Cluster cluster, int cap) {
    final ClusterReservations reservations =
        new ClusterReservations(QuotaOptions.DEFAULTS.withReservationMaxLockedPercent(cap));
    cluster.nodes().forEach(reservations::putNode);
    cluster.groups().forEach(reservations::putGroup);
    cluster.pods().forEach(reservations::putPod);
    return reservations;
  }

  /** Plans with each pod charged to the group its label names, as the tree would. */
  private static Map<String, ReservationStatus> plan(ClusterReservations reservations, long now) {
    return new HashMap<>(
        reservations.plan(now, pod -> Optional.ofNullable(groups.get(pod)), g -> Optional.empty()));
  }

  private static final Map<PodRef, String> groups = new HashMap<>();

  private static RandomClusters.Cluster randomCluster(long seed) {
    final RandomClusters.Cluster cluster = RandomClusters.cluster(new Random(seed));
    groups.clear();
    cluster.pods().forEach(pod -> groups.put(pod.ref(), pod.quotaName().orElseThrow()));
    return cluster;
  }

  private static Map<String, ResourceList> allocatable(List<QuotaNode> nodes) {
    final Map<String, ResourceList> map = new HashMap<>();
    nodes.forEach(node -> map.put(node.name(), node.allocatable()));
    return map;
  }

  private static List<ReservationCandidate> lockable(List<QuotaNode> nodes, Set<String> except) {
    final List<ReservationCandidate> candidates = new ArrayList<>();
    for (final QuotaNode node : nodes) {
      if (node.ready() && node.schedulable() && !node.deleting() && !except.contains(node.name())) {
        candidates.add(
            new ReservationCandidate(
                node.name(), node.allocatable(), node.allocatable(), ResourceList.empty(), false));
      }
    }
    return candidates;
  }

  @Property(tries = 300)
  void noNodeIsLockedTwiceAndEveryLockIsOfSchedulableNodesCoveringItsTargetIrreducibly(
      @ForAll long seed) {
    final RandomClusters.Cluster cluster = randomCluster(seed);
    final Map<String, ReservationStatus> statuses =
        plan(fed(cluster, new Random(seed).nextInt(101)), 0);

    final Set<String> locked = new HashSet<>();
    for (final ReservationStatus status : statuses.values()) {
      Statistics.label("satisfied").collect(status.satisfied());
      if (!status.satisfied()) {
        assertThat(status.nodes()).isEmpty();
        continue;
      }
      for (final String node : status.nodes()) {
        assertThat(locked.add(node)).as("%s locked twice", node).isTrue();
      }
      final List<ReservationCandidate> lockNodes = lockable(cluster.nodes(), Set.of());
      final ReservationTarget target = new ReservationTarget(status.target(), status.minNodes());
      assertThat(LockChooser.irreducible(target, lockNodes, status.nodes())).isTrue();
    }
    // The property must see both outcomes often, or it proves little.
    Statistics.label("satisfied")
        .coverage(
            checker -> {
              checker.check(true).percentage(p -> p > 25);
              checker.check(false).percentage(p -> p > 10);
            });
  }

  @Property(tries = 300)
  void theLockedShareStaysWithinTheCapInEveryDimension(@ForAll long seed) {
    final RandomClusters.Cluster cluster = randomCluster(seed);
    final int cap = new Random(seed).nextInt(101);
    final Map<String, ReservationStatus> statuses = plan(fed(cluster, cap), 0);

    final Map<String, ResourceList> allocatable = allocatable(cluster.nodes());
    ResourceList total = ResourceList.empty();
    for (final QuotaNode node : cluster.nodes()) {
      if (!node.deleting()) {
        total = total.plus(node.allocatable());
      }
    }
    ResourceList locked = ResourceList.empty();
    for (final ReservationStatus status : statuses.values()) {
      for (final String node : status.nodes()) {
        locked = locked.plus(allocatable.get(node));
      }
    }
    for (final String dimension : total.names()) {
      assertThat(locked.get(dimension) * 100).isLessThanOrEqualTo(total.get(dimension) * cap);
    }
  }

  @Property(tries = 300)
  void aValidReservationIsNotSatisfiedOnlyWhenTheNodesNoOtherReservationLocksCannotCoverIt(
      @ForAll long seed) {
    final RandomClusters.Cluster cluster = randomCluster(seed);
    final Map<String, ReservationStatus> statuses = plan(fed(cluster, 100), 0);

    statuses.forEach(
        (group, status) -> {
          if (!status.valid() || status.satisfied()) {
            return;
          }
          final Set<String> lockedByOthers = new HashSet<>();
          statuses.forEach(
              (other, s) -> {
                if (!other.equals(group)) {
                  lockedByOthers.addAll(s.nodes());
                }
              });
          final List<ReservationCandidate> free = lockable(cluster.nodes(), lockedByOthers);
          assertThat(
                  LockChooser.covers(
                      new ReservationTarget(status.target(), status.minNodes()),
                      free,
                      free.stream().map(ReservationCandidate::name).toList()))
              .as("%s is not satisfied although the free nodes cover it", group)
              .isFalse();
          assertThat(status.reason()).isPresent();
        });
  }

  @Property(tries = 300)
  void locksStayWhenPodsChangeNodesAreAddedOrAYoungerReservationArrives(@ForAll long seed) {
    final Random random = new Random(seed);
    final RandomClusters.Cluster cluster = randomCluster(seed);
    final ClusterReservations reservations = fed(cluster, random.nextInt(101));
    final Map<String, ReservationStatus> before = plan(reservations, 0);

    // Unrelated changes: pods come and go, nodes join, a new group reserves later.
    for (final QuotaPod pod : cluster.pods()) {
      if (random.nextBoolean()) {
        reservations.removePod(pod.ref());
      }
    }
    for (int i = 0; i < 10; i++) {
      final QuotaPod pod =
          RandomClusters.pod(random, "later-" + i, cluster.groups(), cluster.nodes());
      groups.put(pod.ref(), pod.quotaName().orElseThrow());
      reservations.putPod(pod);
    }
    for (int i = 0; i < random.nextInt(4); i++) {
      reservations.putNode(RandomClusters.node(random, "new-node-" + i));
    }
    final QuotaGroup younger =
        RandomClusters.group(random, "zz-later", ResourceList.of("cpu", 64_000), 8);
    reservations.putGroup(younger);
    final Map<String, ReservationStatus> after = plan(reservations, 1_000);

    before.forEach(
        (group, status) -> {
          // A percentage's target follows the cluster's size; a lock stays while its target does.
          final boolean sameTarget =
              after.get(group).target().equals(status.target())
                  && after.get(group).minNodes() == status.minNodes();
          if (status.satisfied() && sameTarget) {
            assertThat(after.get(group).nodes()).as(group).isEqualTo(status.nodes());
            assertThat(after.get(group).requestedAt()).isEqualTo(status.requestedAt());
          }
        });
  }

  @Property(tries = 200)
  void thePlanDependsNeitherOnTheOrderInputsArriveNorOnPlanningAgain(@ForAll long seed) {
    final RandomClusters.Cluster cluster = randomCluster(seed);
    final int cap = new Random(seed).nextInt(101);
    final Map<String, ReservationStatus> forward = plan(fed(cluster, cap), 0);

    final List<QuotaNode> nodes = new ArrayList<>(cluster.nodes());
    final List<QuotaGroup> groups = new ArrayList<>(cluster.groups());
    final List<QuotaPod> pods = new ArrayList<>(cluster.pods());
    Collections.shuffle(nodes, new Random(seed + 1));
    Collections.shuffle(groups, new Random(seed + 2));
    Collections.shuffle(pods, new Random(seed + 3));
    final ClusterReservations shuffled = fed(new RandomClusters.Cluster(nodes, groups, pods), cap);
    assertThat(plan(shuffled, 0)).isEqualTo(forward);
    assertThat(plan(shuffled, 5)).isEqualTo(forward);
  }
}
