package io.quotaflow.admission.people.query;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quotaflow.admission.endpoint.Json;
import io.quotaflow.admission.people.LiveGangs;
import io.quotaflow.admission.state.ClusterView;
import io.quotaflow.profile.QuotaProfile;
import io.quotaflow.profile.QuotaTrees;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.reservation.ReservationStatus;
import io.quotaflow.simulate.StatusJson;
import io.quotaflow.tree.GroupStatus;
import io.quotaflow.tree.PodAssignment;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The query API's JSON: the same objects and field names as {@code quotaflow simulate --output
 * json} (docs/simulate.md), every resource list as {@code {resource: integer}} in canonical units.
 */
public final class QuotaJson {

  private QuotaJson() {}

  /** {@code {"cluster", "total", "quotas"}}: every group, the root first, then depth-first. */
  static ObjectNode tree(String cluster, List<GroupStatus> groups) {
    return tree(cluster, groups, Map.of());
  }

  /**
   * {@code {"cluster", "total", "quotas"}}, each reserving group's quota with its {@code
   * reservation} (by group name in {@code reservations}).
   */
  static ObjectNode tree(
      String cluster, List<GroupStatus> groups, Map<String, ReservationStatus> reservations) {
    final ObjectNode tree = Json.object();
    tree.put("cluster", cluster);
    final List<GroupStatus> ordered = treeOrder(groups);
    tree.set("total", Json.resources(clusterTotal(ordered)));
    final ArrayNode quotas = tree.putArray("quotas");
    ordered.forEach(
        group ->
            quotas.add(
                StatusJson.quota(group, Optional.ofNullable(reservations.get(group.name())))));
    return tree;
  }

  /**
   * The cluster total, as {@code simulate}'s {@code "total"}: the sum of the counted nodes'
   * allocatable. The runtime records do not carry it, but the system group's runtime is reported as
   * exactly that total (docs/semantics.md, special groups); the root's runtime is less, the total
   * after the system and default groups' use.
   */
  private static ResourceList clusterTotal(List<GroupStatus> groups) {
    return groups.stream()
        .filter(g -> SpecialGroups.SYSTEM.equals(g.name()))
        .map(GroupStatus::runtime)
        .findFirst()
        .orElse(ResourceList.empty());
  }

  /**
   * The quota trees of a cluster (docs/semantics.md section 15): each profile tree's profile and
   * the tree of a group. Without profiles the JSON carries no tree fields, as {@code simulate}'s.
   *
   * @param profiles each profile tree's profile, by tree id
   * @param treeOf the tree of a group, by name
   */
  record Trees(Map<String, QuotaProfile> profiles, Function<String, String> treeOf) {

    static Trees of(ClusterView view) {
      return new Trees(view.treeProfiles(), view::treeOf);
    }

    static Trees none() {
      return new Trees(Map.of(), name -> QuotaTrees.DEFAULT_TREE);
    }
  }

  /**
   * {@code {"cluster", "total", "quotas"}} of a cluster with quota trees: without profiles (and
   * without {@code only}) exactly {@link #tree(String, List, Map)}. With profiles each quota has
   * its {@code tree}, the trees come one after the other (the default tree first, then by id), and
   * {@code trees} lists each tree's {@code tree}, {@code profile}, {@code root}, {@code
   * resourceRatio} and {@code total}. With {@code only}, only that tree's groups are listed and
   * {@code total} is that tree's.
   */
  static ObjectNode tree(
      String cluster,
      List<GroupStatus> groups,
      Map<String, ReservationStatus> reservations,
      Trees trees,
      Optional<String> only) {
    if (trees.profiles().isEmpty()) {
      return tree(cluster, groups, reservations);
    }
    final Map<String, List<GroupStatus>> byTree = new TreeMap<>();
    for (final GroupStatus group : groups) {
      byTree.computeIfAbsent(trees.treeOf().apply(group.name()), t -> new ArrayList<>()).add(group);
    }
    final List<String> ids = new ArrayList<>();
    ids.add(QuotaTrees.DEFAULT_TREE);
    trees.profiles().keySet().stream().sorted().forEach(ids::add);
    only.ifPresent(id -> ids.retainAll(List.of(id)));
    final ObjectNode tree = Json.object();
    tree.put("cluster", cluster);
    final ArrayNode quotas = Json.object().putArray("quotas");
    final ArrayNode list = Json.object().putArray("trees");
    ResourceList total = clusterTotal(groups);
    for (final String id : ids) {
      final Optional<QuotaProfile> profile = Optional.ofNullable(trees.profiles().get(id));
      final String root = profile.map(QuotaProfile::quotaName).orElse(SpecialGroups.ROOT);
      final List<GroupStatus> members = byTree.getOrDefault(id, List.of());
      // A profile tree's total is its root's runtime (min = max = the total, section 15).
      final ResourceList treeTotal =
          profile.isEmpty()
              ? clusterTotal(groups)
              : members.stream()
                  .filter(g -> g.name().equals(root))
                  .map(GroupStatus::runtime)
                  .findFirst()
                  .orElse(ResourceList.empty());
      if (only.isPresent()) {
        total = treeTotal;
      }
      for (final GroupStatus group : treeOrder(members, root)) {
        final ObjectNode quota =
            StatusJson.quota(group, Optional.ofNullable(reservations.get(group.name())));
        quota.put("tree", id);
        quotas.add(quota);
      }
      final ObjectNode entry = list.addObject();
      entry.put("tree", id);
      if (profile.isPresent()) {
        entry.put("profile", profile.get().name());
        entry.put("resourceRatio", profile.get().ratio().toString());
      } else {
        entry.putNull("profile");
        entry.putNull("resourceRatio");
      }
      entry.put("root", root);
      entry.set("total", Json.resources(treeTotal));
    }
    tree.set("total", Json.resources(total));
    tree.set("quotas", quotas);
    tree.set("trees", list);
    return tree;
  }

