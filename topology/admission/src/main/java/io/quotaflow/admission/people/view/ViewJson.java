package io.quotaflow.admission.people.view;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quotaflow.admission.state.ClusterView;
import io.quotaflow.eviction.OverUse;
import io.quotaflow.quota.Quantities;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.reservation.ReservationStatus;
import io.quotaflow.simulate.HumanUnits;
import io.quotaflow.tree.GroupStatus;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The JSON the web view draws: one row per group with, per tracked dimension, min, max, request,
 * used and runtime as exact integers (canonical units, as the query API) and as the text {@code
 * simulate}'s table prints ({@link HumanUnits}), plus what the page marks: lending, borrowing,
 * over-use and since when, invalid with reason, special.
 */
public final class ViewJson {

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private ViewJson() {}

  /**
   * The row of {@code status}, with its child count, over-use clock, reservation and quota tree
   * read from {@code view}.
   */
  public static ObjectNode row(GroupStatus status, ClusterView view) {
    final ObjectNode row =
        row(
            status,
            view.childNames(status.name()).size(),
            Optional.ofNullable(view.overUsedSince().get(status.name())),
            Optional.ofNullable(view.reservations().get(status.name())));
    // A cluster with ElasticQuotaProfiles has several trees: each row names its own, and the root
    // of a profile's tree says so (docs/semantics.md section 15). Without profiles, both are null.
    if (view.treeProfiles().isEmpty()) {
      row.putNull("tree");
      row.putNull("treeRoot");
    } else {
      row.put("tree", view.treeOf(status.name()));
      row.put("treeRoot", view.headsTree(status.name()));
    }
    return row;
  }

  /** The row of {@code status}, without reservation. */
  public static ObjectNode row(GroupStatus status, int children, Optional<Instant> overSince) {
    return row(status, children, overSince, Optional.empty());
  }

  /**
   * The row of {@code status}; {@code reservation}, when the group reserves nodes, becomes {@code
   * {"nodes": [...], "satisfied": bool, "text": "reserves 2 nodes"}}, else null.
   */
  public static ObjectNode row(
      GroupStatus status,
      int children,
      Optional<Instant> overSince,
      Optional<ReservationStatus> reservation) {
    final ObjectNode row = NODES.objectNode();
    row.put("name", status.name());
    row.put("parent", status.parent());
    row.put("isParent", status.parentGroup());
    row.put("children", children);
    if (SpecialGroups.isSpecial(status.name())) {
      row.put("special", special(status.name()));
    } else {
      row.putNull("special");
    }
    row.put("valid", status.valid());
    status
        .reason()
        .ifPresentOrElse(reason -> row.put("reason", reason), () -> row.putNull("reason"));
    final boolean ordinary = !SpecialGroups.isSpecial(status.name());
    final ArrayNode lends = row.putArray("lends");
    final ArrayNode borrows = row.putArray("borrows");
    final ArrayNode over = row.putArray("over");
    final ArrayNode dims = row.putArray("dims");
    for (final String resource : dimensions(status)) {
      final long min = status.min().get(resource);
      if (ordinary && status.valid() && status.limitedRequest().get(resource) < min) {
        lends.add(resource);
      }
      if (ordinary && status.valid() && status.runtime().get(resource) > min) {
        borrows.add(resource);
      }
      dims.add(dimension(status, resource));
    }
    OverUse.of(status).ifPresent(use -> use.overDimensions().forEach(over::add));
    if (over.isEmpty() || overSince.isEmpty()) {
      row.putNull("overSince");
    } else {
      row.put("overSince", overSince.get().toEpochMilli());
    }
    if (reservation.isEmpty()) {
      row.putNull("reservation");
    } else {
      row.set("reservation", reservation(reservation.get()));
    }
    return row;
  }

  private static ObjectNode reservation(ReservationStatus status) {
    final ObjectNode node = NODES.objectNode();
    final ArrayNode nodes = node.putArray("nodes");
    status.nodes().forEach(nodes::add);
    node.put("satisfied", status.satisfied());
    final int count = status.nodes().size();
    node.put(
        "text",
        status.satisfied()
            ? "reserves " + count + (count == 1 ? " node" : " nodes")
            : (status.valid() ? "reservation not satisfied: " : "reservation invalid: ")
                + status.reason().orElse(""));
    return node;
  }

  /** A resource list as {@code {resource: text}} in the table's units. */
  public static ObjectNode text(ResourceList list) {
    final ObjectNode node = NODES.objectNode();
    list.asMap()
        .forEach((resource, amount) -> node.put(resource, HumanUnits.format(resource, amount)));
    return node;
  }

  /** A resource list as {@code {resource: integer}} in canonical units. */
  public static ObjectNode amounts(ResourceList list) {
    final ObjectNode node = NODES.objectNode();
    list.asMap().forEach(node::put);
    return node;
  }

  /**
   * The unit word the page writes after a number of {@code resource}: the table's header says cpu
   * is in cores; byte amounts carry their suffix; GPUs are counted.
   */
  public static String unit(String resource) {
    if (Quantities.isMilliResource(resource)) {
      return "cores";
    }
    if (resource.endsWith("/gpu") || resource.equals("gpu")) {
      return "GPUs";
    }
    return "";
  }

  private static ObjectNode dimension(GroupStatus status, String resource) {
    final ObjectNode dim = NODES.objectNode();
    dim.put("resource", resource);
    dim.put("unit", unit(resource));
    final ObjectNode text = dim.putObject("text");
    for (final Named list :
        List.of(
            new Named("min", status.min()),
            new Named("max", status.max()),
            new Named("request", status.request()),
            new Named("used", status.used()),
            new Named("runtime", status.runtime()))) {
      if (list.values().contains(resource)) {
        final long amount = list.values().get(resource);
        dim.put(list.name(), amount);
        text.put(list.name(), HumanUnits.format(resource, amount));
      } else {
        // A tracked dimension missing from max is unbounded; others are simply not set.
        dim.putNull(list.name());
        text.put(list.name(), list.name().equals("max") ? "unbounded" : "-");
      }
    }
    return dim;
  }

  private record Named(String name, ResourceList values) {}

  /** Every dimension the group has a number for, as the table prints them. */
  private static TreeSet<String> dimensions(GroupStatus status) {
    final TreeSet<String> names = new TreeSet<>();
    for (final ResourceList list :
        List.of(status.min(), status.max(), status.request(), status.used(), status.runtime())) {
      names.addAll(list.names());
    }
    return names;
  }

  private static String special(String name) {
    if (SpecialGroups.ROOT.equals(name)) {
      return "root";
    }
    return SpecialGroups.SYSTEM.equals(name) ? "system" : "default";
  }
}
