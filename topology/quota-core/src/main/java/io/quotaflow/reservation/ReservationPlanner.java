package io.quotaflow.reservation;

import io.quotaflow.quota.Quantities;
import io.quotaflow.quota.QuotaNode;
import io.quotaflow.quota.ReservationSpec;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.tree.PodAccounting;
import io.quotaflow.tree.QuotaOptions;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The locks of a whole cluster in one call (docs/semantics.md section 14). Reservations are taken
 * oldest first ({@code requestedAt}, then name). First every lock still good is kept: its nodes are
 * all still schedulable, Ready, not locked by an older reservation, cover the current target, form
 * an irreducible set, and fit in the locked-share cap after the older locks kept. Then every other
 * valid reservation chooses nodes among those no lock holds, within what the cap leaves; one that
 * cannot is not satisfied and locks nothing. So a lock never churns while it covers, a new choice
 * never takes a node another lock keeps, and under the cap the older lock is kept first.
 *
 * <p>The nodes counted are those of the cluster total (SPEC 3: not being deleted; with {@code
 * only-ready-schedulable-nodes} only Ready, schedulable ones); nodes that may be locked are the
 * Ready, schedulable ones not being deleted. The cap allows, per dimension of the cluster total,
 * {@code floor(total × percent / 100)} of locked allocatable. Pure and deterministic.
 */
public final class ReservationPlanner {

  private ReservationPlanner() {}

  /**
   * Plans every reservation of {@code reservations}.
   *
   * @param nodes every node of the cluster
   * @param load what the pods bound to the nodes request
   * @param reservations the groups with a reservation
   * @param options the quota options (derived resources, which nodes count)
   * @param maxLockedPercent the locked-share cap, 0 to 100
   * @param chooser how one reservation's nodes are chosen
   * @return each group's reservation status, by group name
   */
  public static Map<String, ReservationStatus> plan(
      List<QuotaNode> nodes,
      NodeLoad load,
      List<ReservationInput> reservations,
      QuotaOptions options,
      int maxLockedPercent,
      NodeChooser chooser) {
    Objects.requireNonNull(chooser, "chooser");
    final Cluster cluster = new Cluster(nodes, options, maxLockedPercent);
    final List<ReservationInput> ordered = new ArrayList<>(reservations);
    ordered.sort(
        Comparator.comparingLong(ReservationInput::requestedAt)
            .thenComparing(ReservationInput::name));

    final Map<String, ReservationStatus> statuses = new TreeMap<>();
    final Map<String, ReservationTarget> targets = new HashMap<>();
    final Set<String> taken = new HashSet<>();
    ResourceList locked = ResourceList.empty();
    // Validity first: an invalid reservation neither keeps nor chooses.
    for (final ReservationInput input : ordered) {
      final Optional<String> invalid = invalidReason(input, cluster);
      final ReservationSpec spec = input.group().reservation().orElseThrow();
      if (invalid.isPresent()) {
        statuses.put(
            input.name(),
            new ReservationStatus(
                spec.policy(),
                false,
                invalid,
                targetOrEmpty(spec, cluster),
                0,
                List.of(),
                false,
                ResourceList.empty(),
                input.requestedAt()));
      } else {
        targets.put(input.name(), ReservationTarget.of(spec, cluster.total, cluster.counted));
      }
    }
    // Keep, oldest first.
    final Map<String, List<String>> kept = new HashMap<>();
    for (final ReservationInput input : ordered) {
      final ReservationTarget target = targets.get(input.name());
      if (target == null) {
        continue;
      }
      final List<String> held = input.held();
      if (held.isEmpty() && !target.isEmpty()) {
        continue;
      }
      if (!target.isEmpty() && !keeps(cluster, target, held, taken)) {
        continue;
      }
      final List<String> lock = target.isEmpty() ? List.of() : held;
      final ResourceList after = locked.plus(cluster.allocatable(lock));
      if (!cluster.withinCap(after)) {
        continue;
      }
      locked = after;
      taken.addAll(lock);
      kept.put(input.name(), lock);
    }
    // Choose, oldest first, among what the kept locks leave.
    final Map<String, List<String>> chosen = new HashMap<>(kept);
    for (final ReservationInput input : ordered) {
      final ReservationTarget target = targets.get(input.name());
      if (target == null) {
        continue;
      }
      List<String> lock = kept.get(input.name());
      if (lock == null) {
        final List<ReservationCandidate> candidates =
            cluster.candidates(input.name(), input.held(), taken, load);
        final Optional<LockChoice> choice =
            chooser.choose(
                new LockRequest(target, candidates, cluster.capLeft(locked), cluster.total));
        if (choice.isPresent()) {
          lock = choice.get().nodes();
          locked = locked.plus(cluster.allocatable(lock));
          taken.addAll(lock);
        }
      }
      if (lock != null) {
        chosen.put(input.name(), lock);
      }
    }
    // Statuses last, so that why one is not satisfied is told against the locks as they end up:
    // planning again with the same inputs then says exactly the same.
    for (final ReservationInput input : ordered) {
      final ReservationTarget target = targets.get(input.name());
      if (target == null) {
        continue;
      }
      final ReservationSpec spec = input.group().reservation().orElseThrow();
      final List<String> lock = chosen.get(input.name());
      final Optional<String> reason =
          lock != null
              ? Optional.empty()
              : Optional.of(
                  unsatisfied(
                      input.name(),
                      target,
                      cluster.candidates(input.name(), List.of(), taken, load),
                      cluster,
                      locked));
      final List<String> nodesLocked = lock == null ? List.of() : lock.stream().sorted().toList();
      statuses.put(
          input.name(),
          new ReservationStatus(
              spec.policy(),
              true,
              reason,
              target.amounts(),
              target.minNodes(),
              nodesLocked,
              lock != null,
              idle(cluster, load, nodesLocked),
              input.requestedAt()));
    }
    return statuses;
  }

