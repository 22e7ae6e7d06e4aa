package io.quotaflow.simulate;

import io.quotaflow.quota.GangSummary;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.reservation.ReservationStatus;
import io.quotaflow.tree.GroupStatus;
import io.quotaflow.tree.PodAssignment;
import io.quotaflow.tree.TreeSnapshot;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The human form of a snapshot: the tree indented, one line per group and one per resource it
 * shows, with min, max, request, used and runtime in {@link HumanUnits}, and a line per gang under
 * a group that has gangs; then every pod with its group and class. Readable at 100 columns for
 * names of ordinary length. {@code simulate} and {@code quotaflow local} print trees with it.
 */
public final class TableReport {

  private static final String[] COLUMNS = {"MIN", "MAX", "REQUEST", "USED", "RUNTIME"};
  private static final int VALUE_WIDTH = 10;
  private static final String NOT_SET = "-";

  private TableReport() {}

  /** The tree and pods of {@code snapshot}, as {@code simulate --output table} prints them. */
  public static String render(TreeSnapshot snapshot) {
    return render(snapshot, Map.of());
  }

  /**
   * The tree and pods of {@code snapshot}, with a {@code reservation} line under each group that
   * has one in {@code reservations} (by group name).
   */
  public static String render(TreeSnapshot snapshot, Map<String, ReservationStatus> reservations) {
    return render(snapshot, reservations, Map.of(), "Cluster total: ");
  }

  /**
   * The same with a {@code gang} line under each group for each of its gangs in {@code gangs} (by
   * group name).
   */
  public static String render(
      TreeSnapshot snapshot,
      Map<String, ReservationStatus> reservations,
      Map<String, List<GangSummary>> gangs) {
    return render(snapshot, reservations, gangs, "Cluster total: ");
  }

  /** One tree of a cluster with ElasticQuotaProfiles: its total labelled as the tree's. */
  public static String renderTree(TreeSnapshot snapshot) {
    return render(snapshot, Map.of(), Map.of(), "Tree total: ");
  }

  /**
   * The trees of a cluster with ElasticQuotaProfiles, one after the other, each under a line that
   * names it, with its total (times its ratio) and its own pods.
   */
  public static String render(List<TreeReport> trees) {
    final StringBuilder out = new StringBuilder();
    for (final TreeReport tree : trees) {
      if (out.length() > 0) {
        out.append('\n');
      }
      out.append("=== ").append(tree.heading()).append('\n');
      out.append(render(tree.tree().snapshot(), tree.reservations(), tree.gangs(), "Tree total: "));
    }
    return out.toString();
  }

  private static String render(
      TreeSnapshot snapshot,
      Map<String, ReservationStatus> reservations,
      Map<String, List<GangSummary>> gangs,
      String totalLabel) {
    final StringBuilder out = new StringBuilder();
    out.append(totalLabel).append(inline(snapshot.total())).append('\n');
    out.append("(cpu in cores, memory in Gi; ")
        .append(NOT_SET)
        .append(": not set, a dimension without max is unbounded)\n\n");
    quotas(snapshot, reservations, gangs, out);
    out.append('\n');
    pods(snapshot.pods(), out);
    return out.toString();
  }

  private static void quotas(
      TreeSnapshot snapshot,
      Map<String, ReservationStatus> reservations,
      Map<String, List<GangSummary>> gangs,
      StringBuilder out) {
    final Map<String, Integer> depths = depths(snapshot.groups());
    int nameWidth = "QUOTA / RESOURCE".length();
    for (final GroupStatus group : snapshot.groups()) {
      final int indent = 2 * depths.get(group.name());
      for (final String resource : dimensions(group)) {
        nameWidth = Math.max(nameWidth, indent + 2 + resource.length());
      }
    }
    out.append(pad("QUOTA / RESOURCE", nameWidth));
    for (final String column : COLUMNS) {
      out.append(' ').append(alignRight(column, VALUE_WIDTH));
    }
    out.append('\n');
    for (final GroupStatus group : snapshot.groups()) {
      final String indent = " ".repeat(2 * depths.get(group.name()));
      out.append(indent).append(group.name());
      if (group.parentGroup()) {
        out.append("  [parent]");
      }
      if (!group.valid()) {
        out.append("  INVALID: ").append(group.reason().orElse("(no reason given)"));
      }
      out.append('\n');
      for (final String resource : dimensions(group)) {
        out.append(pad(indent + "  " + resource, nameWidth));
        for (final ResourceList values :
            List.of(group.min(), group.max(), group.request(), group.used(), group.runtime())) {
          out.append(' ').append(alignRight(value(values, resource), VALUE_WIDTH));
        }
        out.append('\n');
      }
      final ReservationStatus reservation = reservations.get(group.name());
      if (reservation != null) {
        out.append(indent).append("  reservation ").append(reservation(reservation)).append('\n');
      }
      for (final GangSummary gang : gangs.getOrDefault(group.name(), List.of())) {
        out.append(indent).append("  ").append(gang(gang)).append('\n');
      }
    }
  }

