package io.quotaflow.engine.convert;

import io.quotaflow.quota.ReservationPercentage;
import io.quotaflow.quota.ReservationPolicy;
import io.quotaflow.quota.ReservationSpec;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecProblem;
import io.quotaflow.reservation.ReservationStatus;
import io.quotaflow.schemas.FieldProblem;
import io.quotaflow.schemas.GroupReservation;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Node reservations between the core and the records: the annotation as read ({@code
 * QuotaSpec.reservation}) and a reservation's state ({@code GroupReservation}, on runtime records
 * and in the reservations store). Pure functions; {@code spec -> record -> spec} and {@code status
 * -> record -> status} are the identity.
 */
public final class ReservationRecords {

  private static final String VALUE_FIELD =
      "metadata.annotations[quotaflow.io/reservation].percentage.value";

  private ReservationRecords() {}

  /** The annotation as the core reads it. */
  public static ReservationSpec spec(final io.quotaflow.schemas.ReservationSpec record) {
    final List<SpecProblem> problems = new ArrayList<>();
    record
        .getProblems()
        .forEach(problem -> problems.add(new SpecProblem(problem.getField(), problem.getReason())));
    Optional<ReservationPercentage> percentage = Optional.empty();
    if (record.getPercentage().isPresent()) {
      final io.quotaflow.schemas.ReservationPercentage share = record.getPercentage().get();
      try {
        percentage =
            Optional.of(
                new ReservationPercentage(new BigDecimal(share.getValue()), share.getDimensions()));
      } catch (NumberFormatException e) {
        // Only a writer other than quotaflow's source can put a non-number here.
        problems.add(new SpecProblem(VALUE_FIELD, "\"" + share.getValue() + "\" is not a number"));
      }
    }
    return new ReservationSpec(
        policy(record.getPolicy()),
        record.getResource().map(ResourceList::of),
        percentage,
        problems);
  }

  /** The annotation as its record carries it. */
  public static io.quotaflow.schemas.ReservationSpec record(final ReservationSpec spec) {
    return io.quotaflow.schemas.ReservationSpec.newBuilder()
        .setPolicy(policy(spec.policy()))
        .setResource(spec.resource().map(ResourceList::asMap).orElse(null))
        .setPercentage(
            spec.percentage()
                .map(
                    share ->
                        io.quotaflow.schemas.ReservationPercentage.newBuilder()
                            .setValue(share.value().toString())
                            .setDimensions(share.dimensions())
                            .build())
                .orElse(null))
        .setProblems(
            spec.problems().stream()
                .map(
                    problem ->
                        FieldProblem.newBuilder()
                            .setField(problem.field())
                            .setReason(problem.reason())
                            .build())
                .toList())
        .build();
  }

  /** A reservation's state as a record. */
  public static GroupReservation record(final ReservationStatus status) {
    return GroupReservation.newBuilder()
        .setPolicy(policy(status.policy()))
        .setValid(status.valid())
        .setReason(status.reason().orElse(null))
        .setTarget(status.target().asMap())
        .setMinNodes(status.minNodes())
        .setNodes(status.nodes())
        .setSatisfied(status.satisfied())
        .setIdle(status.idle().asMap())
        .setRequestedAt(Instant.ofEpochMilli(status.requestedAt()))
        .build();
  }

  /** The state a record carries. */
  public static ReservationStatus status(final GroupReservation record) {
    return new ReservationStatus(
        policy(record.getPolicy()),
        record.getValid(),
        record.getReason(),
        ResourceList.of(record.getTarget()),
        record.getMinNodes(),
        record.getNodes(),
        record.getSatisfied(),
        ResourceList.of(record.getIdle()),
        record.getRequestedAt().toEpochMilli());
  }

  /** A policy this version does not know is read as BestEffort, which never evicts. */
  private static ReservationPolicy policy(final io.quotaflow.schemas.ReservationPolicy policy) {
    return policy == io.quotaflow.schemas.ReservationPolicy.GUARANTEED
        ? ReservationPolicy.GUARANTEED
        : ReservationPolicy.BEST_EFFORT;
  }

  private static io.quotaflow.schemas.ReservationPolicy policy(final ReservationPolicy policy) {
    return switch (policy) {
      case BEST_EFFORT -> io.quotaflow.schemas.ReservationPolicy.BEST_EFFORT;
      case GUARANTEED -> io.quotaflow.schemas.ReservationPolicy.GUARANTEED;
    };
  }
}
