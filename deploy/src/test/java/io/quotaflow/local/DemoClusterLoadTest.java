package io.quotaflow.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.quotaflow.cluster.ElasticQuotas;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * {@link DemoCluster#load}: objects put in without HTTP are what HTTP creates would have made, and
 * an organisation of thousands of objects loads in seconds, not minutes (issue 32).
 */
class DemoClusterLoadTest {

  @Test
  void loadedObjectsHaveTheirOwnResourceVersionsAndAWatchStartedAfterwardsSeesThemAll() {
    try (DemoCluster demo = DemoCluster.start()) {
      final List<HasMetadata> objects = new ArrayList<>();
      objects.add(quota("dept"));
      objects.add(node("node-1"));
      IntStream.range(0, 200).forEach(i -> objects.add(pod("team-" + i % 7, "worker-" + i)));
      final List<Integer> progress = new ArrayList<>();

      demo.load(objects, progress::add);

      assertThat(progress).hasSize(objects.size()).endsWith(objects.size());
      final List<Pod> pods = demo.client().pods().inAnyNamespace().list().getItems();
      assertThat(pods).hasSize(200);
      assertThat(pods.stream().map(pod -> pod.getMetadata().getResourceVersion()).distinct())
          .hasSize(200);
      assertThat(pods).allSatisfy(pod -> assertThat(pod.getMetadata().getUid()).isNotBlank());
      assertThat(demo.client().nodes().withName("node-1").get()).isNotNull();
      assertThat(
              demo.client()
                  .genericKubernetesResources(ElasticQuotas.CONTEXT)
                  .inNamespace("quotas")
                  .withName("dept")
                  .get())
          .isNotNull();

      // As the connectors do: list, then watch from the list's resourceVersion.
      final Set<String> seen = ConcurrentHashMap.newKeySet();
      try (SharedIndexInformer<Pod> informer =
          demo.client().pods().inAnyNamespace().inform(recording(seen))) {
        await().atMost(Duration.ofSeconds(20)).until(() -> seen.size() == 200);
        demo.create(pod("team-1", "late"));
        await().atMost(Duration.ofSeconds(20)).until(() -> seen.contains("team-1/late"));
        final long late =
            Long.parseLong(
                demo.client()
                    .pods()
                    .inNamespace("team-1")
                    .withName("late")
                    .get()
                    .getMetadata()
                    .getResourceVersion());
        assertThat(pods)
            .allSatisfy(
                pod ->
                    assertThat(Long.parseLong(pod.getMetadata().getResourceVersion()))
                        .isLessThan(late));
      }
    }
  }

  @Test
  void loadedObjectsAreFoundByNameToReplaceAndDeleteOverHttp() {
    try (DemoCluster demo = DemoCluster.start()) {
      demo.load(
          List.of(pod("team-a", "worker-0"), pod("team-b", "worker-0"), quota("team-a")), n -> {});

      demo.apply(
          new PodBuilder(pod("team-b", "worker-0"))
              .editMetadata()
              .withLabels(Map.of("replaced", "yes"))
              .endMetadata()
              .build());
      demo.client().pods().inNamespace("team-a").withName("worker-0").delete();

      await()
          .atMost(Duration.ofSeconds(10))
          .until(
              () -> demo.client().pods().inNamespace("team-a").withName("worker-0").get() == null);
      assertThat(
              demo.client()
                  .pods()
                  .inNamespace("team-b")
                  .withName("worker-0")
                  .get()
                  .getMetadata()
                  .getLabels())
          .containsEntry("replaced", "yes");
      // The deleted pod's name is free again; the replaced one is still taken.
      demo.create(pod("team-a", "worker-0"));
      assertThatThrownBy(() -> demo.create(pod("team-b", "worker-0")))
          .hasMessageContaining("already exists");
    }
  }

  @Test
  void aNameTakenTwiceIsRefusedNamingTheObject() {
    try (DemoCluster demo = DemoCluster.start()) {
      assertThatThrownBy(
              () ->
                  demo.load(List.of(pod("team-a", "worker-0"), pod("team-a", "worker-0")), n -> {}))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("Pod team-a/worker-0")
          .hasMessageContaining("already exists");
    }
  }

  @Test
  void tenThousandPodsLoadWithEveryOneListed() {
    // Over HTTP, one create each, the CRUD mock took about 100 s for these on a 2-core machine: its
    // cost per create grew with the objects it held. How long a load takes now is measured by
    // bench/run-local-bench.sh (docs/PERFORMANCE.md), not asserted here.
    final List<HasMetadata> pods =
        IntStream.range(0, 10_000)
            .mapToObj(i -> (HasMetadata) pod("team-" + i / 10, "worker-" + i % 10))
            .toList();
    try (DemoCluster demo = DemoCluster.start()) {
      demo.load(pods, n -> {});

      assertThat(demo.client().pods().inAnyNamespace().list().getItems()).hasSize(10_000);
    }
  }

  private static ResourceEventHandler<Pod> recording(final Set<String> seen) {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(final Pod pod) {
        seen.add(pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName());
      }

      @Override
      public void onUpdate(final Pod before, final Pod after) {}

      @Override
      public void onDelete(final Pod pod, final boolean unknownFinalState) {}
    };
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

  private static Node node(final String name) {
    return new NodeBuilder().withNewMetadata().withName(name).endMetadata().build();
  }

  private static GenericKubernetesResource quota(final String name) {
    return new GenericKubernetesResourceBuilder()
        .withApiVersion("scheduling.sigs.k8s.io/v1alpha1")
        .withKind("ElasticQuota")
        .withNewMetadata()
        .withNamespace("quotas")
        .withName(name)
        .endMetadata()
        .withAdditionalProperties(Map.of("spec", Map.of("min", Map.of("cpu", "1"))))
        .build();
  }
}
