package io.quotaflow.admission.state;

import io.fabric8.kubernetes.api.model.Pod;
import io.quotaflow.dra.ClaimedDevices;
import io.quotaflow.dra.DeviceCharge;
import io.quotaflow.kube.PodGroupKey;
import io.quotaflow.kube.PodGroupObject;
import io.quotaflow.profile.NodePools;
import io.quotaflow.profile.QuotaProfile;
import io.quotaflow.profile.QuotaTrees;
import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.reservation.LockedNodes;
import io.quotaflow.reservation.ReservationStatus;
import io.quotaflow.tree.ClusterInputs;
import io.quotaflow.tree.GroupDirectory;
import io.quotaflow.tree.GroupStatus;
import io.quotaflow.tree.PodAssignment;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Read-only access to one cluster's last computed state, held by this instance. Every call reads
 * the current state; nothing is cached between calls. Implementations may throw {@link
 * StateUnavailableException} when the state stops being readable (a rebalance).
 */
public interface ClusterView {

  /** The last computed status of group {@code name}. */
  Optional<GroupStatus> group(String name);

  /** Every group's status, in any order. */
  List<GroupStatus> groups();

  /** The specification of every group, as last read from the ElasticQuota objects. */
  List<QuotaGroup> quotas();

  /** The specification of group {@code name}, as last read. */
  default Optional<QuotaGroup> quota(String name) {
    return quotas().stream().filter(quota -> quota.name().equals(name)).findFirst();
  }

  /**
   * The statuses of the groups whose parent is {@code parent} ({@link SpecialGroups#ROOT} for the
   * first level), in any order: the siblings a what-if admission check redistributes among.
   */
  default List<GroupStatus> children(String parent) {
    return groups().stream().filter(status -> status.parent().equals(parent)).toList();
  }

  /**
   * What the pods charged to {@code group} request, before its request floor; empty when this view
   * does not know it (the what-if then uses a lower bound, see {@code WhatIfRuntimes}).
   */
  default Optional<ResourceList> ownRequest(String group) {
    return Optional.empty();
  }

  /**
   * The groups as pods resolve to them (SPEC 4). Callers only read it; implementations may share
   * one instance between calls while the specifications do not change.
   */
  default GroupDirectory directory() {
    return GroupDirectory.of(quotas());
  }

  /** The pods charged to {@code group}, with their classes. */
  List<PodAssignment> podsOf(String group);

  /** One pod of {@code group}, if the state has it there. */
  default Optional<PodAssignment> pod(String group, PodRef ref) {
    return podsOf(group).stream().filter(pod -> pod.ref().equals(ref)).findFirst();
  }

  /**
   * The names of the groups whose parent is {@code parent}, in any order: what the web view needs
   * to know whether a row can be expanded, without reading the children's statuses.
   */
  default List<String> childNames(String parent) {
    return children(parent).stream().map(GroupStatus::name).toList();
  }

  /**
   * Since when each over-used group has been over-used, as the engine's reclaim clock says (store
   * {@code over-used-since}); empty when this view does not know it.
   */
  default Map<String, Instant> overUsedSince() {
    return Map.of();
  }

  /**
   * How far the engine has read the cluster's inputs: the oldest of the newest connectors'
   * heartbeats it read per input kind (store {@code input-freshness}); every change the connectors
   * saw before then is in this view. Empty when no marker was read or this view does not know.
   */
  default Optional<Instant> inputsAsOf() {
    return Optional.empty();
  }

  /**
   * The node reservation of every reserving group, by group name (docs/semantics.md section 14);
   * empty when no group reserves nodes or this view does not know.
   */
  default Map<String, ReservationStatus> reservations() {
    return Map.of();
  }

  /** Which group's reservation locks each node: what the scheduler filter refuses. */
  default LockedNodes lockedNodes() {
    return LockedNodes.of(reservations());
  }

  /**
   * {@code read} (the pod as {@code PodAdapter} reads {@code pod}) with the devices of the pod's
   * {@code spec.resourceClaims} added, counted from the cluster's DRA objects as the engine counts
   * them (docs/semantics.md section 22); {@code read} itself for a pod without claims, or when this
   * view knows no DRA objects.
   */
  default QuotaPod withClaims(Pod pod, QuotaPod read) {
    return ClaimedDevices.withCharge(read, claims(pod));
  }

  /**
   * What the pod's {@code spec.resourceClaims} add to its request, counted from the cluster's DRA
   * objects as the engine counts them, with the devices that cannot be counted yet ({@link
   * DeviceCharge#unresolved()}); nothing for a pod without claims, or when this view knows no DRA
   * objects.
   */
  default DeviceCharge claims(Pod pod) {
    return DeviceCharge.NONE;
  }

  /** The pod {@code ref} as the engine last read it (priority, node, request), if known here. */
  default Optional<QuotaPod> podInput(PodRef ref) {
    return Optional.empty();
  }

  /**
   * The quota tree group {@code name} is in (docs/semantics.md section 15), as the engine last
   * computed it; {@link QuotaTrees#DEFAULT_TREE} for a group outside every profile's tree or not
   * known.
   */
  default String treeOf(String group) {
    return QuotaTrees.DEFAULT_TREE;
  }

  /** The profile of each profile tree, by tree id; empty for a cluster without profiles. */
  default Map<String, QuotaProfile> treeProfiles() {
    return Map.of();
  }

  /** The cluster's trees: the default tree, then each profile's tree by id. */
  default List<String> trees() {
    final List<String> trees = new ArrayList<>();
    trees.add(QuotaTrees.DEFAULT_TREE);
    treeProfiles().keySet().stream().sorted().forEach(trees::add);
    return trees;
  }

  /** Which nodes each tree's pods may run on: what the scheduler filter refuses outside a pool. */
  default NodePools nodePools() {
    return new NodePools(treeProfiles());
  }

  /** Whether group {@code name} is the root of a profile's tree (its {@code quotaName}). */
  default boolean headsTree(String name) {
    return treeRoots().contains(name);
  }

  /** The root group of each profile tree (the profiles' {@code quotaName}s). */
  default Set<String> treeRoots() {
    final Map<String, QuotaProfile> profiles = treeProfiles();
    if (profiles.isEmpty()) {
      return Set.of();
    }
    final Set<String> roots = new HashSet<>();
    profiles.values().forEach(profile -> roots.add(profile.quotaName()));
    return roots;
  }

  /**
   * The PodGroup of {@code key} (its convention, namespace and name) as the engine last read it
   * from podgroups.v1: where a scheduler-plugins or Volcano gang whose pods do not give their
   * minMember finds it (docs/semantics.md 21.2). Empty when not known here (not read yet, deleted,
   * or a view without the engine's inputs).
   */
  default Optional<PodGroupObject> podGroup(PodGroupKey key) {
    return Optional.empty();
  }

  /** The labels of node {@code name} as the engine last read them; empty when not known here. */
  default Optional<Map<String, String>> nodeLabels(String name) {
    return Optional.empty();
  }

  /**
   * A copy of every input of the cluster (groups, pods, nodes) as the engine last read them: what a
   * what-if recomputes from. Empty when this view cannot read them (a last state keeps only the
   * results).
   */
  default Optional<ClusterInputs> inputs() {
    return Optional.empty();
  }

  /** The cluster's history of its groups (section 23), or why it cannot be read. */
  default HistoryAccess history() {
    return new HistoryAccess.NotKept(
        "this engine keeps no history of its groups (history.enabled is false)");
  }
}
