package io.quotaflow.admission.state;

import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.tree.GroupStatus;
import io.quotaflow.tree.PodAssignment;
import io.quotaflow.tree.PodClass;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A cluster as the engine's stores hold it, changed by hand: every read builds new objects, as a
 * read of the stores deserializes new ones, so a snapshot can only share objects by reusing its
 * previous copy's.
 */
final class StoredClusterView implements ClusterView {

  /** One stored group: its parent, used cpu and pods (name to in-quota or not). */
  private static final class Stored {
    String parent = SpecialGroups.ROOT;
    long usedCpu;
    final TreeMap<String, Boolean> pods = new TreeMap<>();
  }

  private final TreeMap<String, Stored> groups = new TreeMap<>();
  private final TreeMap<String, Instant> overUsedSince = new TreeMap<>();

  StoredClusterView addGroup(String name) {
    groups.computeIfAbsent(name, n -> new Stored());
    return this;
  }

  StoredClusterView removeGroup(String name) {
    groups.remove(name);
    overUsedSince.remove(name);
    return this;
  }

  StoredClusterView parent(String group, String parent) {
    stored(group).parent = parent;
    return this;
  }

  StoredClusterView used(String group, long cpu) {
    groups.computeIfAbsent(group, n -> new Stored()).usedCpu = cpu;
    return this;
  }

  StoredClusterView pod(String group, String pod, boolean inQuota) {
    stored(group).pods.put(pod, inQuota);
    return this;
  }

  StoredClusterView removePod(String group, String pod) {
    stored(group).pods.remove(pod);
    return this;
  }

  StoredClusterView overUsed(String group, Instant since) {
    stored(group);
    overUsedSince.put(group, since);
    return this;
  }

  List<String> names() {
    return List.copyOf(groups.keySet());
  }

  List<String> podNames(String group) {
    return List.copyOf(stored(group).pods.keySet());
  }

  private Stored stored(String group) {
    final Stored stored = groups.get(group);
    if (stored == null) {
      throw new IllegalArgumentException("no group " + group);
    }
    return stored;
  }

  private static GroupStatus status(String name, Stored stored) {
    final ResourceList used = ResourceList.of(ResourceList.CPU, stored.usedCpu);
    final ResourceList min = ResourceList.of(ResourceList.CPU, 1_000);
    return new GroupStatus(
        new String(name),
        new String(stored.parent),
        false,
        true,
        Optional.empty(),
        min,
        min,
        ResourceList.of(ResourceList.CPU, 4_000),
        ResourceList.of(ResourceList.CPU, 1),
        used,
        used,
        used,
        ResourceList.empty(),
        ResourceList.empty(),
        min);
  }

  @Override
  public Optional<GroupStatus> group(String name) {
    final Stored stored = groups.get(name);
    return stored == null ? Optional.empty() : Optional.of(status(name, stored));
  }

  @Override
  public List<GroupStatus> groups() {
    final List<GroupStatus> all = new ArrayList<>();
    groups.forEach((name, stored) -> all.add(status(name, stored)));
    return all;
  }

  @Override
  public List<QuotaGroup> quotas() {
    final List<QuotaGroup> specs = new ArrayList<>();
    groups.forEach(
        (name, stored) ->
            specs.add(
                QuotaGroup.builder(new String(name))
                    .parent(SpecialGroups.ROOT.equals(stored.parent) ? "" : stored.parent)
                    .min(ResourceList.of(ResourceList.CPU, 1_000))
                    .max(ResourceList.of(ResourceList.CPU, 4_000))
                    .build()));
    return specs;
  }

  @Override
  public Optional<ResourceList> ownRequest(String group) {
    final Stored stored = groups.get(group);
    return stored == null
        ? Optional.empty()
        : Optional.of(ResourceList.of(ResourceList.CPU, stored.usedCpu));
  }

  @Override
  public List<PodAssignment> podsOf(String group) {
    final Stored stored = groups.get(group);
    final List<PodAssignment> pods = new ArrayList<>();
    if (stored != null) {
      stored.pods.forEach(
          (pod, inQuota) ->
              pods.add(
                  new PodAssignment(
                      new PodRef("ns", new String(pod)),
                      new String(group),
                      Optional.of(inQuota ? PodClass.IN_QUOTA : PodClass.OVER_QUOTA),
                      Optional.empty())));
    }
    return pods;
  }

  @Override
  public Map<String, Instant> overUsedSince() {
    return new TreeMap<>(overUsedSince);
  }
}