  /** The idle allocatable on {@code nodes}, summed. */
  static ResourceList idle(Cluster cluster, NodeLoad load, List<String> nodes) {
    ResourceList idle = ResourceList.empty();
    for (final String node : nodes) {
      idle =
          idle.plus(
              load.idleOn(node, cluster.allocatable.getOrDefault(node, ResourceList.empty())));
    }
    return idle;
  }

  private static Optional<String> invalidReason(ReservationInput input, Cluster cluster) {
    if (input.groupProblem().isPresent()) {
      return Optional.of(
          "group "
              + input.name()
              + " is invalid ("
              + input.groupProblem().get()
              + "): nothing is locked");
    }
    final List<ReservationProblem> problems =
        ReservationRules.check(input.group(), cluster.total, cluster.counted);
    if (problems.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        String.join("; ", problems.stream().map(ReservationProblem::toString).toList()));
  }

  private static ResourceList targetOrEmpty(ReservationSpec spec, Cluster cluster) {
    return spec.problems().isEmpty()
        ? ReservationTarget.of(spec, cluster.total, cluster.counted).amounts()
        : ResourceList.empty();
  }

  /** Whether a held lock is still good (apart from the cap). */
  private static boolean keeps(
      Cluster cluster, ReservationTarget target, List<String> held, Set<String> taken) {
    final List<ReservationCandidate> nodes = new ArrayList<>();
    for (final String node : held) {
      if (!cluster.lockable.contains(node) || taken.contains(node)) {
        return false;
      }
      nodes.add(
          new ReservationCandidate(
              node,
              cluster.allocatable.get(node),
              ResourceList.empty(),
              ResourceList.empty(),
              true));
    }
    return LockChooser.irreducible(target, nodes, held);
  }

  private static String unsatisfied(
      String group,
      ReservationTarget target,
      List<ReservationCandidate> candidates,
      Cluster cluster,
      ResourceList locked) {
    ResourceList sum = ResourceList.empty();
    for (final ReservationCandidate candidate : candidates) {
      sum = sum.plus(candidate.allocatable());
    }
    final List<String> missing = shortOf(target.amounts(), sum, "free");
    if (candidates.size() < target.minNodes()) {
      missing.add(candidates.size() + " nodes free, " + target.minNodes() + " wanted");
    }
    if (!missing.isEmpty()) {
      return "the schedulable nodes no other reservation locks cannot cover the reservation of "
          + group
          + ": "
          + String.join(", ", missing);
    }
    final ResourceList room = cluster.capLeft(locked);
    final List<String> capped = shortOf(target.amounts(), room, "left under the cap");
    return "locking nodes for "
        + group
        + " would take the locked share of the cluster above "
        + cluster.maxLockedPercent
        + " % ("
        + (capped.isEmpty()
            ? "no set of nodes that covers it fits in what is left: " + readable(room)
            : String.join(", ", capped))
        + ")";
  }

