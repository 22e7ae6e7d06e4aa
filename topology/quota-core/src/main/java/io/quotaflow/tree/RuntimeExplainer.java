package io.quotaflow.tree;

import io.quotaflow.explain.Reach;
import io.quotaflow.explain.RuntimeExplanation;
import io.quotaflow.explain.RuntimeExplanation.CeilingRule;
import io.quotaflow.explain.RuntimeExplanation.FloorRule;
import io.quotaflow.explain.RuntimeExplanation.Level;
import io.quotaflow.explain.RuntimeExplanation.Participant;
import io.quotaflow.explain.RuntimeExplanation.RequestDerivation;
import io.quotaflow.explain.RuntimeExplanation.Round;
import io.quotaflow.explain.RuntimeExplanation.Share;
import io.quotaflow.explain.RuntimeExplanation.Source;
import io.quotaflow.fairshare.MemoryWeights;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.SpecialGroups;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Explains a group's runtime (issue 27) by running again, traced, the splits that produced it: from
 * the top of its tree down to its own, each over the computed statuses with the same {@link
 * WaterFill} as the full computation ({@link StatusSplit}, shared with the what-if). Cost: O(depth
 * × siblings) per call, like the what-if.
 */
public final class RuntimeExplainer {

  private final WhatIfInputs inputs;
  private final QuotaOptions options;
  private final WaterFill fill = new WaterFill();

  /**
   * @param inputs the cluster's last result
   * @param options the options the result was computed with
   */
  public RuntimeExplainer(WhatIfInputs inputs, QuotaOptions options) {
    this.inputs = inputs;
    this.options = options;
  }

  /** How {@code group}'s runtime in {@code resource} came about; empty for an unknown group. */
  public Optional<RuntimeExplanation> explain(String group, String resource) {
    final Optional<GroupStatus> found = inputs.status(group);
    if (found.isEmpty()) {
      return Optional.empty();
    }
    final GroupStatus status = found.get();
    final long runtime = status.runtime().get(resource);
    final List<String> notes = new ArrayList<>();
    final Optional<String> alone = withoutSplit(status, resource);
    if (alone.isPresent()) {
      notes.add(alone.get());
      return Optional.of(
          new RuntimeExplanation(group, resource, runtime, Optional.empty(), List.of(), notes));
    }
    final Optional<Path> path = path(status);
    if (path.isEmpty()) {
      notes.add("an ancestor of " + group + " has no computed status yet");
      return Optional.of(
          new RuntimeExplanation(group, resource, runtime, Optional.empty(), List.of(), notes));
    }
    final List<Level> levels = levels(path.get(), resource, notes);
    final Level own = levels.get(levels.size() - 1);
    final long recomputed = own.participant(group).map(Participant::runtime).orElse(runtime);
    if (recomputed != runtime) {
      notes.add(
          "the stored runtime differs from the split recomputed from the stored inputs ("
              + recomputed
              + "): the state was read between two updates; ask again");
    }
    return Optional.of(
        new RuntimeExplanation(
            group, resource, runtime, Optional.of(request(status, resource)), levels, notes));
  }

  /**
   * What {@code group} would need for its runtime in {@code resource} to reach {@code target};
   * empty for a group whose runtime comes from no split.
   */
  public Optional<Reach> reach(String group, String resource, long target) {
    final Optional<GroupStatus> found = inputs.status(group);
    if (found.isEmpty() || withoutSplit(found.get(), resource).isPresent()) {
      return Optional.empty();
    }
    final GroupStatus status = found.get();
    final Optional<Path> path = path(status);
    final Optional<QuotaGroup> spec = inputs.spec(group);
    if (path.isEmpty() || spec.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new Lever(path.get(), status, spec.get(), resource, target).reach());
  }

  /** Why the group's runtime comes from no split, if it does not. */
  private Optional<String> withoutSplit(GroupStatus status, String resource) {
    final String name = status.name();
    if (SpecialGroups.ROOT.equals(name)) {
      return Optional.of(
          "the root distributes the cluster's allocatable minus what the system and default groups"
              + " use");
    }
    if (SpecialGroups.SYSTEM.equals(name)) {
      return Optional.of("the system group may use the whole cluster: its runtime is the total");
    }
    if (SpecialGroups.DEFAULT.equals(name)) {
      return Optional.of(
          "the default group takes no part in any split: its runtime is its max, at most the"
              + " total");
    }
    if (!status.valid()) {
      return Optional.of(
          name
              + " is invalid ("
              + status.reason().orElse("no reason given")
              + "): its runtime stays at its last valid value and it takes no part in its"
              + " parent's split");
    }
    if (inputs.headsTree(name)) {
      return Optional.of(
          name
              + " heads a profile's quota tree: its runtime is the tree's total, the allocatable of"
              + " the nodes its profile selects");
    }
    if (!status.trackedDimensions().contains(resource)) {
      return Optional.of(
          name + " does not track " + resource + ": it bounds nothing in it, at no level");
    }
    return Optional.empty();
  }