  /** One group with its pods: {@code {"cluster", "quota", "pods"}}. */
  static ObjectNode group(String cluster, GroupStatus group, List<PodAssignment> pods) {
    return group(cluster, group, pods, Optional.empty());
  }

  /** One group with its pods and, when it reserves nodes, its {@code reservation}. */
  static ObjectNode group(
      String cluster,
      GroupStatus group,
      List<PodAssignment> pods,
      Optional<ReservationStatus> reservation) {
    return group(cluster, group, pods, reservation, Trees.none());
  }

  /**
   * One group with its pods and reservation, and its {@code tree} when the cluster has profiles.
   */
  static ObjectNode group(
      String cluster,
      GroupStatus group,
      List<PodAssignment> pods,
      Optional<ReservationStatus> reservation,
      Trees trees) {
    return group(cluster, group, pods, reservation, trees, List.of());
  }

  /**
   * The same with the group's {@code gangs} last in its quota, as {@code simulate} prints them,
   * when it has any ({@link LiveGangs}).
   */
  static ObjectNode group(
      String cluster,
      GroupStatus group,
      List<PodAssignment> pods,
      Optional<ReservationStatus> reservation,
      Trees trees,
      List<ObjectNode> gangs) {
    final ObjectNode node = Json.object();
    node.put("cluster", cluster);
    final ObjectNode quota = StatusJson.quota(group, reservation);
    if (!trees.profiles().isEmpty()) {
      quota.put("tree", trees.treeOf().apply(group.name()));
    }
    if (!gangs.isEmpty()) {
      quota.putArray("gangs").addAll(gangs);
    }
    node.set("quota", quota);
    final ArrayNode list = node.putArray("pods");
    pods.stream()
        .sorted((a, b) -> a.ref().compareTo(b.ref()))
        .forEach(pod -> list.add(StatusJson.pod(pod)));
    return node;
  }

  /**
   * The root first, then depth-first with siblings by name; groups the walk does not reach (on a
   * cycle, under a missing parent) after the rest, by name: the order of the simulate report.
   */
  static List<GroupStatus> treeOrder(List<GroupStatus> groups) {
    return treeOrder(groups, SpecialGroups.ROOT);
  }

  /** {@link #treeOrder(List)} from {@code root}: a profile's tree starts at its root group. */
  static List<GroupStatus> treeOrder(List<GroupStatus> groups, String root) {
    final Map<String, GroupStatus> byName = new TreeMap<>();
    groups.forEach(group -> byName.put(group.name(), group));
    final Map<String, List<String>> children = new HashMap<>();
    byName.values().stream()
        .filter(group -> !group.parent().isEmpty())
        .forEach(
            group ->
                children.computeIfAbsent(group.parent(), p -> new ArrayList<>()).add(group.name()));
    final Set<String> visited = new LinkedHashSet<>();
    if (byName.containsKey(root)) {
      walk(root, children, visited);
    }
    final List<GroupStatus> ordered = new ArrayList<>();
    visited.forEach(name -> ordered.add(byName.get(name)));
    byName.forEach(
        (name, group) -> {
          if (!visited.contains(name)) {
            ordered.add(group);
          }
        });
    return ordered;
  }

  private static void walk(String name, Map<String, List<String>> children, Set<String> visited) {
    // Iterative, so a deep or cyclic tree cannot overflow the stack.
    final java.util.ArrayDeque<String> stack = new java.util.ArrayDeque<>();
    stack.push(name);
    while (!stack.isEmpty()) {
      final String current = stack.pop();
      if (!visited.add(current)) {
        continue;
      }
      final List<String> kids = children.getOrDefault(current, List.of());
      for (int i = kids.size() - 1; i >= 0; i--) {
        stack.push(kids.get(i));
      }
    }
  }
}
