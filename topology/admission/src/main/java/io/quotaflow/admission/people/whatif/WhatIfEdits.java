package io.quotaflow.admission.people.whatif;

import io.quotaflow.quota.PodPhase;
import io.quotaflow.quota.Quantities;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.tree.ClusterInputs;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Applies a {@link WhatIfRequest} to a copy of a cluster's inputs, checking every part first: the
 * inputs given are never changed. An added pod is a pending pod labelled for its group (the label
 * decides the group, SPEC 4), priority 0, preemptible, in a namespace bound to its group.
 */
public final class WhatIfEdits {

  /**
   * The namespace of pods added to a group whose ElasticQuota's namespace is not known: a name no
   * real namespace can clash with in a what-if copy.
   */
  public static final String NAMESPACE = "quotaflow-what-if";

  /** At most this many group edits in one request. */
  static final int MAX_GROUP_EDITS = 1000;

  /** At most this many entries of added pods in one request. */
  static final int MAX_POD_ENTRIES = 100;

  /** At most this many pods in one entry. */
  static final int MAX_COUNT = 10_000;

  private WhatIfEdits() {}

  /**
   * {@code inputs} with {@code request}'s edits.
   *
   * @throws WhatIfException naming the group, resource or value that is wrong
   */
  public static ClusterInputs apply(ClusterInputs inputs, WhatIfRequest request)
      throws WhatIfException {
    final List<WhatIfRequest.GroupEdit> edits =
        request.groups() == null ? List.of() : request.groups();
    final List<WhatIfRequest.AddedPods> added = request.pods() == null ? List.of() : request.pods();
    if (edits.isEmpty() && added.isEmpty()) {
      throw new WhatIfException("the what-if names no edit: give \"groups\" or \"pods\"");
    }
    if (edits.size() > MAX_GROUP_EDITS) {
      throw new WhatIfException("at most " + MAX_GROUP_EDITS + " group edits per what-if");
    }
    if (added.size() > MAX_POD_ENTRIES) {
      throw new WhatIfException("at most " + MAX_POD_ENTRIES + " entries of pods per what-if");
    }
    final Map<String, QuotaGroup> groups = new HashMap<>();
    inputs.groups().forEach(group -> groups.put(group.name(), group));
    final Set<String> edited = new HashSet<>();
    for (final WhatIfRequest.GroupEdit edit : edits) {
      if (edit == null) {
        throw new WhatIfException("a group edit is null");
      }
      final QuotaGroup group = group(groups, edit.name(), "groups[].name");
      if (!edited.add(group.name())) {
        throw new WhatIfException("group " + group.name() + " is edited twice; merge the edits");
      }
      if (edit.min() == null && edit.max() == null && edit.sharedWeight() == null) {
        throw new WhatIfException(
            "the edit of group "
                + group.name()
                + " changes nothing: give min, max or sharedWeight");
      }
      final QuotaGroup.Builder builder = group.toBuilder();
      if (edit.min() != null) {
        builder.min(merged(group.min(), edit.min(), group.name(), "min"));
      }
      if (edit.max() != null) {
        builder.max(merged(group.max(), edit.max(), group.name(), "max"));
      }
      if (edit.sharedWeight() != null) {
        builder.sharedWeight(
            merged(
                group.sharedWeight().orElse(ResourceList.empty()),
                edit.sharedWeight(),
                group.name(),
                "sharedWeight"));
      }
      groups.put(group.name(), builder.build());
    }
    final List<QuotaPod> pods = new ArrayList<>(inputs.pods());
    int serial = 0;
    for (final WhatIfRequest.AddedPods entry : added) {
      if (entry == null) {
        throw new WhatIfException("an entry of pods is null");
      }
      final QuotaGroup group = group(groups, entry.group(), "pods[].group");
      if (group.parentGroup()) {
        throw new WhatIfException(
            "group " + group.name() + " is a parent group; pods are charged to leaf groups");
      }
      final int count = entry.count() == null ? 1 : entry.count();
      if (count < 1 || count > MAX_COUNT) {
        throw new WhatIfException(
            "pods[].count of group " + group.name() + " must be 1 to " + MAX_COUNT + ": " + count);
      }
      if (entry.requests() == null || entry.requests().isEmpty()) {
        throw new WhatIfException("the pods of group " + group.name() + " need \"requests\"");
      }
      final ResourceList size =
          merged(ResourceList.empty(), entry.requests(), group.name(), "pods[].requests");
      for (int i = 0; i < count; i++) {
        serial++;
        pods.add(
            QuotaPod.builder(namespaceOf(group), "what-if-" + serial)
                .uid("what-if-" + serial)
                .quotaName(group.name())
                .phase(PodPhase.PENDING)
                .request(size)
                .creationTime(Instant.EPOCH)
                .build());
      }
    }
    return new ClusterInputs(List.copyOf(groups.values()), pods, inputs.nodes());
  }

  private static QuotaGroup group(Map<String, QuotaGroup> groups, String name, String field)
      throws WhatIfException {
    if (name == null || name.isEmpty()) {
      throw new WhatIfException(field + " is missing");
    }
    if (SpecialGroups.isSpecial(name)) {
      throw new WhatIfException(
          "group "
              + name
              + " is a special group; its quota is not configured and cannot be edited");
    }
    final QuotaGroup group = groups.get(name);
    if (group == null) {
      throw new WhatIfException("the cluster has no quota group " + name);
    }
    return group;
  }

  /** {@code base} with each resource of {@code amounts} set; every amount parsed and checked. */
  private static ResourceList merged(
      ResourceList base, Map<String, String> amounts, String group, String field)
      throws WhatIfException {
    ResourceList result = base;
    for (final Map.Entry<String, String> entry : amounts.entrySet()) {
      final String resource = entry.getKey();
      final String where = field + " of group " + group + ", resource " + resource;
      if (resource == null || resource.isBlank()) {
        throw new WhatIfException(field + " of group " + group + " names an empty resource");
      }
      if (entry.getValue() == null || entry.getValue().isBlank()) {
        throw new WhatIfException(where + ": no quantity given");
      }
      final long amount;
      try {
        amount = Quantities.parse(resource, entry.getValue().trim());
      } catch (Quantities.InvalidQuantityException e) {
        throw new WhatIfException(where + ": " + e.getMessage());
      }
      if (amount < 0) {
        throw new WhatIfException(where + ": " + entry.getValue() + " is negative");
      }
      result = result.with(resource, amount);
    }
    return result;
  }

  /**
   * Where the pods added to {@code group} live: its ElasticQuota's namespace, which the group
   * admits (NamespaceBinding); when that is not known (such a group admits no other namespace's
   * labels, issue 39), the first namespace its annotation lists, else the namespace named like it:
   * both own their unlabelled pods, so the pods resolve to the group whatever the binding.
   */
  private static String namespaceOf(QuotaGroup group) {
    if (!group.namespace().isEmpty()) {
      return group.namespace();
    }
    return group.namespaces().isEmpty() ? group.name() : group.namespaces().get(0);
  }
}
