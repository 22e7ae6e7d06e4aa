package io.quotaflow.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.Eviction;
import io.fabric8.kubernetes.api.model.policy.v1.EvictionBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.quotaflow.cluster.ElasticQuotas;
import io.quotaflow.quota.PodRef;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
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
  void theDemoClusterServesBothPodGroupApisAsAClusterWithTheirCrds() {
    // What the connectors' source.podgroups=auto asks at start: both are then watched.
    for (final String groupVersion :
        List.of("scheduling.x-k8s.io/v1alpha1", "scheduling.volcano.sh/v1beta1")) {
      assertThat(demo.client().getApiResources(groupVersion))
          .as(groupVersion)
          .isNotNull()
          .satisfies(
              list ->
                  assertThat(list.getResources())
                      .extracting(APIResource::getName)
                      .contains("podgroups"));
    }
    // Another group version lists no podgroups (the mock answers an empty list where a real API
    // server answers 404; discovery reads both as not served).
    assertThat(
            Optional.ofNullable(demo.client().getApiResources("scheduling.example.com/v1"))
                .map(APIResourceList::getResources)
                .orElse(List.of()))
        .extracting(APIResource::getName)
        .doesNotContain("podgroups");
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

  @Test
  void aReplaceThatMeetsAnotherWritersWriteIsDoneAgainOnAFreshRead() {
    demo.create(elasticQuota("conflicts", "team-c", "1"));
    final var quotas = demo.client().genericKubernetesResources(ElasticQuotas.CONTEXT);
    final AtomicInteger reads = new AtomicInteger();
    // The status writer's patch lands between the replace's read and its write, once.
    demo.betweenReadAndReplace(
        () -> {
          if (reads.incrementAndGet() == 1) {
            quotas
                .inNamespace("conflicts")
                .withName("team-c")
                .edit(
                    quota -> {
                      quota.getMetadata().setAnnotations(Map.of("written-by", "status-writer"));
                      return quota;
                    });
          }
        });
    try {
      demo.apply(elasticQuota("conflicts", "team-c", "3"));
    } finally {
      demo.betweenReadAndReplace(() -> {});
    }

    assertThat(reads).hasValue(2);
    final GenericKubernetesResource stored =
        quotas.inNamespace("conflicts").withName("team-c").get();
    assertThat(stored.getAdditionalProperties().get("spec"))
        .isEqualTo(Map.of("min", Map.of("cpu", "3")));
  }

  @Test
  void aStaleReplaceIsAConflictInTheDemoCluster() {
    // What ConflictRetry answers: the mock API server refuses a stale resourceVersion as a real
    // one.
    demo.create(elasticQuota("conflicts", "team-s", "1"));
    final var quotas = demo.client().genericKubernetesResources(ElasticQuotas.CONTEXT);
    final GenericKubernetesResource read = quotas.inNamespace("conflicts").withName("team-s").get();
    quotas
        .inNamespace("conflicts")
        .withName("team-s")
        .edit(
            quota -> {
              quota.getMetadata().setAnnotations(Map.of("written-by", "status-writer"));
              return quota;
            });

    assertThatThrownBy(() -> quotas.resource(read).update())
        .isInstanceOfSatisfying(
            KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(409));
  }

  private static GenericKubernetesResource elasticQuota(
      final String namespace, final String name, final String minCpu) {
    return new GenericKubernetesResourceBuilder()
        .withApiVersion("scheduling.sigs.k8s.io/v1alpha1")
        .withKind("ElasticQuota")
        .withNewMetadata()
        .withNamespace(namespace)
        .withName(name)
        .endMetadata()
        .withAdditionalProperties(Map.of("spec", Map.of("min", Map.of("cpu", minCpu))))
        .build();
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
