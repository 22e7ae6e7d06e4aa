package io.quotaflow.explain;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * How one group's runtime in one resource came about (issue 27): the group's limited request, then
 * every split from the top of its tree down to the one that gives it its runtime. Every amount is
 * in canonical units (milli-CPU, bytes, counts); {@link ExplanationText} shows them as a user types
 * them. Built by {@code io.quotaflow.tree.RuntimeExplainer} from the computation itself.
 *
 * @param group the group explained
 * @param resource the resource (dimension) explained
 * @param runtime the group's runtime as computed
 * @param request how the group's limited request, what its parent sees, was formed; empty for a
 *     group whose runtime comes from no split (the root, the special groups, an invalid group)
 * @param levels the splits from the top down; the last gives the group its runtime
 * @param notes what else a reader needs: an invalid group's frozen runtime, a special group's rule,
 *     a store read between two updates
 */
public record RuntimeExplanation(
    String group,
    String resource,
    long runtime,
    Optional<RequestDerivation> request,
    List<Level> levels,
    List<String> notes) {

  public RuntimeExplanation {
    Objects.requireNonNull(group, "group");
    Objects.requireNonNull(resource, "resource");
    Objects.requireNonNull(request, "request");
    levels = List.copyOf(levels);
    notes = List.copyOf(notes);
  }

  /**
   * A group's limited request: {@code min(max(own + children, floor), ceiling)} (SPEC 6).
   *
   * @param own what the group's own pods request; empty when not known (read from a server whose
   *     stores keep only the total), then {@code request - children} stands in
   * @param children the sum of its valid children's limited requests
   * @param floor the part of its min it never lends
   * @param floorRule why the floor is what it is
   * @param request {@code max(own + children, floor)}
   * @param ceiling the group's max, or min plus its borrowing limit when lower; {@code
   *     Long.MAX_VALUE} when unbounded
   * @param ceilingRule why the ceiling is what it is
   * @param limited {@code min(request, ceiling)}: what the group asks of its parent
   */
  public record RequestDerivation(
      Optional<Long> own,
      long children,
      long floor,
      FloorRule floorRule,
      long request,
      long ceiling,
      CeilingRule ceilingRule,
      long limited) {}

  /** Why a group's request floor is what it is. */
  public enum FloorRule {
    /** It lends all of its min: no floor. */
    LENDS_ALL,
    /** {@code allow-lent-resource: false} (or the guarantee of usage): the floor is its min. */
    LENDS_NOTHING,
    /** A lending limit: the floor is {@code min - lending limit}. */
    LENDING_LIMIT
  }

  /** Why a group's ceiling is what it is. */
  public enum CeilingRule {
    /** No max in this resource. */
    UNBOUNDED,
    /** Its max. */
    MAX,
    /** Its min plus its borrowing limit, below its max. */
    BORROWING_LIMIT
  }

  /**
   * One parent's split of what it distributes among its children (SPEC 7).
   *
   * @param parent the group that distributes
   * @param source where the amount comes from
   * @param available the amount distributed
   * @param systemUsed for the cluster's root: what the system group uses, taken off the top
   * @param defaultUsed for the cluster's root: what the default group uses, taken off the top
   * @param unbounded the parent does not track the resource: every child gets what it asks
   * @param minsScaled the children's mins summed above what is available and were scaled down
   * @param minSum the sum of the children's mins
   * @param participants every child taking part, in name order
   * @param allFit the surplus covered every borrower's remaining ask at once
   * @param surplus what was left after every child's start
   * @param rounds the rounds of the surplus, when it did not cover every ask
   * @param member the child of this split on the way to the explained group
   */
  public record Level(
      String parent,
      Source source,
      long available,
      long systemUsed,
      long defaultUsed,
      boolean unbounded,
      boolean minsScaled,
      long minSum,
      List<Participant> participants,
      boolean allFit,
      long surplus,
      List<Round> rounds,
      String member) {

    public Level {
      participants = List.copyOf(participants);
      rounds = List.copyOf(rounds);
    }

    /** The participant named {@code name}. */
    public Optional<Participant> participant(String name) {
      return participants.stream().filter(p -> p.name().equals(name)).findFirst();
    }
  }

  /** Where a split's amount comes from. */
  public enum Source {
    /** The cluster's allocatable minus what the system and default groups use. */
    CLUSTER,
    /** The total of a profile's quota tree: the allocatable of the nodes it selects. */
    TREE,
    /** The parent group's own runtime. */
    PARENT
  }

  /**
   * One child in a split.
   *
   * @param limitedRequest what it asks
   * @param min its min
   * @param scaledMin its min after scaling (equal to min when not scaled)
   * @param weight its shared weight in the resource
   * @param guaranteed its guaranteed amount (guarantee of usage on), else 0
   * @param start what it gets before the surplus: the smaller of its ask and its (scaled) min, or
   *     its guarantee
   * @param runtime what it ends with
   * @param borrows whether it competes for the surplus (asks above its start, with weight)
   */
  public record Participant(
      String name,
      long limitedRequest,
      long min,
      long scaledMin,
      long weight,
      long guaranteed,
      long start,
      long runtime,
      boolean borrows) {}

  /**
   * One round of the surplus: {@code left} split by weight among the competitors, {@code
   * floor(weight × left / Σweight)} each, then one unit each to the largest remainders (ties in
   * name order); a competitor gets at most what it still asks, and the rest is handed back for the
   * next round.
   */
  public record Round(int number, long left, List<Share> shares, long handedBack) {
    public Round {
      shares = List.copyOf(shares);
    }
  }

  /**
   * One competitor's part of a round.
   *
   * @param quotient {@code floor(weight × left / Σweight)}
   * @param share the quotient plus one leftover unit, if it got one
   * @param given what it took: its share, or less if that capped it at its ask
   * @param capped it reached its ask this round and competes no more
   */
  public record Share(
      String name, long weight, long quotient, long share, long given, boolean capped) {}
}
