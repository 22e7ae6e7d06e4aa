package io.quotaflow.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.ReservationPercentage;
import io.quotaflow.quota.ReservationPolicy;
import io.quotaflow.quota.ReservationSpec;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecProblem;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Reading the annotation quotaflow.io/reservation, and what a bad one does (and does not) do. */
class ReservationAnnotationTest {

  private static final long GI = 1L << 30;
  private static final String FIELD = "metadata.annotations[quotaflow.io/reservation]";

  private static ReservationSpec read(String text) {
    return ReservationAnnotation.read(text).orElseThrow();
  }

  @Test
  void readsPolicyResourceAndPercentageExactly() {
    final ReservationSpec spec =
        read(
            "{\"policy\": \"Guaranteed\", \"resource\": {\"cpu\": \"2\", \"memory\": \"4Gi\"},"
                + " \"percentage\": {\"value\": 0.20, \"dimensions\": [\"cpu\", \"memory\"]}}");

    assertThat(spec.policy()).isEqualTo(ReservationPolicy.GUARANTEED);
    assertThat(spec.resource()).contains(ResourceList.of("cpu", 2_000, "memory", 4 * GI));
    assertThat(spec.percentage())
        .contains(new ReservationPercentage(new BigDecimal("0.2"), List.of("cpu", "memory")));
    assertThat(spec.problems()).isEmpty();
  }

  @Test
  void thePolicyDefaultsToBestEffortAndVolcanosSpellingIsAnAlias() {
    assertThat(read("{\"resource\": {\"cpu\": 1}}").policy())
        .isEqualTo(ReservationPolicy.BEST_EFFORT);
    assertThat(read("{\"policy\": \"Best-Effort\", \"resource\": {\"cpu\": 1}}").policy())
        .isEqualTo(ReservationPolicy.BEST_EFFORT);
  }

  @Test
  void aPercentageWithoutDimensionsCountsNodesOnly() {
    assertThat(read("{\"percentage\": {\"value\": 0.5}}").percentage())
        .contains(new ReservationPercentage(new BigDecimal("0.5"), List.of()));
  }

