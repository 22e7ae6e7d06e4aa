package io.quotaflow.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.QuotaNode;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecProblem;
import io.quotaflow.tree.ClusterInputs;
import io.quotaflow.tree.GroupStatus;
import io.quotaflow.tree.QuotaCalculator;
import io.quotaflow.tree.QuotaOptions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * docs/semantics.md section 16: Koordinator's {@code allow-force-update} (a label upstream, also
 * accepted as an annotation) and {@code max-strict-check-resource-keys} (a JSON list of resource
 * names) read from an ElasticQuota.
 */
class KoordinatorWebhookAnnotationsTest {

  private static QuotaGroup read(Map<String, String> labels, Map<String, String> annotations) {
    final GenericKubernetesResource resource =
        new GenericKubernetesResourceBuilder()
            .withApiVersion("scheduling.sigs.k8s.io/v1alpha1")
            .withKind("ElasticQuota")
            .withNewMetadata()
            .withName("team-a")
            .withLabels(labels)
            .withAnnotations(annotations)
            .endMetadata()
            .addToAdditionalProperties("spec", Map.of("max", Map.of("cpu", "4")))
            .build();
    return ElasticQuotaAdapter.toQuotaGroup(resource);
  }

  @ParameterizedTest
  @CsvSource({"true, true", "True, false", "false, false", "'', false", "yes, false"})
  void onlyTheLiteralTrueAllowsAForceUpdateAsALabelOrAnAnnotation(String value, boolean force) {
    assertThat(read(Map.of(QuotaLabels.ALLOW_FORCE_UPDATE, value), Map.of()).allowForceUpdate())
        .isEqualTo(force);
    assertThat(read(Map.of(), Map.of(QuotaLabels.ALLOW_FORCE_UPDATE, value)).allowForceUpdate())
        .isEqualTo(force);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "[\"cpu\", \"nvidia.com/gpu\"] | cpu,nvidia.com/gpu",
        "[\"cpu\", \"cpu\"]            | cpu",
        "[]                            | ''",
        "' '                           | ''"
      })
  void readsTheStrictMaxKeysAsAJsonListOfResourceNames(String annotation, String keys) {
    final QuotaGroup group =
        read(Map.of(), Map.of(QuotaLabels.MAX_STRICT_CHECK_RESOURCE_KEYS, annotation));

    assertThat(group.maxStrictCheckKeys())
        .isEqualTo(keys.isEmpty() ? List.of() : List.of(keys.split(",")));
    assertThat(group.problems()).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"cpu", "{\"cpu\": 1}", "[\"cpu\", 1]", "[\"\"]", "[\"cpu\""})
  void anUnreadableStrictKeyListIsAProblemNamingTheAnnotationAndNoKeyIsTaken(String annotation) {
    final QuotaGroup group =
        read(Map.of(), Map.of(QuotaLabels.MAX_STRICT_CHECK_RESOURCE_KEYS, annotation));

    assertThat(group.maxStrictCheckKeys()).isEmpty();
    assertThat(group.problems())
        .singleElement()
        .extracting(SpecProblem::field)
        .isEqualTo(
            "metadata.annotations[quota.scheduling.koordinator.sh/max-strict-check-resource-keys]");
  }

  @ParameterizedTest
  @ValueSource(strings = {"cpu", "[\"cpu\", 1]"})
  void anUnreadableStrictKeyListLeavesTheGroupValidWithAWarningAndItsRuntimeAlone(String bad) {
    final QuotaGroup group =
        read(Map.of(), Map.of(QuotaLabels.MAX_STRICT_CHECK_RESOURCE_KEYS, bad));
    final QuotaGroup clean = read(Map.of(), Map.of());
    final ClusterInputs inputs =
        new ClusterInputs(
            List.of(group),
            List.of(),
            List.of(QuotaNode.healthy("n1", ResourceList.of("cpu", 10_000))));

    final GroupStatus status =
        QuotaCalculator.compute(inputs, QuotaOptions.DEFAULTS).group("team-a").orElseThrow();
    final GroupStatus expected =
        QuotaCalculator.compute(
                new ClusterInputs(List.of(clean), List.of(), inputs.nodes()), QuotaOptions.DEFAULTS)
            .group("team-a")
            .orElseThrow();

    assertThat(status.valid()).isTrue();
    assertThat(status.reason())
        .hasValueSatisfying(
            reason ->
                assertThat(reason)
                    .startsWith("warning: metadata.annotations[")
                    .contains("max-strict-check-resource-keys")
                    .endsWith("; no max is checked against used"));
    assertThat(status.runtime()).isEqualTo(expected.runtime());
  }
}
