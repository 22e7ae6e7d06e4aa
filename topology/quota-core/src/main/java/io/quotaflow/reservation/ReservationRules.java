package io.quotaflow.reservation;

import io.quotaflow.kube.ReservationAnnotation;
import io.quotaflow.quota.Quantities;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.ReservationSpec;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecProblem;
import io.quotaflow.quota.SpecialGroups;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The rules of a node reservation, shared by the quota webhook (which rejects a change that breaks
 * one) and the engine (which reports the reservation invalid and locks nothing). Pure; returns
 * every broken rule, each naming its field, dimension and numbers.
 */
public final class ReservationRules {

  private static final String FIELD = ReservationAnnotation.FIELD;

  private ReservationRules() {}

  /**
   * Every rule the reservation of {@code group} breaks in a cluster whose total is {@code
   * clusterTotal} of {@code nodes} counted nodes; empty for a group without reservation.
   */
  public static List<ReservationProblem> check(
      QuotaGroup group, ResourceList clusterTotal, int nodes) {
    return check(group, Optional.of(clusterTotal), nodes);
  }

  /**
   * Every rule the reservation of {@code group} breaks; with the cluster total unknown, the
   * reservation is not checked against it, and a percentage only for its range.
   */
  public static List<ReservationProblem> check(
      QuotaGroup group, Optional<ResourceList> knownTotal, int nodes) {
    if (group.reservation().isEmpty()) {
      return List.of();
    }
    final ReservationSpec spec = group.reservation().get();
    final List<ReservationProblem> problems = new ArrayList<>();
    for (final SpecProblem problem : spec.problems()) {
      problems.add(
          new ReservationProblem(ReservationRule.READABLE, problem.field(), problem.reason()));
    }
    if (group.parentGroup() || SpecialGroups.SYSTEM.equals(group.name())) {
      problems.add(
          new ReservationProblem(
              ReservationRule.ON_LEAF,
              FIELD,
              group.parentGroup()
                  ? "group "
                      + group.name()
                      + " is a parent group: it holds no pods to run on locked nodes"
                  : "the system group is never limited: it has nothing to reserve"));
    }
    if (spec.percentage().isPresent()) {
      final BigDecimal value = spec.percentage().get().value();
      if (value.signum() < 0 || value.compareTo(BigDecimal.ONE) > 0) {
        problems.add(
            new ReservationProblem(
                ReservationRule.PERCENTAGE_IN_RANGE,
                FIELD + ".percentage.value",
                "percentage " + readable(value) + " is outside [0, 1]"));
      }
    }
    if (!problems.isEmpty()) {
      return problems;
    }
    final ResourceList clusterTotal = knownTotal.orElse(ResourceList.empty());
    final ReservationTarget target =
        knownTotal.isPresent()
            ? ReservationTarget.of(spec, clusterTotal, nodes)
            : new ReservationTarget(spec.resource().orElse(ResourceList.empty()), 0);
    target
        .amounts()
        .asMap()
        .forEach(
            (dimension, amount) -> {
              if (group.max().contains(dimension) && amount > group.max().get(dimension)) {
                problems.add(
                    new ReservationProblem(
                        ReservationRule.WITHIN_MAX,
                        field(spec, dimension),
                        String.format(
                            "reservation %s is above the group's max %s in %s",
                            Quantities.format(dimension, amount),
                            Quantities.format(dimension, group.max().get(dimension)),
                            dimension)));
              }
              if (knownTotal.isPresent() && amount > clusterTotal.get(dimension)) {
                problems.add(
                    new ReservationProblem(
                        ReservationRule.WITHIN_CLUSTER,
                        field(spec, dimension),
                        String.format(
                            "reservation %s is above the cluster total %s in %s",
                            Quantities.format(dimension, amount),
                            Quantities.format(dimension, clusterTotal.get(dimension)),
                            dimension)));
              }
            });
    return problems;
  }

  /** The value as written, but in exponent form where the plain digits would run long (1e400). */
  private static String readable(BigDecimal value) {
    return Math.abs(value.scale()) > 18 ? value.toString() : value.toPlainString();
  }

  /** The field a target dimension comes from: the resource entry, else the percentage. */
  private static String field(ReservationSpec spec, String dimension) {
    return spec.resource().filter(resource -> resource.contains(dimension)).isPresent()
        ? FIELD + ".resource[" + dimension + "]"
        : FIELD + ".percentage";
  }
}