  @Test
  void anAbsentOrBlankAnnotationIsNoReservation() {
    assertThat(ReservationAnnotation.read(null)).isEmpty();
    assertThat(ReservationAnnotation.read("  ")).isEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "not JSON                       | {cpu: 1                                                  | "
            + FIELD
            + " | is not JSON",
        "not an object                  | [1, 2]                                                   | "
            + FIELD
            + " | expected a JSON object",
        "neither resource nor percentage| {\"policy\": \"Guaranteed\"}                            | "
            + FIELD
            + " | names neither resource nor percentage",
        "an unknown field               | {\"resources\": {\"cpu\": 1}}                          | "
            + FIELD
            + ".resources | unknown field",
        "an unknown policy              | {\"policy\": \"Always\", \"resource\": {\"cpu\": 1}}   | "
            + FIELD
            + ".policy | is not a policy",
        "a policy that is not text      | {\"policy\": 1, \"resource\": {\"cpu\": 1}}            | "
            + FIELD
            + ".policy | is not a policy",
        "resource not an object         | {\"resource\": [\"cpu\"]}                              | "
            + FIELD
            + ".resource | expected a JSON object of quantities",
        "a quantity that does not parse | {\"resource\": {\"cpu\": \"lots\"}}                    | "
            + FIELD
            + ".resource[cpu] | not a valid quantity",
        "a negative quantity            | {\"resource\": {\"cpu\": \"-1\"}}                      | "
            + FIELD
            + ".resource[cpu] | must not be negative",
        "percentage not an object       | {\"percentage\": 0.2}                                  | "
            + FIELD
            + ".percentage | expected a JSON object",
        "a percentage without value     | {\"percentage\": {\"dimensions\": [\"cpu\"]}}          | "
            + FIELD
            + ".percentage.value | is missing",
        "a value that is not a number   | {\"percentage\": {\"value\": \"0.2\"}}                 | "
            + FIELD
            + ".percentage.value | is not a number",
        "dimensions not a list          | {\"percentage\": {\"value\": 0.2, \"dimensions\": \"cpu\"}} | "
            + FIELD
            + ".percentage.dimensions | expected a JSON list",
        "an empty dimension             | {\"percentage\": {\"value\": 0.2, \"dimensions\": [\"\"]}} | "
            + FIELD
            + ".percentage.dimensions | expected resource names",
        "a dimension named twice        | {\"percentage\": {\"value\": 0.2, \"dimensions\": [\"cpu\", \"cpu\"]}} | "
            + FIELD
            + ".percentage.dimensions | cpu is named twice",
        "an unknown percentage field    | {\"percentage\": {\"value\": 0.2, \"share\": 1}}       | "
            + FIELD
            + ".percentage.share | unknown field",
        "a value finer than 18 places   | {\"percentage\": {\"value\": 1e-999999999}}       | "
            + FIELD
            + ".percentage.value | has more than 18 decimal places",
        "a duplicate key                | {\"resource\": {\"cpu\": 1}, \"resource\": {\"cpu\": 2}} | "
            + FIELD
            + " | is not JSON",
      })
  void everyUnreadablePartIsAProblemNamingItsField(
      String what, String annotation, String field, String reason) {
    final ReservationSpec spec = read(annotation);

    assertThat(spec.problems())
        .as(what)
        .anySatisfy(
            problem -> {
              assertThat(problem.field()).isEqualTo(field);
              assertThat(problem.reason()).contains(reason);
            });
  }

  @Test
  void textThatIsNotJsonIsReportedWithWhereReadingStoppedAndNotTheParsersInternals() {
    final ReservationSpec spec = read("{\"resource\": {\"cpu\": \"1\"}");

    assertThat(spec.problems())
        .singleElement()
        .satisfies(
            problem ->
                assertThat(problem.reason())
                    .startsWith("\"{\"resource\": {\"cpu\": \"1\"}\" is not JSON: ")
                    .contains("(at column ")
                    .doesNotContain("Source")
                    .doesNotContain("StreamReadFeature"));
  }

  @Test
  void aValueWithEighteenDecimalPlacesIsReadExactly() {
    final ReservationSpec spec = read("{\"percentage\": {\"value\": 0.123456789012345678}}");

    assertThat(spec.problems()).isEmpty();
    assertThat(spec.percentage().orElseThrow().value())
        .isEqualByComparingTo(new BigDecimal("0.123456789012345678"));
  }

  @Test
  void anUnreadableReservationLeavesTheGroupsQuotaValidAndRead() {
    final GenericKubernetesResource quota =
        new GenericKubernetesResourceBuilder()
            .withApiVersion("scheduling.sigs.k8s.io/v1alpha1")
            .withKind("ElasticQuota")
            .withNewMetadata()
            .withName("team-a")
            .withAnnotations(Map.of(QuotaLabels.RESERVATION, "{not json"))
            .endMetadata()
            .withAdditionalProperties(Map.of("spec", Map.of("max", Map.of("cpu", "8"))))
            .build();

    final QuotaGroup group = ElasticQuotaAdapter.toQuotaGroup(quota);

    assertThat(group.problems()).isEmpty();
    assertThat(group.max()).isEqualTo(ResourceList.of("cpu", 8_000));
    assertThat(group.reservation().map(ReservationSpec::problems))
        .hasValueSatisfying(
            problems -> assertThat(problems).extracting(SpecProblem::field).containsOnly(FIELD));
  }

  @Test
  void aGroupWithoutTheAnnotationHasNoReservation() {
    final GenericKubernetesResource quota =
        new GenericKubernetesResourceBuilder()
            .withApiVersion("scheduling.sigs.k8s.io/v1alpha1")
            .withKind("ElasticQuota")
            .withNewMetadata()
            .withName("team-a")
            .endMetadata()
            .build();

    assertThat(ElasticQuotaAdapter.toQuotaGroup(quota).reservation()).isEqualTo(Optional.empty());
  }
}
