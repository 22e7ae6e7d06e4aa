package io.quotaflow.simulate;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quotaflow.quota.GangSummary;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.reservation.ReservationStatus;
import io.quotaflow.tree.GroupStatus;
import io.quotaflow.tree.PodAssignment;
import io.quotaflow.tree.PodClass;
import java.util.List;
import java.util.Optional;

/**
 * The JSON of one group's status and of one pod's assignment, documented in {@code
 * docs/simulate.md}: the one form that the simulate report and the admission plugin's query API
 * share. Built node by node so that the field order is fixed by this class alone.
 */
public final class StatusJson {

  private StatusJson() {}

  /**
   * A group's status, in the field order the documents give, with {@code reservation} last when the
   * group has one.
   */
  public static ObjectNode quota(GroupStatus group, Optional<ReservationStatus> reservation) {
    final ObjectNode quota = quota(group);
    reservation.ifPresent(status -> quota.set("reservation", reservation(status)));
    return quota;
  }

  /**
   * A reservation's state: {@code nodes}, {@code satisfied}, {@code idle} (the names tools rely
   * on), then {@code policy}, {@code valid}, {@code reason}, {@code target} and {@code minNodes}.
   */
  public static ObjectNode reservation(ReservationStatus status) {
    final ObjectNode node = JsonNodeFactory.instance.objectNode();
    final ArrayNode nodes = node.putArray("nodes");
    status.nodes().forEach(nodes::add);
    node.put("satisfied", status.satisfied());
    node.set("idle", resources(status.idle()));
    node.put("policy", status.policy().label());
    node.put("valid", status.valid());
    if (status.reason().isPresent()) {
      node.put("reason", status.reason().get());
    } else {
      node.putNull("reason");
    }
    node.set("target", resources(status.target()));
    node.put("minNodes", status.minNodes());
    return node;
  }

  /** A group's status, in the field order the documents give. */
  public static ObjectNode quota(GroupStatus group) {
    final ObjectNode quota = JsonNodeFactory.instance.objectNode();
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
    // Only with the guarantee of allocated usage on (docs/semantics.md section 17).
    if (!group.guaranteed().isEmpty()) {
      quota.set("guaranteed", resources(group.guaranteed()));
    }
    if (!group.pastBorrowed().isEmpty()) {
      // Fair share with memory (docs/semantics.md section 24): what lowers the group's weight.
      quota.set("pastBorrowed", resources(group.pastBorrowed()));
    }
    return quota;
  }

  /**
   * A group's {@code gangs} (docs/semantics.md 21.4), set on {@code quota} only when there is one:
   * a group without gangs keeps the JSON it had before gangs were shown.
   */
  public static void gangs(ObjectNode quota, List<GangSummary> gangs) {
    if (gangs.isEmpty()) {
      return;
    }
    final ArrayNode list = quota.putArray("gangs");
    gangs.forEach(gang -> list.add(gang(gang)));
  }

  /**
   * One gang: {@code namespace}, {@code name}, {@code convention}, {@code minMember} (null while
   * not known), {@code members}, {@code running}, {@code pending}, {@code terminating}, {@code
   * state}.
   */
  public static ObjectNode gang(GangSummary gang) {
    final ObjectNode node = JsonNodeFactory.instance.objectNode();
    node.put("namespace", gang.key().namespace());
    node.put("name", gang.key().name());
    node.put("convention", gang.convention());
    if (gang.minMember().isPresent()) {
      node.put("minMember", gang.minMember().getAsInt());
    } else {
      node.putNull("minMember");
    }
    node.put("members", gang.members());
    node.put("running", gang.running());
    node.put("pending", gang.pending());
    node.put("terminating", gang.terminating());
    node.put("state", gang.state().label());
    return node;
  }

  /** A pod's group and class; {@code class} is null for a pod that holds nothing yet. */
  public static ObjectNode pod(PodAssignment assignment) {
    final ObjectNode pod = JsonNodeFactory.instance.objectNode();
    pod.put("namespace", assignment.ref().namespace());
    pod.put("name", assignment.ref().name());
    pod.put("group", assignment.group());
    if (assignment.podClass().isPresent()) {
      pod.put("class", className(assignment.podClass().get()));
    } else {
      pod.putNull("class");
    }
    // Present only when the pod's quota-name label was ignored (issues 24 and 39).
    assignment.unbound().ifPresent(reason -> pod.put("unboundLabel", reason));
    return pod;
  }

  /** The documented name of a pod class. */
  public static String className(PodClass podClass) {
    return switch (podClass) {
      case IN_QUOTA -> "in-quota";
      case OVER_QUOTA -> "over-quota";
    };
  }

  /** A resource list as {@code {resource: integer}} in canonical units, by name. */
  public static ObjectNode resources(ResourceList list) {
    final ObjectNode node = JsonNodeFactory.instance.objectNode();
    // ResourceList iterates in name order, so the JSON is stable.
    list.asMap().forEach(node::put);
    return node;
  }
}
