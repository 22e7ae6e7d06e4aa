package io.quotaflow.reservation;

import io.quotaflow.quota.PodPhase;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.QuotaNode;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ReservationPercentage;
import io.quotaflow.quota.ReservationPolicy;
import io.quotaflow.quota.ReservationSpec;
import io.quotaflow.quota.ResourceList;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;

/** Random clusters with reservations, for the planner's properties. */
final class RandomClusters {

  /** One cluster's inputs. */
  record Cluster(List<QuotaNode> nodes, List<QuotaGroup> groups, List<QuotaPod> pods) {}

  private RandomClusters() {}

  static Cluster cluster(Random random) {
    final List<QuotaNode> nodes = new ArrayList<>();
    final int n = random.nextInt(31);
    for (int i = 0; i < n; i++) {
      nodes.add(node(random, String.format("node-%02d", i)));
    }
    final List<QuotaGroup> groups = new ArrayList<>();
    final int g = 1 + random.nextInt(6);
    final ResourceList total = RandomReservations.total(candidates(nodes));
    for (int i = 0; i < g; i++) {
      groups.add(group(random, "team-" + (char) ('a' + i), total, n));
    }
    final List<QuotaPod> pods = new ArrayList<>();
    final int p = random.nextInt(40);
    for (int i = 0; i < p; i++) {
      pods.add(pod(random, "pod-" + i, groups, nodes));
    }
    return new Cluster(nodes, groups, pods);
  }

  static QuotaNode node(Random random, String name) {
    final ReservationCandidate shape = RandomReservations.candidates(random, 1).get(0);
    final int health = random.nextInt(12);
    return new QuotaNode(
        name, shape.allocatable(), health != 0, health != 1, health == 2, List.of());
  }

  static QuotaGroup group(Random random, String name, ResourceList total, int nodes) {
    final QuotaGroup.Builder group = QuotaGroup.builder(name);
    if (random.nextInt(5) == 0) {
      return group.build();
    }
    final Map<String, Long> amounts = new TreeMap<>();
    amounts.put("cpu", total.get("cpu") * random.nextInt(35) / 100);
    if (random.nextBoolean()) {
      amounts.put("memory", total.get("memory") * random.nextInt(35) / 100);
    }
    ReservationSpec spec =
        ReservationSpec.of(
            random.nextBoolean() ? ReservationPolicy.BEST_EFFORT : ReservationPolicy.GUARANTEED,
            ResourceList.of(amounts));
    if (random.nextInt(4) == 0) {
      spec =
          new ReservationSpec(
              spec.policy(),
              random.nextBoolean() ? spec.resource() : Optional.empty(),
              Optional.of(
                  new ReservationPercentage(
                      BigDecimal.valueOf(random.nextInt(30), 2),
                      random.nextBoolean() ? List.of("cpu") : List.of())),
              List.of());
    }
    return group.reservation(spec).build();
  }

  static QuotaPod pod(Random random, String name, List<QuotaGroup> groups, List<QuotaNode> nodes) {
    final QuotaPod.Builder pod =
        QuotaPod.builder("ns", name)
            .quotaName(groups.get(random.nextInt(groups.size())).name())
            .request(RandomReservations.list(1_000 * random.nextInt(8), random.nextInt(16), 0))
            .preemptible(random.nextInt(4) != 0);
    if (!nodes.isEmpty() && random.nextInt(4) != 0) {
      pod.nodeName(nodes.get(random.nextInt(nodes.size())).name()).phase(PodPhase.RUNNING);
    }
    return pod.build();
  }

  static List<ReservationCandidate> candidates(List<QuotaNode> nodes) {
    return nodes.stream()
        .map(
            node ->
                new ReservationCandidate(
                    node.name(),
                    node.allocatable(),
                    node.allocatable(),
                    ResourceList.empty(),
                    false))
        .toList();
  }
}
