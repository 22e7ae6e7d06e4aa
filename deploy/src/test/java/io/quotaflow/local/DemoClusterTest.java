package io.quotaflow.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.Eviction;
import io.fabric8.kubernetes.api.model.policy.v1.EvictionBuilder;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.quotaflow.cluster.ElasticQuotas;
import io.quotaflow.quota.PodRef;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class DemoClusterTest {

  private static DemoCluster demo;

  @BeforeAll
  static void start() {
    demo = DemoCluster.start();
  }

  @AfterAll
  static void stop() {
    demo.close();
  }

  @Test
  void anEvictionIsAcceptedAndThePodDeletedAsTheApiServerWould() {
    demo.create(List.of(pod("evict-me", "victim"), pod("evict-me", "bystander")));
    final Eviction eviction =
        new EvictionBuilder()
            .withNewMetadata()
            .withNamespace("evict-me")
            .withName("victim")
            .endMetadata()
            .build();

    final boolean accepted =
        demo.client().pods().inNamespace("evict-me").withName("victim").evict(eviction);

    assertThat(accepted).isTrue();
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> demo.client().pods().inNamespace("evict-me").withName("victim").get() == null);
    assertThat(demo.evicted()).contains(new PodRef("evict-me", "victim"));
    assertThat(demo.client().pods().inNamespace("evict-me").withName("bystander").get())
        .isNotNull();
  }

  @Test
  void aPodGroupIsCreatedAsAPodGroupNotAsAnElasticQuota() {
    final GenericKubernetesResource podGroup =
        new GenericKubernetesResourceBuilder()
            .withApiVersion("scheduling.volcano.sh/v1beta1")
            .withKind("PodGroup")
            .withNewMetadata()
            .withNamespace("gangs")
            .withName("job")
            .endMetadata()
            .withAdditionalProperties(Map.of("spec", Map.of("minMember", 2)))
            .build();

    demo.create(podGroup);

    assertThat(
            demo.client()
                .genericKubernetesResources(
                    new ResourceDefinitionContext.Builder()
                        .withGroup("scheduling.volcano.sh")
                        .withVersion("v1beta1")
                        .withKind("PodGroup")
                        .withPlural("podgroups")
                        .withNamespaced(true)
                        .build())
                .inNamespace("gangs")
                .withName("job")
                .get())
        .isNotNull();
    assertThat(
            demo.client()
                .genericKubernetesResources(ElasticQuotas.CONTEXT)
                .inNamespace("gangs")
                .withName("job")
                .get())
        .isNull();
  }

  @Test
  void elasticQuotasAreCreatedWithoutACustomResourceDefinition() {
    final GenericKubernetesResource quota =
        new GenericKubernetesResourceBuilder()
            .withApiVersion("scheduling.sigs.k8s.io/v1alpha1")
            .withKind("ElasticQuota")
            .withNewMetadata()
            .withNamespace("quotas")
            .withName("team-x")
            .endMetadata()
            .withAdditionalProperties(Map.of("spec", Map.of("min", Map.of("cpu", "1"))))
            .build();

    demo.create(quota);

    assertThat(
            demo.client()
                .genericKubernetesResources(ElasticQuotas.CONTEXT)
                .inNamespace("quotas")
                .withName("team-x")
                .get())
        .isNotNull();
  }

  private static Pod pod(final String namespace, final String name) {
    return new PodBuilder()
        .withNewMetadata()
        .withNamespace(namespace)
        .withName(name)
        .endMetadata()
        .withNewSpec()
        .addNewContainer()
        .withName("main")
        .withImage("example/main")
        .endContainer()
        .endSpec()
        .build();
  }
}
