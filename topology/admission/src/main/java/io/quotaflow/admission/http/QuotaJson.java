package io.quotaflow.admission.http;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
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

/**
 * The query API's JSON: the same objects and field names as {@code quotaflow simulate --output
 * json} (docs/simulate.md), every resource list as {@code {resource: integer}} in canonical units.
 */
final class QuotaJson {

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
    final ObjectNode node = Json.object();
    node.put("cluster", cluster);
    node.set("quota", StatusJson.quota(group, reservation));
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
    final Map<String, GroupStatus> byName = new TreeMap<>();
    groups.forEach(group -> byName.put(group.name(), group));
    final Map<String, List<String>> children = new HashMap<>();
    byName.values().stream()
        .filter(group -> !group.parent().isEmpty())
        .forEach(
            group ->
                children.computeIfAbsent(group.parent(), p -> new ArrayList<>()).add(group.name()));
    final Set<String> visited = new LinkedHashSet<>();
    if (byName.containsKey(SpecialGroups.ROOT)) {
      walk(SpecialGroups.ROOT, children, visited);
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
