package io.quotaflow.kube;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.quotaflow.profile.QuotaProfile;
import io.quotaflow.profile.ResourceRatio;
import java.math.BigDecimal;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ElasticQuotaProfileAdapterTest {

  private static final YAMLMapper YAML = new YAMLMapper();

  private static QuotaProfile read(String yaml) {
    try {
      return ElasticQuotaProfileAdapter.toQuotaProfile(
          YAML.readValue(yaml, GenericKubernetesResource.class));
    } catch (JsonProcessingException e) {
      throw new AssertionError(e);
    }
  }

  private static final String HEAD =
      "apiVersion: quota.koordinator.sh/v1alpha1\n"
          + "kind: ElasticQuotaProfile\n"
          + "metadata: {name: gpu-pool, namespace: kube-system}\n";

  @Test
  void readsQuotaNameRatioAndSelector() {
    final QuotaProfile profile =
        read(
            HEAD
                + "spec:\n  quotaName: gpu-root\n  resourceRatio: \"0.9\"\n"
                + "  quotaLabels: {team: ml}\n"
                + "  nodeSelector:\n    matchLabels: {pool: gpu}\n"
                + "    matchExpressions: [{key: zone, operator: In, values: [a, b]}]\n");
    assertThat(profile.problems()).isEmpty();
    assertThat(profile.treeId()).isEqualTo("gpu-pool");
    assertThat(profile.quotaName()).isEqualTo("gpu-root");
    assertThat(profile.quotaLabels()).isEqualTo(Map.of("team", "ml"));
    assertThat(profile.ratio()).isEqualTo(new ResourceRatio(new BigDecimal("0.9")));
    assertThat(profile.nodeSelector().matches(Map.of("pool", "gpu", "zone", "b"))).isTrue();
    assertThat(profile.nodeSelector().matches(Map.of("pool", "gpu", "zone", "c"))).isFalse();
    assertThat(profile.nodeSelector().matches(Map.of("zone", "a"))).isFalse();
  }

  @Test
  void theTreeIdLabelNamesTheTreeAndAMissingRatioIsOne() {
    final QuotaProfile profile =
        read(
            "apiVersion: quota.koordinator.sh/v1alpha1\nkind: ElasticQuotaProfile\n"
                + "metadata: {name: p, labels: {quota.scheduling.koordinator.sh/tree-id: \"42\"}}\n"
                + "spec: {quotaName: r, nodeSelector: {}}\n");
    assertThat(profile.treeId()).isEqualTo("42");
    assertThat(profile.ratio()).isEqualTo(ResourceRatio.ONE);
    assertThat(profile.nodeSelector().matches(Map.of())).isTrue();
  }

  @Test
  void anUnreadableRatioOrSelectorIsAProblemAndSelectsNoNode() {
    final QuotaProfile profile =
        read(
            HEAD
                + "spec:\n  quotaName: gpu-root\n  resourceRatio: lots\n"
                + "  nodeSelector: {matchExpressions: [{key: zone, operator: Near}]}\n");
    assertThat(profile.problems())
        .extracting(Object::toString)
        .containsExactly(
            "spec.resourceRatio: \"lots\" is not a number",
            "spec.nodeSelector.matchExpressions[0]: needs a key and an operator (In, NotIn,"
                + " Exists, DoesNotExist)");
    assertThat(profile.nodeSelector().matches(Map.of("zone", "a"))).isFalse();
  }

  @Test
  void aMissingSelectorIsAProblem() {
    assertThat(read(HEAD + "spec: {quotaName: gpu-root}\n").problems())
        .extracting(Object::toString)
        .containsExactly("spec.nodeSelector: is required");
  }
}
