package io.quotaflow.explain;

import io.quotaflow.explain.RuntimeExplanation.Level;
import io.quotaflow.explain.RuntimeExplanation.Participant;
import io.quotaflow.explain.RuntimeExplanation.RequestDerivation;
import io.quotaflow.explain.RuntimeExplanation.Round;
import io.quotaflow.explain.RuntimeExplanation.Share;
import io.quotaflow.quota.Quantities;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * An explanation as text for people, amounts as a user types them ({@code 4}, {@code 16Gi}, {@code
 * 1500m}). Deterministic: the same explanation always reads the same.
 */
public final class ExplanationText {

  private final String resource;

  private ExplanationText(String resource) {
    this.resource = resource;
  }

  /** {@code explanation} in lines of text. */
  public static String of(RuntimeExplanation explanation) {
    return new ExplanationText(explanation.resource()).render(explanation);
  }

  /** {@code reach} in lines of text. */
  public static String of(Reach reach) {
    return new ExplanationText(reach.resource()).render(reach);
  }

  /** {@code pod}'s explanation in lines of text. */
  public static String of(PodExplanation pod) {
    return new ExplanationText("").render(pod);
  }

  private String render(PodExplanation e) {
    final StringBuilder out = new StringBuilder();
    out.append("pod ").append(e.pod()).append(": ").append(e.phase());
    out.append(e.node().map(node -> ", on node " + node).orElse(", on no node yet"));
    out.append("; asks ").append(amounts(e.request())).append('\n');
    final PodExplanation.GroupResolution group = e.group();
    out.append("Group: ").append(group.name()).append(", ").append(by(group.by(), e)).append('\n');
    group
        .labelIgnored()
        .ifPresent(why -> out.append("  its label was ignored: ").append(why).append('\n'));
    group
        .problem()
        .ifPresent(why -> out.append("  it cannot be charged there: ").append(why).append('\n'));
    e.quotaClass().ifPresent(basis -> out.append(classBasis(group.name(), basis)));
    e.admission().ifPresent(admission -> out.append(admission(admission)));
    return out.toString();
  }

  private static String amounts(java.util.Map<String, Long> amounts) {
    return amounts.isEmpty()
        ? "nothing"
        : Quantities.format(io.quotaflow.quota.ResourceList.of(amounts));
  }

  private static String by(String by, PodExplanation e) {
    return switch (by) {
      case "LABEL" -> "named by its quota-name label";
      case "NAMESPACE_NAME" -> "the group named like its namespace " + e.pod().namespace();
      case "NAMESPACES_ANNOTATION" ->
          "whose namespaces annotation lists its namespace " + e.pod().namespace();
      default -> "as nothing names a group for its namespace " + e.pod().namespace();
    };
  }

  private static String classBasis(String group, PodExplanation.ClassBasis basis) {
    final StringBuilder out = new StringBuilder();
    out.append("Class: ")
        .append(basis.podClass())
        .append(": counting ")
        .append(group)
        .append("'s running pods oldest first, up to and including this one:\n");
    for (final PodExplanation.ClassDimension d : basis.dimensions()) {
      out.append("  ")
          .append(d.resource())
          .append(": ")
          .append(Quantities.format(d.resource(), d.before()))
          .append(" before it, ")
          .append(Quantities.format(d.resource(), d.with()))
          .append(" with it, ")
          .append(d.with() <= d.min() ? "within" : "above")
          .append(" its min ")
          .append(Quantities.format(d.resource(), d.min()))
          .append('\n');
    }
    return out.toString();
  }

  private static String admission(PodExplanation.Admission admission) {
    if (admission.allowed()) {
      return "Admission now: it fits; the scheduler filter lets it onto a node.\n";
    }
    final StringBuilder out = new StringBuilder("Admission now: it does not fit.\n");
    for (final PodExplanation.Blocker blocker : admission.blockers()) {
      out.append("  ").append(blocker.message()).append('\n');
      if (blocker.excess() > 0) {
        out.append("    It fits once pods of ")
            .append(blocker.group())
            .append(" holding ")
            .append(Quantities.format(blocker.resource(), blocker.excess()))
            .append(' ')
            .append(blocker.resource())
            .append(" finish, or once ")
            .append(blocker.group())
            .append("'s runtime grows by as much.\n");
      }
      blocker
          .reach()
          .ifPresent(
              reach -> {
                for (final String line : of(reach).split("\n")) {
                  out.append("    ").append(line).append('\n');
                }
              });
    }
    return out.toString();
  }

