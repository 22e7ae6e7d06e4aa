package io.quotaflow.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.quotaflow.quota.SpecProblem;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class PodGroupAdapterTest {

  @Test
  void readsTheConventionNamespaceNameAndMinMemberOfEitherApi() {
    final PodGroupObject schedulerPlugins =
        PodGroupAdapter.toPodGroup(podGroup("scheduling.x-k8s.io/v1alpha1", 3));
    final PodGroupObject volcano =
        PodGroupAdapter.toPodGroup(podGroup("scheduling.volcano.sh/v1beta1", 5));

    assertThat(schedulerPlugins)
        .isEqualTo(
            new PodGroupObject("team", "train", "scheduler-plugins", OptionalInt.of(3), List.of()));
    assertThat(volcano.convention()).isEqualTo("volcano");
    assertThat(volcano.minMember()).hasValue(5);
  }

  @Test
  void aWholeDecimalIsReadAndAFractionIsAProblem() {
    assertThat(
            PodGroupAdapter.toPodGroup(
                    podGroup("scheduling.x-k8s.io/v1alpha1", new BigDecimal("4.0")))
                .minMember())
        .hasValue(4);
    final PodGroupObject fraction =
        PodGroupAdapter.toPodGroup(podGroup("scheduling.x-k8s.io/v1alpha1", new BigDecimal("2.5")));
    assertThat(fraction.minMember()).isEmpty();
    assertThat(fraction.problems())
        .extracting(SpecProblem::field)
        .containsExactly("spec.minMember");
  }

  @Test
  void aNegativeOrTextualOrHugeMinMemberIsAProblem() {
    for (final Object value : new Object[] {-1, "3", 3_000_000_000L}) {
      final PodGroupObject podGroup =
          PodGroupAdapter.toPodGroup(podGroup("scheduling.volcano.sh/v1beta1", value));
      assertThat(podGroup.minMember()).as("%s", value).isEmpty();
      assertThat(podGroup.problems()).as("%s", value).hasSize(1);
    }
  }

  @Test
  void anotherKindIsRefused() {
    final GenericKubernetesResource quota = podGroup("scheduling.x-k8s.io/v1alpha1", 1);
    quota.setKind("ElasticQuota");

    assertThatThrownBy(() -> PodGroupAdapter.toPodGroup(quota))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private static GenericKubernetesResource podGroup(String apiVersion, Object minMember) {
    final Map<String, Object> spec = new HashMap<>();
    spec.put("minMember", minMember);
    return new GenericKubernetesResourceBuilder()
        .withApiVersion(apiVersion)
        .withKind("PodGroup")
        .withNewMetadata()
        .withNamespace("team")
        .withName("train")
        .endMetadata()
        .withAdditionalProperties(Map.of("spec", spec))
        .build();
  }
}