  /** The group and its ancestors below the top, and the top: the root or a profile tree's root. */
  private record Path(List<GroupStatus> chain, GroupStatus top, Source topSource) {}

  private Optional<Path> path(GroupStatus status) {
    final List<GroupStatus> chain = WhatIfRuntimes.chain(inputs, status.name());
    final GroupStatus last = chain.get(chain.size() - 1);
    if (chain.size() > 1 && inputs.headsTree(last.name())) {
      chain.remove(chain.size() - 1);
      return Optional.of(new Path(chain, last, Source.TREE));
    }
    if (!SpecialGroups.ROOT.equals(last.parent())) {
      return Optional.empty();
    }
    return inputs.status(SpecialGroups.ROOT).map(root -> new Path(chain, root, Source.CLUSTER));
  }

  /**
   * The splits from the top down to the group's own. Above an ancestor that does not track the
   * resource nothing bounds it: the splits start below it, unbounded.
   */
  private List<Level> levels(Path path, String resource, List<String> notes) {
    final List<GroupStatus> chain = path.chain();
    int highest = 0;
    while (highest + 1 < chain.size()
        && chain.get(highest + 1).trackedDimensions().contains(resource)) {
      highest++;
    }
    final List<Level> levels = new ArrayList<>();
    for (int i = highest; i >= 0; i--) {
      final boolean underTop = i + 1 == chain.size();
      final GroupStatus parent = underTop ? path.top() : chain.get(i + 1);
      final boolean unbounded = !underTop && !parent.trackedDimensions().contains(resource);
      final Source source = underTop ? path.topSource() : Source.PARENT;
      levels.add(level(parent, source, unbounded, resource, chain.get(i).name(), notes));
    }
    return levels;
  }

  private Level level(
      GroupStatus parent,
      Source source,
      boolean unbounded,
      String resource,
      String member,
      List<String> notes) {
    final long available = parent.runtime().get(resource);
    final StatusSplit split =
        StatusSplit.of(StatusSplit.participants(inputs, parent.name()), resource)
            .remember(available, unbounded);
    if (split.remembers()) {
      notes.add(memoryNote(parent.name(), resource, available, split));
    }
    final SplitTrace trace = new SplitTrace();
    final long[][] result = split.run(fill, available, unbounded, options, trace);
    final long[] scaled = result[0];
    final long[] runtime = result[1];
    final boolean[] borrows = new boolean[split.members.size()];
    for (final int b : trace.borrowers) {
      borrows[b] = true;
    }
    final List<Participant> participants = new ArrayList<>();
    for (int c = 0; c < split.members.size(); c++) {
      participants.add(
          new Participant(
              split.members.get(c).name(),
              split.request[c],
              split.min[c],
              scaled[c],
              split.weight[c],
              options.guaranteeUsage() ? split.guaranteed[c] : 0L,
              trace.starts.length > c ? trace.starts[c] : runtime[c],
              runtime[c],
              borrows[c]));
    }
    final long surplus =
        unbounded || trace.startedSum >= available ? 0L : available - trace.startedSum;
    return new Level(
        parent.name(),
        source,
        available,
        source == Source.CLUSTER ? usedBy(SpecialGroups.SYSTEM, resource) : 0L,
        source == Source.CLUSTER ? usedBy(SpecialGroups.DEFAULT, resource) : 0L,
        unbounded,
        trace.scaled,
        trace.minSum,
        participants,
        trace.allFit,
        surplus,
        rounds(trace, split),
        member);
  }