  private String q(long amount) {
    return amount == Long.MAX_VALUE ? "unbounded" : Quantities.format(resource, amount);
  }

  private String render(RuntimeExplanation e) {
    final StringBuilder out = new StringBuilder();
    out.append(e.group())
        .append(": runtime ")
        .append(q(e.runtime()))
        .append(' ')
        .append(e.resource())
        .append('\n');
    e.request().ifPresent(request -> out.append(request(e.group(), request)));
    int step = 1;
    for (final Level level : e.levels()) {
      out.append('\n').append("Step ").append(step++).append(": ").append(level(level));
    }
    if (e.levels().stream().anyMatch(level -> !level.rounds().isEmpty())) {
      out.append('\n')
          .append("Rounding: each round gives floor(weight × left ÷ total weight); the units left")
          .append(" over (")
          .append(unit())
          .append(" each) go one each to the largest remainders, ties in name order.\n");
    }
    for (final String note : e.notes()) {
      out.append('\n').append("Note: ").append(note).append('\n');
    }
    return out.toString();
  }

  private String unit() {
    return "1".equals(Quantities.format(resource, 1)) ? "1" : Quantities.format(resource, 1);
  }

  private String request(String group, RequestDerivation r) {
    final StringBuilder out = new StringBuilder();
    out.append("\nWhat ").append(group).append(" asks of its parent: ").append(q(r.limited()));
    out.append('\n');
    final String own =
        r.own().map(this::q).orElse(q(Math.max(0L, r.request() - r.children())) + " (at least)");
    out.append("  its pods ask ").append(own);
    if (r.children() > 0) {
      out.append(", its children ").append(q(r.children()));
    }
    out.append('\n');
    switch (r.floorRule()) {
      case LENDS_NOTHING -> out.append("  it never lends its min, so it asks at least ");
      case LENDING_LIMIT ->
          out.append("  its lending limit keeps part of its min: it asks at least ");
      case LENDS_ALL -> out.append("  it lends what it does not use of its min: floor ");
    }
    out.append(q(r.floor())).append(", so its request is ").append(q(r.request())).append('\n');
    switch (r.ceilingRule()) {
      case UNBOUNDED -> out.append("  it has no max in ").append(resource);
      case MAX -> out.append("  its max is ").append(q(r.ceiling()));
      case BORROWING_LIMIT ->
          out.append("  its min plus its borrowing limit caps it at ").append(q(r.ceiling()));
    }
    out.append(", so it asks ").append(q(r.limited())).append('\n');
    return out.toString();
  }

  private String level(Level level) {
    final StringBuilder out = new StringBuilder();
    switch (level.source()) {
      case CLUSTER ->
          out.append("the cluster distributes ")
              .append(q(level.available()))
              .append(" (its allocatable less ")
              .append(q(level.systemUsed()))
              .append(" used by the system group and ")
              .append(q(level.defaultUsed()))
              .append(" by the default group)");
      case TREE ->
          out.append("the quota tree of ")
              .append(level.parent())
              .append(" distributes its total ")
              .append(q(level.available()))
              .append(" (the nodes its profile selects)");
      case PARENT ->
          out.append(level.parent())
              .append(" distributes its runtime ")
              .append(q(level.available()));
    }
    out.append(" among ").append(level.participants().size()).append(" groups.\n");
    out.append(table(level.participants()));
    if (level.unbounded()) {
      out.append("  ")
          .append(level.parent())
          .append(" does not bound ")
          .append(resource)
          .append(": each gets what it asks.\n");
    } else if (level.minsScaled()) {
      out.append("  Their mins sum to ")
          .append(q(level.minSum()))
          .append(", more than ")
          .append(q(level.available()))
          .append(": each min is scaled to floor(")
          .append(q(level.available()))
          .append(" × min ÷ ")
          .append(q(level.minSum()))
          .append(").\n");
    }
    if (!level.unbounded()) {
      final long started = level.participants().stream().mapToLong(Participant::start).sum();
      out.append("  Each starts with the smaller of its ask and its min: ")
          .append(q(started))
          .append(" in all");
      if (level.surplus() == 0) {
        out.append("; nothing is left to borrow.\n");
      } else {
        out.append("; ").append(q(level.surplus())).append(" is left to borrow.\n");
      }
    }
    if (level.allFit() && !level.unbounded()) {
      out.append("  That covers what every borrower still asks: each gets its whole ask.\n");
    }
    for (final Round round : level.rounds()) {
      out.append(round(round));
    }
    final Participant member = level.participant(level.member()).orElseThrow();
    out.append("  → ").append(member.name()).append(": ").append(q(member.runtime())).append('\n');
    return out.toString();
  }

