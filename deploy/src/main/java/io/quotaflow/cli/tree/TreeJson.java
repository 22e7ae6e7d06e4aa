package io.quotaflow.cli.tree;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.tree.GroupStatus;
import io.quotaflow.tree.PodAssignment;
import io.quotaflow.tree.PodClass;
import io.quotaflow.tree.TreeSnapshot;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The query API's JSON read back into the quota core's types, so that {@code simulate}'s table can
 * print it: the tree answer ({@code {"cluster", "total", "quotas"}}) and the pods of the group
 * answers ({@code {"cluster", "quota", "pods"}}), as docs/admission.md describes them.
 */
final class TreeJson {

  private TreeJson() {}

  /**
   * The snapshot of a tree answer and the pods of its groups.
   *
   * @throws QueryException when the JSON lacks a documented field or holds a non-integer amount
   */
  /** The line naming one entry of a cluster's {@code trees}, as simulate's table names it. */
  static String heading(final JsonNode tree) {
    final String id = tree.path("tree").asText();
    if (!tree.path("profile").isTextual()) {
      return "Tree " + id + ": the groups outside every profile's tree, all nodes";
    }
    return "Tree "
        + id
        + ": ElasticQuotaProfile "
        + tree.path("profile").asText()
        + ", root "
        + tree.path("root").asText()
        + ", resourceRatio "
        + tree.path("resourceRatio").asText();
  }

  static TreeSnapshot snapshot(final JsonNode tree, final List<JsonNode> groupAnswers) {
    final List<GroupStatus> groups = new ArrayList<>();
    for (final JsonNode quota : array(tree, "quotas")) {
      groups.add(group(quota));
    }
    final List<PodAssignment> pods = new ArrayList<>();
    for (final JsonNode answer : groupAnswers) {
      for (final JsonNode pod : array(answer, "pods")) {
        pods.add(pod(pod));
      }
    }
    pods.sort((a, b) -> a.ref().compareTo(b.ref()));
    return new TreeSnapshot(resources(tree, "total"), groups, pods);
  }

  /** Whether a quota object of the tree answer is a parent group (parents hold no pods). */
  static boolean isParent(final JsonNode quota) {
    return quota.path("isParent").asBoolean(false);
  }

  private static GroupStatus group(final JsonNode quota) {
    final String reason = quota.path("reason").isTextual() ? quota.path("reason").asText() : "";
    return new GroupStatus(
        text(quota, "name"),
        quota.path("parent").isTextual() ? quota.path("parent").asText() : "",
        isParent(quota),
        quota.path("valid").asBoolean(true),
        reason.isEmpty() ? Optional.empty() : Optional.of(reason),
        resources(quota, "min"),
        resources(quota, "scaledMin"),
        resources(quota, "max"),
        resources(quota, "sharedWeight"),
        resources(quota, "request"),
        resources(quota, "limitedRequest"),
        resources(quota, "used"),
        // Not part of the API's JSON, and not shown in the table.
        ResourceList.empty(),
        ResourceList.empty(),
        resources(quota, "runtime"));
  }

  private static PodAssignment pod(final JsonNode pod) {
    final JsonNode podClass = pod.path("class");
    return new PodAssignment(
        new PodRef(text(pod, "namespace"), text(pod, "name")),
        text(pod, "group"),
        podClass.isTextual() ? Optional.of(podClass(podClass.asText())) : Optional.empty(),
        Optional.empty());
  }

  private static PodClass podClass(final String name) {
    return switch (name) {
      case "in-quota" -> PodClass.IN_QUOTA;
      case "over-quota" -> PodClass.OVER_QUOTA;
      default -> throw new QueryException("unknown pod class '" + name + "' in the answer");
    };
  }

  private static ResourceList resources(final JsonNode parent, final String field) {
    final JsonNode node = parent.path(field);
    if (!node.isObject()) {
      throw missing(field);
    }
    final Map<String, Long> amounts = new HashMap<>();
    for (final Map.Entry<String, JsonNode> entry : node.properties()) {
      if (!entry.getValue().canConvertToExactIntegral() || !entry.getValue().canConvertToLong()) {
        throw new QueryException(
            "'" + field + "." + entry.getKey() + "' is not an integer amount in the answer");
      }
      amounts.put(entry.getKey(), entry.getValue().longValue());
    }
    return ResourceList.of(amounts);
  }

  private static Iterable<JsonNode> array(final JsonNode parent, final String field) {
    final JsonNode node = parent.path(field);
    if (!node.isArray()) {
      throw missing(field);
    }
    return node;
  }

  private static String text(final JsonNode parent, final String field) {
    final JsonNode node = parent.path(field);
    if (!node.isTextual()) {
      throw missing(field);
    }
    return node.asText();
  }

  private static QueryException missing(final String field) {
    return new QueryException("the answer has no '" + field + "' as documented");
  }
}