  /** How fair share with memory weighed one split (docs/semantics.md section 24). */
  private static String memoryNote(
      String parent, String resource, long available, StatusSplit split) {
    final String scaled =
        split.shift() == 0 ? "weight x factor" : "ceil(weight x factor / 2^" + split.shift() + ")";
    final StringBuilder note =
        new StringBuilder("fair share with memory weighs the split of ")
            .append(available)
            .append(' ')
            .append(resource)
            .append(" under ")
            .append(parent)
            .append(": each effective weight is ")
            .append(scaled)
            .append(", the factor floor(65536 x ")
            .append(available)
            .append(" / (")
            .append(available)
            .append(" + past borrowed)) in 65536ths;");
    for (int c = 0; c < split.members.size(); c++) {
      if (split.factor[c] != MemoryWeights.ONE) {
        note.append(' ')
            .append(split.members.get(c).name())
            .append(" (past borrowed ")
            .append(split.pastBorrowed[c])
            .append("): weight ")
            .append(split.baseWeight[c])
            .append(", factor ")
            .append(split.factor[c])
            .append(", effective ")
            .append(split.weight[c])
            .append(';');
      }
    }
    note.append(" the others have the factor 65536");
    return note.toString();
  }

  private long usedBy(String special, String resource) {
    return inputs.status(special).map(s -> s.used().get(resource)).orElse(0L);
  }

  private static List<Round> rounds(SplitTrace trace, StatusSplit split) {
    final List<Round> rounds = new ArrayList<>();
    int number = 1;
    for (final SplitTrace.Round round : trace.rounds) {
      final List<Share> shares = new ArrayList<>();
      for (int a = 0; a < round.competitors.length; a++) {
        final int c = round.competitors[a];
        final long given = round.after[a] - round.before[a];
        shares.add(
            new Share(
                split.members.get(c).name(),
                split.weight[c],
                round.quotients[a],
                round.shares[a],
                given,
                round.after[a] >= split.request[c]));
      }
      rounds.add(new Round(number++, round.left, shares, round.handedBack));
    }
    return rounds;
  }

  /** How the group's limited request was formed (SPEC 6). */
  private RequestDerivation request(GroupStatus status, String resource) {
    long children = 0;
    for (final GroupStatus child : inputs.children(status.name())) {
      if (child.valid()
          && status.name().equals(child.parent())
          && !SpecialGroups.isSpecial(child.name())
          && child.trackedDimensions().contains(resource)) {
        children = Arith.add(children, child.limitedRequest().get(resource));
      }
    }
    final Optional<QuotaGroup> spec = inputs.spec(status.name());
    final long floor =
        spec.map(s -> Math.max(0L, GroupRules.requestFloor(s, resource, options.guaranteeUsage())))
            .orElse(0L);
    final long ceiling =
        spec.map(s -> Math.max(0L, GroupRules.effectiveMax(s, resource))).orElse(Arith.UNBOUNDED);
    final Optional<Long> own = inputs.ownRequest(status.name()).map(r -> r.get(resource));
    return new RequestDerivation(
        own,
        children,
        floor,
        spec.map(s -> floorRule(s, resource)).orElse(FloorRule.LENDS_ALL),
        status.request().get(resource),
        ceiling,
        spec.map(s -> ceilingRule(s, resource)).orElse(CeilingRule.UNBOUNDED),
        status.limitedRequest().get(resource));
  }

  private FloorRule floorRule(QuotaGroup spec, String resource) {
    if (!spec.allowLent() || options.guaranteeUsage()) {
      return FloorRule.LENDS_NOTHING;
    }
    return spec.lendingLimit().isPresent() && spec.lendingLimit().get().contains(resource)
        ? FloorRule.LENDING_LIMIT
        : FloorRule.LENDS_ALL;
  }

  private static CeilingRule ceilingRule(QuotaGroup spec, String resource) {
    final long ceiling = GroupRules.effectiveMax(spec, resource);
    if (ceiling == Arith.UNBOUNDED) {
      return CeilingRule.UNBOUNDED;
    }
    final boolean byMax = spec.max().contains(resource) && spec.max().get(resource) == ceiling;
    return byMax ? CeilingRule.MAX : CeilingRule.BORROWING_LIMIT;
  }

  /** The levers of {@link #reach}, each tried alone in the group's own split. */
  private final class Lever {
    private final GroupStatus status;
    private final QuotaGroup spec;
    private final String resource;
    private final long target;
    private final StatusSplit split;
    private final int self;
    private final long available;
    private final boolean unbounded;

    Lever(Path path, GroupStatus status, QuotaGroup spec, String resource, long target) {
      this.status = status;
      this.spec = spec;
      this.resource = resource;
      this.target = target;
      final List<GroupStatus> chain = path.chain();
      final GroupStatus parent = chain.size() > 1 ? chain.get(1) : path.top();
      this.available = parent.runtime().get(resource);
      this.unbounded = chain.size() > 1 && !parent.trackedDimensions().contains(resource);
      this.split =
          StatusSplit.of(StatusSplit.participants(inputs, parent.name()), resource)
              .remember(available, unbounded);
      this.self = split.indexOf(status.name());
    }

