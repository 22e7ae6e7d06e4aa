package io.quotaflow.engine.convert;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.quota.ReservationPercentage;
import io.quotaflow.quota.ReservationPolicy;
import io.quotaflow.quota.ReservationSpec;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecProblem;
import io.quotaflow.reservation.ReservationStatus;
import io.quotaflow.schemas.ReservationPercentage.Builder;
import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Reservations between the core and the records, both ways, without loss. */
class ReservationRecordsTest {

  @Test
  void anAnnotationSurvivesItsRecordExactly() {
    final ReservationSpec spec =
        new ReservationSpec(
            ReservationPolicy.GUARANTEED,
            Optional.of(ResourceList.of("cpu", 2_000, "memory", 4L << 30)),
            Optional.of(new ReservationPercentage(new BigDecimal("0.125"), List.of("cpu"))),
            List.of(new SpecProblem("f", "why")));

    assertThat(ReservationRecords.spec(ReservationRecords.record(spec))).isEqualTo(spec);
  }

  @Test
  void aStatusSurvivesItsRecordExactly() {
    final ReservationStatus status =
        new ReservationStatus(
            ReservationPolicy.BEST_EFFORT,
            true,
            Optional.of("not satisfied: reasons"),
            ResourceList.of("cpu", 16_000),
            2,
            List.of("n1", "n2"),
            false,
            ResourceList.of("cpu", 3_000),
            1_234_567L);

    assertThat(ReservationRecords.status(ReservationRecords.record(status))).isEqualTo(status);
  }

  @Test
  void aPolicyUnknownToThisVersionIsReadAsBestEffortWhichNeverEvicts() {
    final io.quotaflow.schemas.ReservationSpec record =
        io.quotaflow.schemas.ReservationSpec.newBuilder(
                ReservationRecords.record(
                    ReservationSpec.of(ReservationPolicy.GUARANTEED, ResourceList.of("cpu", 1))))
            .setPolicy(io.quotaflow.schemas.ReservationPolicy.UNKNOWN)
            .build();

    assertThat(ReservationRecords.spec(record).policy()).isEqualTo(ReservationPolicy.BEST_EFFORT);
  }

  @Test
  void aPercentageThatIsNotANumberBecomesAProblemOfTheReservation() {
    final Builder share =
        io.quotaflow.schemas.ReservationPercentage.newBuilder()
            .setValue("a fifth")
            .setDimensions(List.of());
    final io.quotaflow.schemas.ReservationSpec record =
        io.quotaflow.schemas.ReservationSpec.newBuilder()
            .setPolicy(io.quotaflow.schemas.ReservationPolicy.BEST_EFFORT)
            .setResource(null)
            .setPercentage(share.build())
            .setProblems(List.of())
            .build();

    final ReservationSpec spec = ReservationRecords.spec(record);

    assertThat(spec.percentage()).isEmpty();
    assertThat(spec.problems())
        .singleElement()
        .satisfies(problem -> assertThat(problem.reason()).contains("a fifth"));
  }
}
