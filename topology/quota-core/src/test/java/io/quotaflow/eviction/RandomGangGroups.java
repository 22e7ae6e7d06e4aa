package io.quotaflow.eviction;

import io.quotaflow.quota.Gang;
import io.quotaflow.quota.PodPhase;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.tree.ClusterQuotaState;
import io.quotaflow.tree.Fixtures;
import io.quotaflow.tree.GroupStatus;
import io.quotaflow.tree.QuotaOptions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.Random;

/**
 * Random over-used (or not) groups for the reclaim properties: one group "g" whose runtime is its
 * min and max and the cluster's size, holding pods of few distinct priorities and start times (so
 * that ties happen), some pending, terminating, non-preemptible or in a protected namespace, in two
 * dimensions, some in gangs of two namespaces with or without a minMember.
 */
final class RandomGangGroups {

  /** The group's computed status and the pods charged to it. */
  record Group(GroupStatus status, List<QuotaPod> pods) {
    @Override
    public String toString() {
      return status.runtime() + " " + pods;
    }
  }

  static final QuotaOptions OPTIONS = QuotaOptions.DEFAULTS;

  private RandomGangGroups() {}

  static Group group(Random random, boolean gangs) {
    final ResourceList runtime =
        ResourceList.of("cpu", 1 + random.nextInt(20), "memory", 1 + random.nextInt(20));
    final List<QuotaPod> pods = new ArrayList<>();
    final int count = random.nextInt(25);
    for (int i = 0; i < count; i++) {
      pods.add(pod(random, "p" + i, gangs));
    }
    final ClusterQuotaState state = new ClusterQuotaState(OPTIONS);
    state.putNode(Fixtures.node("n", runtime));
    state.putGroup(Fixtures.quota("g").min(runtime).max(runtime).build());
    pods.forEach(state::putPod);
    state.recompute();
    return new Group(state.group("g").orElseThrow(), List.copyOf(state.podsOf("g")));
  }

  private static QuotaPod pod(Random random, String name, boolean gangs) {
    final String namespace =
        switch (random.nextInt(8)) {
          case 0 -> "kube-system";
          case 1 -> "other";
          default -> "ns-g";
        };
    final QuotaPod.Builder pod =
        QuotaPod.builder(namespace, name)
            .quotaName("g")
            .request(ResourceList.of("cpu", random.nextInt(8), "memory", random.nextInt(8)))
            .priority(random.nextInt(4) * 10)
            .creationTime(Instant.ofEpochSecond(random.nextInt(3)))
            .preemptible(random.nextInt(10) != 0);
    if (random.nextInt(6) == 0) {
      pod.phase(PodPhase.PENDING);
    } else {
      pod.running("n");
      if (random.nextInt(5) != 0) {
        pod.startTime(Instant.ofEpochSecond(random.nextInt(4)));
      }
    }
    if (random.nextInt(10) == 0) {
      pod.deletionTime(Instant.ofEpochSecond(9));
    }
    if (gangs && random.nextInt(3) != 0) {
      final int gang = random.nextInt(3);
      // Members of one gang declare one minMember; gang-0 declares none.
      final OptionalInt minMember = gang == 0 ? OptionalInt.empty() : OptionalInt.of(gang * 2);
      pod.gang(new Gang("gang-" + gang, minMember, "scheduler-plugins"));
    }
    return pod.build();
  }
}
