package io.quotaflow.source;

import static io.quotaflow.fixtures.KubeObjects.quota;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.quotaflow.fixtures.Keys;
import io.quotaflow.fixtures.MockCluster;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.quota.SpecialQuotaNamespaces;
import io.quotaflow.topics.TopicCatalogue;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 39 point 5 (attack): an ElasticQuota named like a special group, created where the quotas
 * webhook was not called, in a tenant's namespace that sorts first (so it would win the name by the
 * first-created rule), never stands for the group; the source's ElasticQuota kind reports it among
 * the ignored namesakes and publishes nothing from it alone.
 */
class SpecialQuotaKindTest {
  private static final String TENANT = "aaa-tenant";

  private static MockCluster mock;
  private static SharedIndexInformer<GenericKubernetesResource> informer;
  private static ElasticQuotaKind kind;

  @BeforeAll
  static void watch() throws Exception {
    mock = MockCluster.start("east");
    kind =
        new ElasticQuotaKind(
            TopicCatalogue.withDefaultPrefix().quotas(), SpecialQuotaNamespaces.DEFAULT);
    informer = kind.informer(mock.client(), Duration.ofMinutes(10));
    informer.start().toCompletableFuture().get();
  }

  @AfterAll
  static void stop() {
    informer.stop();
    mock.close();
  }

  @Test
  void aTenantsDefaultGroupNeverWinsTheNameAndIsReported() {
    mock.quotas().resource(quota(TENANT, SpecialGroups.DEFAULT).max("cpu", "1").build()).create();
    mock.quotas()
        .resource(quota("kube-system", SpecialGroups.DEFAULT).max("cpu", "20").build())
        .create();
    await().atMost(Duration.ofSeconds(10)).until(() -> informer.getStore().list().size() >= 2);

    final GenericKubernetesResource standing =
        kind.current(informer, Keys.quota(SpecialGroups.DEFAULT)).orElseThrow();
    assertThat(standing.getMetadata().getNamespace()).isEqualTo("kube-system");
    assertThat(kind.map("east", standing).value().getIgnoredNamesakes()).containsExactly(TENANT);
  }

  @Test
  void onlyATenantsSystemGroupIsNotPublished() {
    mock.quotas().resource(quota(TENANT, SpecialGroups.SYSTEM).max("cpu", "1").build()).create();
    await()
        .atMost(Duration.ofSeconds(10))
        .until(
            () ->
                informer.getStore().list().stream()
                    .anyMatch(q -> q.getMetadata().getName().equals(SpecialGroups.SYSTEM)));

    assertThat(kind.current(informer, Keys.quota(SpecialGroups.SYSTEM))).isEmpty();
  }
}
