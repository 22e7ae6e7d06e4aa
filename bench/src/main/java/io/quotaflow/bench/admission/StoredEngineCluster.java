package io.quotaflow.bench.admission;

import io.quotaflow.engine.query.PodInGroup;
import io.quotaflow.engine.query.RuntimeQueries;
import io.quotaflow.engine.store.GroupId;
import io.quotaflow.engine.store.GroupPodId;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.schemas.GroupRuntime;
import io.quotaflow.schemas.PodQuotaClass;
import io.quotaflow.schemas.QuotaClass;
import io.quotaflow.serde.AvroSerde;
import io.quotaflow.tree.GroupStatus;
import io.quotaflow.tree.PodAssignment;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

/**
 * One cluster in the engine's runtime and pod-assignments stores, serialized with the engine's
 * serdes and read through its {@link RuntimeQueries}, as {@code StreamsClusterState} reads it: the
 * Avro decoding of every record is in the read, a Kafka Streams store's own layers are not.
 */
final class StoredEngineCluster implements LastStateRefresh.ChangingCluster {
  private static final String CLUSTER = "bench";
  private final SerializedStore<GroupId, GroupRuntime> runtime =
      new SerializedStore<>(GroupId.serde(), AvroSerde.forValues(GroupRuntime.class));
  private final SerializedStore<GroupPodId, PodQuotaClass> pods =
      new SerializedStore<>(GroupPodId.serde(), AvroSerde.forValues(PodQuotaClass.class));
  private final RuntimeQueries queries = RuntimeQueries.of(runtime, pods);
  private final List<QuotaGroup> quotas;
  private final long[] used;
  private final List<List<String>> podNames = new ArrayList<>();
  private final Random random;
  private int nextPod;

  StoredEngineCluster(int groups, int podCount, Random random) {
    this.random = random;
    used = new long[groups];
    final List<QuotaGroup> specs = new ArrayList<>();
    for (int g = 0; g < groups; g++) {
      podNames.add(new ArrayList<>());
      specs.add(
          QuotaGroup.builder("team-" + g).min(ResourceList.of(ResourceList.CPU, 1_000)).build());
    }
    quotas = List.copyOf(specs);
    for (int p = 0; p < podCount; p++) {
      addPod(p % groups);
    }
    for (int g = 0; g < groups; g++) {
      writeGroup(g);
    }
  }

  private void addPod(int group) {
    final String name = "pod-" + nextPod++;
    podNames.get(group).add(name);
    used[group] += 100;
    pods.put(new GroupPodId(CLUSTER, "team-" + group, "ns-" + group, name), podClass(group, true));
  }

  private PodQuotaClass podClass(int group, boolean inQuota) {
    return PodQuotaClass.newBuilder()
        .setGroup("team-" + group)
        .setPodUid("uid")
        .setQuotaClass(inQuota ? QuotaClass.IN_QUOTA : QuotaClass.OVER_QUOTA)
        .build();
  }

  private void writeGroup(int g) {
    final Map<String, Long> min = Map.of(ResourceList.CPU, 1_000L, ResourceList.MEMORY, 1L << 30);
    final Map<String, Long> use = Map.of(ResourceList.CPU, used[g], ResourceList.MEMORY, 0L);
    runtime.put(
        new GroupId(CLUSTER, "team-" + g),
        GroupRuntime.newBuilder()
            .setMin(min)
            .setScaledMin(min)
            .setMax(Map.of(ResourceList.CPU, 4_000L, ResourceList.MEMORY, 4L << 30))
            .setSharedWeight(Map.of(ResourceList.CPU, 1_000L))
            .setRequest(use)
            .setLimitedRequest(use)
            .setUsed(use)
            .setRuntime(min)
            .setOwnRequest(use)
            .setComputedAt(Instant.EPOCH)
            .build());
  }

  @Override
  public void change(int groups) {
    for (int i = 0; i < groups; i++) {
      final int g = random.nextInt(used.length);
      final List<String> names = podNames.get(g);
      switch (random.nextInt(3)) {
        case 0 -> addPod(g);
        case 1 -> {
          if (!names.isEmpty()) {
            final String name = names.remove(random.nextInt(names.size()));
            pods.delete(new GroupPodId(CLUSTER, "team-" + g, "ns-" + g, name));
            used[g] -= 100;
          }
        }
        default -> {
          if (!names.isEmpty()) {
            final String name = names.get(random.nextInt(names.size()));
            pods.put(
                new GroupPodId(CLUSTER, "team-" + g, "ns-" + g, name),
                podClass(g, random.nextBoolean()));
          }
        }
      }
      writeGroup(g);
    }
  }

  @Override
  public Optional<GroupStatus> group(String name) {
    return queries.group(CLUSTER, name);
  }

  @Override
  public List<GroupStatus> groups() {
    return queries.tree(CLUSTER);
  }

  @Override
  public List<QuotaGroup> quotas() {
    return quotas;
  }

  @Override
  public Optional<ResourceList> ownRequest(String group) {
    return queries.ownRequest(CLUSTER, group);
  }

  @Override
  public List<PodAssignment> podsOf(String group) {
    final List<PodAssignment> result = new ArrayList<>();
    for (final PodInGroup pod : queries.podsOf(CLUSTER, group)) {
      result.add(new PodAssignment(pod.ref(), group, pod.podClass(), Optional.empty()));
    }
    return result;
  }
}