    Reach reach() {
      final long runtime = status.runtime().get(resource);
      final boolean reached = runtime >= target;
      final List<Reach.Limit> limits = new ArrayList<>();
      final long limited = status.limitedRequest().get(resource);
      final long ceiling = Math.max(0L, GroupRules.effectiveMax(spec, resource));
      if (target > ceiling) {
        limits.add(new Reach.Limit(Reach.LimitKind.CEILING, ceiling));
      } else if (target > limited && !options.guaranteeUsage()) {
        limits.add(new Reach.Limit(Reach.LimitKind.REQUEST, limited));
      }
      if (!unbounded && target > available) {
        limits.add(new Reach.Limit(Reach.LimitKind.PARENT, available));
      }
      long siblings = 0;
      final long[] now = runtimes(split.request.clone(), split.min.clone(), split.weight.clone());
      for (int c = 0; c < now.length; c++) {
        siblings += c == self ? 0 : now[c];
      }
      if (reached || self < 0) {
        return new Reach(
            status.name(),
            resource,
            target,
            runtime,
            reached,
            Optional.empty(),
            Optional.empty(),
            siblings,
            0,
            limits);
      }
      final long askLess = Math.max(0L, siblings - Math.max(0L, available - target));
      return new Reach(
          status.name(),
          resource,
          target,
          runtime,
          false,
          limits.isEmpty() ? smallest(split.min[self], maxMin(), this::withMin) : Optional.empty(),
          limits.isEmpty()
              ? smallest(split.baseWeight[self], 1L << 62, this::withWeight)
              : Optional.empty(),
          siblings,
          limits.isEmpty() ? askLess : 0,
          limits);
    }

    /** The largest min the group may have: its max where it has one (min-not-above-max). */
    private long maxMin() {
      return spec.max().contains(resource) ? spec.max().get(resource) : Math.max(target, available);
    }

    /** The group's runtime in the split with its min {@code min} (weight and floor following). */
    private long withMin(long min) {
      final QuotaGroup raised = spec.toBuilder().min(spec.min().with(resource, min)).build();
      final long[] request = split.request.clone();
      final long[] mins = split.min.clone();
      final long[] weights = split.weight.clone();
      final long floor =
          Math.max(0L, GroupRules.requestFloor(raised, resource, options.guaranteeUsage()));
      // max(summed, floor') = max(request, floor') as the new floor is not below the old one.
      final long raisedRequest = Math.max(status.request().get(resource), floor);
      request[self] =
          Math.min(raisedRequest, Math.max(0L, GroupRules.effectiveMax(raised, resource)));
      mins[self] = min;
      weights[self] =
          split.effectiveWeight(
              self, Math.max(0L, GroupRules.weight(raised, resource, options.defaultWeight())));
      return runtimes(request, mins, weights)[self];
    }

    private long withWeight(long weight) {
      final long[] weights = split.weight.clone();
      weights[self] = split.effectiveWeight(self, weight);
      return runtimes(split.request.clone(), split.min.clone(), weights)[self];
    }

    private long[] runtimes(long[] request, long[] min, long[] weight) {
      final int n = split.members.size();
      final long[] scaled = new long[n];
      final long[] runtime = new long[n];
      final long[] guaranteed = options.guaranteeUsage() ? split.guaranteed : null;
      fill.distribute(
          available,
          unbounded,
          n,
          request,
          min,
          weight,
          options.minScaling(),
          guaranteed,
          scaled,
          runtime);
      return runtime;
    }

    /**
     * The smallest value in {@code (from, to]} at which {@code runtimeAt} reaches the target, by
     * bisection, checked: one below it does not reach it. Empty when {@code to} does not.
     */
    private Optional<Long> smallest(
        long from, long to, java.util.function.LongUnaryOperator runtimeAt) {
      if (to <= from || runtimeAt.applyAsLong(to) < target) {
        return Optional.empty();
      }
      long low = from;
      long high = to;
      while (high - low > 1) {
        final long middle = low + (high - low) / 2;
        if (runtimeAt.applyAsLong(middle) >= target) {
          high = middle;
        } else {
          low = middle;
        }
      }
      return Optional.of(high);
    }
  }
}
