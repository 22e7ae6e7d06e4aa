package io.quotaflow.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecProblem;
import io.quotaflow.quota.SpecialGroups;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class ElasticQuotaAdapterTest {

  private static final long GI = 1L << 30;

  @Test
  void readsMinAndMaxInCanonicalUnits() {
    final QuotaGroup group =
        quota("team-a")
            .min(Map.of("cpu", "10", "memory", "20Gi", "nvidia.com/gpu", 1))
            .max(Map.of("cpu", new BigDecimal("20.5"), "memory", "40Gi", "nvidia.com/gpu", 2L))
            .adapt();

    assertThat(group.name()).isEqualTo("team-a");
    assertThat(group.min())
        .isEqualTo(ResourceList.of("cpu", 10_000, "memory", 20 * GI, "nvidia.com/gpu", 1));
    assertThat(group.max())
        .isEqualTo(ResourceList.of("cpu", 20_500, "memory", 40 * GI, "nvidia.com/gpu", 2));
    assertThat(group.problems()).isEmpty();
  }

  @Test
  void aBareQuotaIsALendingLeafUnderTheRootWithNothingElseSet() {
    final QuotaGroup group = quota("bare").adapt();

    assertThat(group.parent()).isEqualTo(SpecialGroups.ROOT);
    assertThat(group.parentGroup()).isFalse();
    assertThat(group.allowLent()).isTrue();
    assertThat(group.min()).isEqualTo(ResourceList.empty());
    assertThat(group.max()).isEqualTo(ResourceList.empty());
    assertThat(group.sharedWeight()).isEmpty();
    assertThat(group.lendingLimit()).isEmpty();
    assertThat(group.borrowingLimit()).isEmpty();
    assertThat(group.namespaces()).isEmpty();
    assertThat(group.problems()).isEmpty();
  }

  /** Where a group's parent comes from: one rule a row, the labels and the parent they give. */
  static Stream<Arguments> parentLabels() {
    return Stream.of(
        arguments(
            "the parent comes from the parent label", Map.of(QuotaLabels.PARENT, "dept"), "dept"),
        arguments(
            "the proposal's parent-quota-name label is an alias",
            Map.of(QuotaLabels.PARENT_QUOTA_NAME, "dept"),
            "dept"),
        arguments(
            "the parent label wins over the alias",
            Map.of(QuotaLabels.PARENT, "dept", QuotaLabels.PARENT_QUOTA_NAME, "other"),
            "dept"),
        arguments(
            "an empty parent label means the root",
            Map.of(QuotaLabels.PARENT, ""),
            SpecialGroups.ROOT));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("parentLabels")
  void theParentIsReadFromTheLabels(String rule, Map<String, String> labels, String parent) {
    final QuotaFixture quota = quota("a");
    labels.forEach(quota::label);

    assertThat(quota.adapt().parent()).isEqualTo(parent);
  }

  @ParameterizedTest(name = "is-parent \"{0}\" -> parent group {1}")
  @CsvSource({"true, true", "false, false", "True, false", "yes, false", "'', false"})
  void onlyTheLiteralTrueMakesAParentGroup(String label, boolean parentGroup) {
    assertThat(quota("a").label(QuotaLabels.IS_PARENT, label).adapt().parentGroup())
        .isEqualTo(parentGroup);
  }

  @ParameterizedTest(name = "allow-lent-resource \"{0}\" -> lends {1}")
  @CsvSource({"false, false", "true, true", "False, true", "no, true", "'', true"})
  void onlyTheLiteralFalseTurnsLendingOff(String label, boolean allowLent) {
    assertThat(quota("a").label(QuotaLabels.ALLOW_LENT_RESOURCE, label).adapt().allowLent())
        .isEqualTo(allowLent);
  }

  @Test
  void readsTheSharedWeightAsAJsonResourceListOfStringsOrNumbers() {
    final QuotaGroup group =
        quota("a")
            .annotation(QuotaLabels.SHARED_WEIGHT, "{\"cpu\": \"4\", \"memory\": 8, \"x\": 0.5}")
            .adapt();

    assertThat(group.sharedWeight()).contains(ResourceList.of("cpu", 4000, "memory", 8, "x", 1));
    assertThat(group.problems()).isEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          an all-zero shared weight means the default weight | {"cpu": "0", "memory": 0}
          a blank shared weight is unset                     | ' '
          """)
  void aSharedWeightWithoutAWeightIsUnsetWithoutAProblem(String rule, String annotation) {
    final QuotaGroup group = quota("a").annotation(QuotaLabels.SHARED_WEIGHT, annotation).adapt();

    assertThat(group.sharedWeight()).isEmpty();
    assertThat(group.problems()).isEmpty();
  }

  @ParameterizedTest(name = "shared-weight {0} is a problem")
  @CsvSource(
      delimiter = '|',
      value = {
        "{cpu: 4, memory: 8Gi}",
        "not json",
        "[\"cpu\"]",
        "\"4\"",
        "{\"cpu\": \"4\"} trailing",
        "{\"cpu\": \"4\", \"cpu\": \"5\"}",
        "{\"cpu\": \"four\", \"memory\": \"8Gi\"}",
        "{\"cpu\": true}",
        "{\"cpu\": null}",
        "{\"cpu\": {\"a\": 1}}",
      })
  void anUnreadableSharedWeightIsAProblemAndTheWeightIsLeftUnset(String annotation) {
    final QuotaGroup group =
        quota("a")
            .min(Map.of("cpu", "1"))
            .annotation(QuotaLabels.SHARED_WEIGHT, annotation)
            .adapt();

    assertThat(group.sharedWeight()).isEmpty();
    assertThat(group.problems())
        .isNotEmpty()
        .allSatisfy(
            problem ->
                assertThat(problem.field())
                    .startsWith("metadata.annotations[" + QuotaLabels.SHARED_WEIGHT + "]"));
    assertThat(group.name()).isEqualTo("a");
    assertThat(group.min()).isEqualTo(ResourceList.of("cpu", 1000));
  }

  @Test
  void aBadQuantityInTheSharedWeightNamesTheResource() {
    final QuotaGroup group =
        quota("a").annotation(QuotaLabels.SHARED_WEIGHT, "{\"cpu\": \"four\"}").adapt();

    assertThat(group.problems())
        .singleElement()
        .satisfies(
            problem -> {
              assertThat(problem.field())
                  .isEqualTo("metadata.annotations[" + QuotaLabels.SHARED_WEIGHT + "][cpu]");
              assertThat(problem.reason()).contains("\"four\" is not a valid quantity");
            });
  }

  @Test
  void readsTheNamespacesAnnotation() {
    final QuotaGroup group =
        quota("a").annotation(QuotaLabels.NAMESPACES, "[\"web\", \"api\"]").adapt();

    assertThat(group.namespaces()).containsExactly("web", "api");
  }

  @ParameterizedTest(name = "namespaces {0} is a problem")
  @CsvSource(
      delimiter = '|',
      value = {"web, api", "{\"a\": 1}", "[\"web\", 3]", "[\"\"]", "[web]"})
  void anUnreadableNamespacesAnnotationIsAProblemAndNoNamespaceIsTaken(String annotation) {
    final QuotaGroup group = quota("a").annotation(QuotaLabels.NAMESPACES, annotation).adapt();

    assertThat(group.namespaces()).isEmpty();
    assertThat(group.problems())
        .extracting(SpecProblem::field)
        .containsExactly("metadata.annotations[" + QuotaLabels.NAMESPACES + "]");
  }

  @Test
  void readsLendingAndBorrowingLimits() {
    final QuotaGroup group =
        quota("a")
            .annotation(QuotaLabels.LENDING_LIMIT, "{\"cpu\": \"2\"}")
            .annotation(QuotaLabels.BORROWING_LIMIT, "{\"cpu\": \"500m\", \"memory\": \"1Gi\"}")
            .adapt();

    assertThat(group.lendingLimit()).contains(ResourceList.of("cpu", 2000));
    assertThat(group.borrowingLimit()).contains(ResourceList.of("cpu", 500, "memory", GI));
  }

  @Test
  void unreadableLimitsAreProblemsAndAreLeftUnset() {
    final QuotaGroup group =
        quota("a")
            .annotation(QuotaLabels.LENDING_LIMIT, "{\"cpu\": \"2\", \"memory\": \"x\"}")
            .annotation(QuotaLabels.BORROWING_LIMIT, "cpu=2")
            .adapt();

    assertThat(group.lendingLimit()).isEmpty();
    assertThat(group.borrowingLimit()).isEmpty();
    assertThat(group.problems())
        .extracting(SpecProblem::field)
        .containsExactly(
            "metadata.annotations[" + QuotaLabels.LENDING_LIMIT + "][memory]",
            "metadata.annotations[" + QuotaLabels.BORROWING_LIMIT + "]");
  }

  @Test
  void aBadQuantityInMinIsAProblemAndOnlyThatDimensionIsLeftOut() {
    final QuotaGroup group =
        quota("a")
            .min(ordered("cpu", "ten", "memory", "1Gi"))
            .max(ordered("cpu", "20", "memory", "9Ei"))
            .adapt();

    assertThat(group.min()).isEqualTo(ResourceList.of("memory", GI));
    assertThat(group.max()).isEqualTo(ResourceList.of("cpu", 20_000));
    assertThat(group.problems())
        .extracting(SpecProblem::field)
        .containsExactly("spec.min[cpu]", "spec.max[memory]");
    assertThat(group.problems().get(1).reason()).contains("does not fit a 64-bit integer");
  }

  @Test
  void negativeQuantitiesAreReadForValidationToJudge() {
    final QuotaGroup group = quota("a").min(Map.of("cpu", "-1")).adapt();

    assertThat(group.min()).isEqualTo(ResourceList.of("cpu", -1000));
    assertThat(group.problems()).isEmpty();
  }

  @Test
  void aQuantityThatIsNotAScalarIsAProblem() {
    final QuotaGroup group = quota("a").min(Map.of("cpu", List.of("1"))).adapt();

    assertThat(group.problems())
        .containsExactly(new SpecProblem("spec.min[cpu]", "a list is not a quantity"));
  }

  @Test
  void aSpecThatIsNotAMapIsAProblem() {
    final GenericKubernetesResource resource = quota("a").build();
    resource.setAdditionalProperty("spec", "nothing");

    final QuotaGroup group = ElasticQuotaAdapter.toQuotaGroup(resource);

    assertThat(group.problems())
        .containsExactly(new SpecProblem("spec", "expected a map, found \"nothing\""));
  }

  @Test
  void aMinThatIsNotAMapIsAProblem() {
    final GenericKubernetesResource resource = quota("a").build();
    resource.setAdditionalProperty("spec", Map.of("min", "10"));

    assertThat(ElasticQuotaAdapter.toQuotaGroup(resource).problems())
        .extracting(SpecProblem::field)
        .containsExactly("spec.min");
  }

  @Test
  void aQuotaWithoutANameIsAProblem() {
    final GenericKubernetesResource resource = quota("a").build();
    resource.getMetadata().setName(null);

    assertThat(ElasticQuotaAdapter.toQuotaGroup(resource).problems())
        .extracting(SpecProblem::field)
        .containsExactly("metadata.name");
  }

  // Fixtures.

  private static Map<String, Object> ordered(Object... pairs) {
    final Map<String, Object> map = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      map.put((String) pairs[i], pairs[i + 1]);
    }
    return map;
  }

  static QuotaFixture quota(String name) {
    return new QuotaFixture(name);
  }

  /** An ElasticQuota as a generic resource, as the loader and the informers see it. */
  static final class QuotaFixture {
    private final String name;
    private final Map<String, String> labels = new LinkedHashMap<>();
    private final Map<String, String> annotations = new LinkedHashMap<>();
    private final Map<String, Object> spec = new LinkedHashMap<>();

    QuotaFixture(String name) {
      this.name = name;
    }

    QuotaFixture label(String key, String value) {
      labels.put(key, value);
      return this;
    }

    QuotaFixture annotation(String key, String value) {
      annotations.put(key, value);
      return this;
    }

    QuotaFixture min(Map<String, ?> min) {
      spec.put("min", min);
      return this;
    }

    QuotaFixture max(Map<String, ?> max) {
      spec.put("max", max);
      return this;
    }

    GenericKubernetesResource build() {
      return new GenericKubernetesResourceBuilder()
          .withApiVersion(ElasticQuotaApi.API_VERSION)
          .withKind(ElasticQuotaApi.KIND)
          .withNewMetadata()
          .withName(name)
          .withNamespace("quotas")
          .withLabels(labels)
          .withAnnotations(annotations)
          .endMetadata()
          .addToAdditionalProperties("spec", spec)
          .build();
    }

    QuotaGroup adapt() {
      return ElasticQuotaAdapter.toQuotaGroup(build());
    }
  }
}
