package io.quotaflow.simulate;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quotaflow.quota.GangSummary;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.reservation.ReservationStatus;
import io.quotaflow.tree.GroupStatus;
import io.quotaflow.tree.PodAssignment;
import io.quotaflow.tree.TreeSnapshot;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The JSON form of a snapshot, documented in {@code docs/simulate.md}: one object with {@code
 * total}, {@code quotas} and {@code pods}, every resource list as {@code {resource: integer}} in
 * canonical units, {@code quotas[].reservation} for a group with a node reservation and {@code
 * quotas[].gangs} for a group with gangs. Built node by node so that the field order is fixed by
 * this class alone.
 */
final class JsonReport {

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final JsonMapper JSON =
      JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

  private JsonReport() {}

  static String render(TreeSnapshot snapshot, Map<String, ReservationStatus> reservations) {
    return render(snapshot, reservations, Map.of());
  }

  /** The same with each group's {@code gangs} (only groups with a gang are keys). */
  static String render(
      TreeSnapshot snapshot,
      Map<String, ReservationStatus> reservations,
      Map<String, List<GangSummary>> gangs) {
    try {
      return JSON.writeValueAsString(toJson(snapshot, reservations, gangs)) + "\n";
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The JSON of a cluster with ElasticQuotaProfiles: the default tree's {@code total}, then {@code
   * quotas} and {@code pods} of every tree, each quota with its {@code tree}, and {@code trees}:
   * each tree's id, profile, root, ratio and total.
   */
  static String render(List<TreeReport> trees) {
    final ObjectNode report = NODES.objectNode();
    report.set("total", StatusJson.resources(trees.get(0).tree().snapshot().total()));
    final ArrayNode quotas = report.putArray("quotas");
    final ArrayNode pods = report.putArray("pods");
    final ArrayNode treeList = report.putArray("trees");
    for (final TreeReport tree : trees) {
      final TreeSnapshot snapshot = tree.tree().snapshot();
      for (final GroupStatus group : snapshot.groups()) {
        final ObjectNode quota =
            StatusJson.quota(group, Optional.ofNullable(tree.reservations().get(group.name())));
        quota.put("tree", tree.tree().tree());
        StatusJson.gangs(quota, tree.gangs().getOrDefault(group.name(), List.of()));
        quotas.add(quota);
      }
      snapshot.pods().forEach(pod -> pods.add(StatusJson.pod(pod)));
      final ObjectNode entry = treeList.addObject();
      entry.put("tree", tree.tree().tree());
      if (tree.tree().profile().isPresent()) {
        entry.put("profile", tree.tree().profile().get().name());
        entry.put("root", tree.tree().profile().get().quotaName());
        entry.put("resourceRatio", tree.tree().profile().get().ratio().toString());
      } else {
        entry.putNull("profile");
        entry.put("root", SpecialGroups.ROOT);
        entry.putNull("resourceRatio");
      }
      final ArrayNode nodes = entry.putArray("nodes");
      tree.tree().inputs().nodes().stream().map(n -> n.name()).sorted().forEach(nodes::add);
      entry.set("total", StatusJson.resources(snapshot.total()));
    }
    try {
      return JSON.writeValueAsString(report) + "\n";
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  static ObjectNode toJson(TreeSnapshot snapshot, Map<String, ReservationStatus> reservations) {
    return toJson(snapshot, reservations, Map.of());
  }

  static ObjectNode toJson(
      TreeSnapshot snapshot,
      Map<String, ReservationStatus> reservations,
      Map<String, List<GangSummary>> gangs) {
    final ObjectNode report = NODES.objectNode();
    report.set("total", StatusJson.resources(snapshot.total()));
    final ArrayNode quotas = report.putArray("quotas");
    for (final GroupStatus group : snapshot.groups()) {
      final ObjectNode quota =
          StatusJson.quota(group, Optional.ofNullable(reservations.get(group.name())));
      StatusJson.gangs(quota, gangs.getOrDefault(group.name(), List.of()));
      quotas.add(quota);
    }
    final ArrayNode pods = report.putArray("pods");
    for (final PodAssignment pod : snapshot.pods()) {
      pods.add(StatusJson.pod(pod));
    }
    return report;
  }
}