  private String table(List<Participant> participants) {
    final List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {"group", "asks", "min", "weight", "starts", "ends"});
    for (final Participant p : participants) {
      final String min =
          p.scaledMin() == p.min() ? q(p.min()) : q(p.min()) + "→" + q(p.scaledMin());
      rows.add(
          new String[] {
            p.name(),
            q(p.limitedRequest()),
            min,
            Long.toString(p.weight()),
            q(p.start()),
            q(p.runtime())
          });
    }
    final int[] widths = new int[6];
    for (final String[] row : rows) {
      for (int i = 0; i < row.length; i++) {
        widths[i] = Math.max(widths[i], row[i].length());
      }
    }
    final StringBuilder out = new StringBuilder();
    for (final String[] row : rows) {
      out.append("   ");
      for (int i = 0; i < row.length; i++) {
        out.append(' ')
            .append(
                String.format(
                    Locale.ROOT, i == 0 ? "%-" + widths[i] + "s" : "%" + widths[i] + "s", row[i]));
      }
      out.append('\n');
    }
    return out.toString();
  }

  private String round(Round round) {
    final StringBuilder out = new StringBuilder();
    out.append("  Round ").append(round.number()).append(": ").append(q(round.left()));
    out.append(" shared by weight (");
    final List<String> weights = new ArrayList<>();
    final List<String> shares = new ArrayList<>();
    final List<String> capped = new ArrayList<>();
    for (final Share share : round.shares()) {
      weights.add(share.name() + " " + share.weight());
      shares.add(
          share.name()
              + " "
              + q(share.share())
              + (share.share() != share.quotient() ? " (with a leftover unit)" : ""));
      if (share.given() < share.share()) {
        capped.add(
            share.name()
                + " needs only "
                + q(share.given())
                + " more and hands back "
                + q(share.share() - share.given()));
      }
    }
    out.append(String.join(", ", weights)).append("): ").append(String.join(", ", shares));
    out.append(".\n");
    if (!capped.isEmpty()) {
      out.append("    ").append(String.join("; ", capped)).append(".\n");
    }
    return out.toString();
  }

  private String render(Reach r) {
    final StringBuilder out = new StringBuilder();
    out.append(r.group())
        .append(" has ")
        .append(q(r.runtime()))
        .append(' ')
        .append(r.resource())
        .append("; to reach ")
        .append(q(r.target()))
        .append(":\n");
    if (r.reached()) {
      return out.append("  it already has it.\n").toString();
    }
    for (final Reach.Limit limit : r.limits()) {
      switch (limit.kind()) {
        case REQUEST ->
            out.append("  its pods ask for only ")
                .append(q(limit.amount()))
                .append(": a runtime above what a group asks is never given.\n");
        case CEILING ->
            out.append("  its max (or min plus borrowing limit) is ")
                .append(q(limit.amount()))
                .append(": raise it first.\n");
        case PARENT ->
            out.append("  its parent has only ")
                .append(q(limit.amount()))
                .append(" to distribute: explain the parent.\n");
      }
    }
    if (!r.limits().isEmpty()) {
      return out.toString();
    }
    out.append(
        r.min()
            .map(min -> "  a min of " + q(min) + " (its weight and floor following), or\n")
            .orElse("  no min up to its max reaches it, and\n"));
    out.append(
        r.weight()
            .map(w -> "  a shared weight of " + w + ", or\n")
            .orElse("  no weight reaches it (the surplus is too small), or\n"));
    out.append("  its siblings holding ")
        .append(q(r.siblingsAskLess()))
        .append(" less (they hold ")
        .append(q(r.siblingsHold()))
        .append(").\n");
    return out.toString();
  }
}
