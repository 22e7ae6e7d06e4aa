package io.quotaflow.simulate;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.tree.GroupStatus;
import io.quotaflow.tree.PodAssignment;
import io.quotaflow.tree.PodClass;
import io.quotaflow.tree.TreeSnapshot;
import java.io.UncheckedIOException;

/**
 * The JSON form of a snapshot, documented in {@code docs/simulate.md}: one object with {@code
 * total}, {@code quotas} and {@code pods}, every resource list as {@code {resource: integer}} in
 * canonical units. Built node by node so that the field order is fixed by this class alone.
 */
final class JsonReport {

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final JsonMapper JSON =
      JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

  private JsonReport() {}

  static String render(TreeSnapshot snapshot) {
    try {
      return JSON.writeValueAsString(toJson(snapshot)) + "\n";
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  static ObjectNode toJson(TreeSnapshot snapshot) {
    final ObjectNode report = NODES.objectNode();
    report.set("total", resources(snapshot.total()));
    final ArrayNode quotas = report.putArray("quotas");
    for (final GroupStatus group : snapshot.groups()) {
      quotas.add(quota(group));
    }
    final ArrayNode pods = report.putArray("pods");
    for (final PodAssignment pod : snapshot.pods()) {
      pods.add(pod(pod));
    }
    return report;
  }

  private static ObjectNode quota(GroupStatus group) {
    final ObjectNode quota = NODES.objectNode();
    quota.put("name", group.name());
    if (group.parent().isEmpty()) {
      quota.putNull("parent");
    } else {
      quota.put("parent", group.parent());
    }
    quota.put("isParent", group.parentGroup());
    quota.put("valid", group.valid());
    if (group.reason().isPresent()) {
      quota.put("reason", group.reason().get());
    } else {
      quota.putNull("reason");
    }
    quota.set("min", resources(group.min()));
    quota.set("scaledMin", resources(group.scaledMin()));
    quota.set("max", resources(group.max()));
    quota.set("sharedWeight", resources(group.sharedWeight()));
    quota.set("request", resources(group.request()));
    quota.set("limitedRequest", resources(group.limitedRequest()));
    quota.set("used", resources(group.used()));
    quota.set("runtime", resources(group.runtime()));
    return quota;
  }

  private static ObjectNode pod(PodAssignment assignment) {
    final ObjectNode pod = NODES.objectNode();
    pod.put("namespace", assignment.ref().namespace());
    pod.put("name", assignment.ref().name());
    pod.put("group", assignment.group());
    if (assignment.podClass().isPresent()) {
      pod.put("class", className(assignment.podClass().get()));
    } else {
      pod.putNull("class");
    }
    return pod;
  }

  static String className(PodClass podClass) {
    return switch (podClass) {
      case IN_QUOTA -> "in-quota";
      case OVER_QUOTA -> "over-quota";
    };
  }

  private static ObjectNode resources(ResourceList list) {
    final ObjectNode node = NODES.objectNode();
    // ResourceList iterates in name order, so the JSON is stable.
    list.asMap().forEach(node::put);
    return node;
  }
}