  /**
   * One line of a gang: {@code gang ns/name: state (r of m members running, p pending[, t
   * terminating]; minMember n|unknown; convention)}.
   */
  static String gang(GangSummary gang) {
    final StringBuilder line =
        new StringBuilder("gang ")
            .append(gang.key())
            .append(": ")
            .append(gang.state().label())
            .append(" (")
            .append(gang.running())
            .append(" of ")
            .append(gang.members())
            .append(gang.members() == 1 ? " member" : " members")
            .append(" running, ")
            .append(gang.pending())
            .append(" pending");
    if (gang.terminating() > 0) {
      line.append(", ").append(gang.terminating()).append(" terminating");
    }
    line.append("; minMember ")
        .append(
            gang.minMember().isPresent() ? String.valueOf(gang.minMember().getAsInt()) : "unknown")
        .append("; ")
        .append(gang.convention())
        .append(')');
    return line.toString();
  }

  /**
   * One line of a reservation: its policy, then the locked nodes with what they cover and what is
   * idle on them, or why nothing is locked.
   */
  static String reservation(ReservationStatus status) {
    final StringBuilder line = new StringBuilder(status.policy().label()).append(": ");
    if (!status.valid()) {
      return line.append("INVALID: ")
          .append(status.reason().orElse("(no reason given)"))
          .toString();
    }
    if (!status.satisfied()) {
      return line.append("NOT SATISFIED: ")
          .append(status.reason().orElse("(no reason given)"))
          .toString();
    }
    line.append("reserves ")
        .append(status.nodes().size())
        .append(status.nodes().size() == 1 ? " node" : " nodes");
    if (!status.nodes().isEmpty()) {
      line.append(" (").append(String.join(", ", status.nodes())).append(')');
    }
    line.append(" for ").append(inline(status.target()));
    if (status.minNodes() > 0) {
      line.append(", at least ")
          .append(status.minNodes())
          .append(status.minNodes() == 1 ? " node" : " nodes");
    }
    return line.append("; idle ").append(inline(status.idle())).toString();
  }

  private static void pods(List<PodAssignment> pods, StringBuilder out) {
    int podWidth = "POD".length();
    int groupWidth = "GROUP".length();
    for (final PodAssignment pod : pods) {
      podWidth = Math.max(podWidth, pod.ref().toString().length());
      groupWidth = Math.max(groupWidth, pod.group().length());
    }
    out.append(pad("POD", podWidth))
        .append("  ")
        .append(pad("GROUP", groupWidth))
        .append("  CLASS\n");
    for (final PodAssignment pod : pods) {
      out.append(pad(pod.ref().toString(), podWidth))
          .append("  ")
          .append(pad(pod.group(), groupWidth))
          .append("  ")
          .append(pod.podClass().map(StatusJson::className).orElse(NOT_SET));
      pod.problem().ifPresent(problem -> out.append("  PROBLEM: ").append(problem));
      // Issues 24 and 39: a label the engine ignores, and why; the pod webhook denies such pods.
      pod.unbound().ifPresent(reason -> out.append("  LABEL IGNORED: ").append(reason));
      out.append('\n');
    }
  }

  /** The dimensions worth a line: every one the group has a number for. */
  private static Set<String> dimensions(GroupStatus group) {
    final Set<String> names = new TreeSet<>();
    for (final ResourceList list :
        List.of(group.min(), group.max(), group.request(), group.used(), group.runtime())) {
      names.addAll(list.names());
    }
    return names;
  }

  /** Depth below the root; a group whose parent chain breaks off (or loops) stops there. */
  private static Map<String, Integer> depths(List<GroupStatus> groups) {
    final Map<String, String> parents = new HashMap<>();
    groups.forEach(group -> parents.put(group.name(), group.parent()));
    final Map<String, Integer> depths = new HashMap<>();
    for (final GroupStatus group : groups) {
      int depth = 0;
      final Set<String> seen = new HashSet<>();
      String current = group.name();
      seen.add(current);
      while (parents.containsKey(parents.get(current)) && seen.add(parents.get(current))) {
        current = parents.get(current);
        depth++;
      }
      depths.put(group.name(), depth);
    }
    return depths;
  }

  private static String inline(ResourceList list) {
    if (list.isEmpty()) {
      return "nothing";
    }
    final StringBuilder text = new StringBuilder();
    list.asMap()
        .forEach(
            (resource, amount) ->
                text.append(text.length() == 0 ? "" : ", ")
                    .append(resource)
                    .append(' ')
                    .append(HumanUnits.format(resource, amount)));
    return text.toString();
  }

  private static String value(ResourceList list, String resource) {
    return list.contains(resource) ? HumanUnits.format(resource, list.get(resource)) : NOT_SET;
  }

  private static String pad(String text, int width) {
    return text.length() >= width ? text : text + " ".repeat(width - text.length());
  }

  private static String alignRight(String text, int width) {
    return text.length() >= width ? text : " ".repeat(width - text.length()) + text;
  }
}
