package io.quotaflow.tree;

import io.quotaflow.quota.PodPhase;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.QuotaNode;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecProblem;
import io.quotaflow.quota.SpecialGroups;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * Random but reproducible clusters for property tests: a seed drives every choice, so a failing
 * seed reported by jqwik replays exactly. Shapes cover what the semantics distinguish: parents and
 * leaves, lenders and non-lenders, zero weights, limits, missing dimensions, invalid specs, missing
 * parents and cycles, special groups, pods in every phase.
 */
final class RandomClusters {

  static final String[] DIMS = {"cpu", "memory", "nvidia.com/gpu"};

  private final Random random;
  private final int groupNames;
  private final boolean allowBroken;

  RandomClusters(long seed, int groupNames, boolean allowBroken) {
    this.random = new Random(seed);
    this.groupNames = groupNames;
    this.allowBroken = allowBroken;
  }

  Random random() {
    return random;
  }

  String groupName(int i) {
    return "g" + i;
  }

  String anyGroupName() {
    final int pick = random.nextInt(groupNames + 2);
    if (pick == groupNames) {
      return SpecialGroups.DEFAULT;
    }
    if (pick == groupNames + 1) {
      return SpecialGroups.SYSTEM;
    }
    return groupName(pick);
  }

  ClusterInputs cluster(int groups, int pods, int nodes) {
    final List<QuotaGroup> groupList = new ArrayList<>();
    for (int i = 0; i < groups; i++) {
      groupList.add(group(groupName(i)));
    }
    final List<QuotaPod> podList = new ArrayList<>();
    for (int i = 0; i < pods; i++) {
      podList.add(pod("pod-" + i));
    }
    final List<QuotaNode> nodeList = new ArrayList<>();
    for (int i = 0; i < nodes; i++) {
      nodeList.add(node("node-" + i));
    }
    return new ClusterInputs(groupList, podList, nodeList);
  }

  /** Groups gi with i < n/2 tend to be parents of the later ones, so trees form. */
  QuotaGroup group(String name) {
    final int index = name.startsWith("g") ? Integer.parseInt(name.substring(1)) : 0;
    // The ElasticQuota's namespace, as Fixtures declares it (issue 39: an unknown one admits none).
    final QuotaGroup.Builder builder = QuotaGroup.builder(name).namespace("ns-" + name);
    if (index > 0 && random.nextInt(3) > 0) {
      final int parent = random.nextInt(allowBroken ? groupNames : index);
      builder.parent(groupName(parent));
    }
    if (allowBroken && random.nextInt(20) == 0) {
      builder.parent("missing");
    }
    builder.parentGroup(index < groupNames / 2 ? random.nextInt(5) > 0 : random.nextInt(8) == 0);
    final Map<String, Long> min = new TreeMap<>();
    final Map<String, Long> max = new TreeMap<>();
    for (final String dim : DIMS) {
      if (random.nextInt(4) == 0) {
        continue;
      }
      final long minValue = amount(40);
      if (random.nextInt(5) > 0) {
        min.put(dim, minValue);
      }
      if (random.nextInt(3) > 0) {
        long maxValue = minValue + amount(60);
        if (allowBroken && random.nextInt(25) == 0) {
          maxValue = Math.max(0, minValue - 1 - random.nextInt(5));
        }
        max.put(dim, maxValue);
      } else if (!min.containsKey(dim)) {
        min.put(dim, 0L);
      }
    }
    builder.min(ResourceList.of(min)).max(ResourceList.of(max));
    if (random.nextInt(3) == 0) {
      final Map<String, Long> weight = new TreeMap<>();
      for (final String dim : DIMS) {
        if (random.nextBoolean()) {
          weight.put(dim, (long) random.nextInt(5));
        }
      }
      builder.sharedWeight(ResourceList.of(weight));
    }
    builder.allowLent(random.nextInt(4) > 0);
    if (random.nextInt(6) == 0) {
      builder.lendingLimit(ResourceList.of("cpu", amount(20)));
    }
    if (random.nextInt(6) == 0) {
      builder.borrowingLimit(ResourceList.of("cpu", amount(30)));
    }
    if (random.nextInt(5) == 0) {
      builder.namespaces(List.of("ns-" + random.nextInt(4)));
    }
    if (allowBroken && random.nextInt(30) == 0) {
      builder.problem(
          new SpecProblem("metadata.annotations[" + GroupRules.SHARED_WEIGHT + "]", "not JSON"));
    }
    if (allowBroken && random.nextInt(30) == 0) {
      builder.problem(new SpecProblem("spec.min.cpu", "not a quantity"));
    }
    return builder.build();
  }

  QuotaPod pod(String name) {
    final String namespace =
        random.nextInt(3) == 0 ? groupName(random.nextInt(groupNames)) : "ns-" + random.nextInt(4);
    final QuotaPod.Builder builder = QuotaPod.builder(namespace, name);
    if (random.nextInt(4) > 0) {
      builder.quotaName(anyGroupName());
    }
    final PodPhase phase = PodPhase.values()[random.nextInt(PodPhase.values().length)];
    builder.phase(phase);
    if (phase == PodPhase.RUNNING || random.nextBoolean()) {
      builder.nodeName("node-" + random.nextInt(3));
    }
    final Map<String, Long> request = new TreeMap<>();
    for (final String dim : DIMS) {
      if (random.nextInt(3) > 0) {
        request.put(dim, amount(15));
      }
    }
    builder.request(ResourceList.of(request));
    builder.priority(random.nextInt(3));
    builder.preemptible(random.nextInt(4) > 0);
    builder.creationTime(Instant.ofEpochSecond(random.nextInt(5)));
    builder.startTime(Instant.ofEpochSecond(10 + random.nextInt(5)));
    if (random.nextInt(8) == 0) {
      builder.deletionTime(Instant.ofEpochSecond(100));
    }
    return builder.build();
  }

  QuotaNode node(String name) {
    final Map<String, Long> allocatable = new TreeMap<>();
    for (final String dim : DIMS) {
      if (random.nextInt(5) > 0) {
        allocatable.put(dim, amount(120));
      }
    }
    return new QuotaNode(
        name,
        ResourceList.of(allocatable),
        random.nextInt(5) > 0,
        random.nextInt(5) > 0,
        random.nextInt(8) == 0,
        List.of());
  }

  /** Mostly small amounts, sometimes huge ones close to {@link Long#MAX_VALUE}. */
  long amount(int scale) {
    if (random.nextInt(60) == 0) {
      return Long.MAX_VALUE - random.nextInt(1000);
    }
    return random.nextInt(scale + 1);
  }
}
