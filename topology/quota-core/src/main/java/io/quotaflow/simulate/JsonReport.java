package io.quotaflow.simulate;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quotaflow.reservation.ReservationStatus;
import io.quotaflow.tree.GroupStatus;
import io.quotaflow.tree.PodAssignment;
import io.quotaflow.tree.TreeSnapshot;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Optional;

/**
 * The JSON form of a snapshot, documented in {@code docs/simulate.md}: one object with {@code
 * total}, {@code quotas} and {@code pods}, every resource list as {@code {resource: integer}} in
 * canonical units, and {@code quotas[].reservation} for a group with a node reservation. Built node
 * by node so that the field order is fixed by this class alone.
 */
final class JsonReport {

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final JsonMapper JSON =
      JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

  private JsonReport() {}

  static String render(TreeSnapshot snapshot, Map<String, ReservationStatus> reservations) {
    try {
      return JSON.writeValueAsString(toJson(snapshot, reservations)) + "\n";
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  static ObjectNode toJson(TreeSnapshot snapshot, Map<String, ReservationStatus> reservations) {
    final ObjectNode report = NODES.objectNode();
    report.set("total", StatusJson.resources(snapshot.total()));
    final ArrayNode quotas = report.putArray("quotas");
    for (final GroupStatus group : snapshot.groups()) {
      quotas.add(StatusJson.quota(group, Optional.ofNullable(reservations.get(group.name()))));
    }
    final ArrayNode pods = report.putArray("pods");
    for (final PodAssignment pod : snapshot.pods()) {
      pods.add(StatusJson.pod(pod));
    }
    return report;
  }
}