  /** The dimensions where {@code available} is below {@code wanted}, each with both amounts. */
  private static List<String> shortOf(ResourceList wanted, ResourceList available, String what) {
    final List<String> gaps = new ArrayList<>();
    wanted
        .asMap()
        .forEach(
            (dimension, amount) -> {
              if (available.get(dimension) < amount) {
                gaps.add(
                    dimension
                        + " "
                        + Quantities.format(dimension, available.get(dimension))
                        + " "
                        + what
                        + ", "
                        + Quantities.format(dimension, amount)
                        + " wanted");
              }
            });
    return gaps;
  }

  /** {@code amounts} as Kubernetes quantities, for messages: {@code cpu 4, memory 16Gi}. */
  private static String readable(ResourceList amounts) {
    final List<String> parts = new ArrayList<>();
    amounts
        .asMap()
        .forEach(
            (dimension, amount) ->
                parts.add(dimension + " " + Quantities.format(dimension, amount)));
    return String.join(", ", parts);
  }

  /** The nodes of one plan, read once. */
  static final class Cluster {
    final Map<String, ResourceList> allocatable = new HashMap<>();
    final Set<String> lockable = new HashSet<>();
    final ResourceList total;
    final int counted;
    final ResourceList cap;
    final int maxLockedPercent;

    Cluster(List<QuotaNode> nodes, QuotaOptions options, int maxLockedPercent) {
      if (maxLockedPercent < 0 || maxLockedPercent > 100) {
        throw new IllegalArgumentException(
            "the locked-share cap is a percentage from 0 to 100: " + maxLockedPercent);
      }
      this.maxLockedPercent = maxLockedPercent;
      ResourceList sum = ResourceList.empty();
      int count = 0;
      for (final QuotaNode node : nodes) {
        final ResourceList amounts =
            PodAccounting.derive(node.allocatable(), options.derivedResources());
        allocatable.put(node.name(), amounts);
        final boolean schedulable = node.ready() && node.schedulable() && !node.deleting();
        if (schedulable) {
          lockable.add(node.name());
        }
        if (!node.deleting() && (!options.onlyReadySchedulableNodes() || schedulable)) {
          sum = sum.plus(amounts);
          count++;
        }
      }
      this.total = sum;
      this.counted = count;
      final ResourceList.Builder limit = ResourceList.builder();
      total
          .asMap()
          .forEach(
              (dimension, amount) ->
                  limit.put(dimension, ReservationTarget.floor(amount, percent(maxLockedPercent))));
      this.cap = limit.build();
    }

    private static BigDecimal percent(int value) {
      return BigDecimal.valueOf(value).movePointLeft(2);
    }

    ResourceList allocatable(List<String> nodes) {
      ResourceList sum = ResourceList.empty();
      for (final String node : nodes) {
        sum = sum.plus(allocatable.getOrDefault(node, ResourceList.empty()));
      }
      return sum;
    }

    boolean withinCap(ResourceList locked) {
      for (final String dimension : cap.names()) {
        if (locked.get(dimension) > cap.get(dimension)) {
          return false;
        }
      }
      return true;
    }

    ResourceList capLeft(ResourceList locked) {
      final ResourceList.Builder left = ResourceList.builder();
      cap.asMap()
          .forEach(
              (dimension, amount) ->
                  left.put(dimension, Math.max(0, amount - locked.get(dimension))));
      return left.build();
    }

    /** The nodes {@code group} may lock: schedulable and not taken, with their load. */
    List<ReservationCandidate> candidates(
        String group, List<String> held, Set<String> taken, NodeLoad load) {
      final List<ReservationCandidate> candidates = new ArrayList<>();
      final Set<String> heldNow = new HashSet<>(held);
      for (final String node : lockable.stream().sorted().toList()) {
        if (taken.contains(node)) {
          continue;
        }
        final ResourceList amounts = allocatable.get(node);
        candidates.add(
            new ReservationCandidate(
                node,
                amounts,
                load.idleOn(node, amounts),
                load.usedOn(group, node),
                heldNow.contains(node)));
      }
      return candidates;
    }
  }
}
