package io.quotaflow.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodListBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.quotaflow.topics.TopicCatalogue;
import java.net.InetAddress;
import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 40.3: the pod informer lists in pages ({@code limit} and {@code continue}, as a real API
 * server pages; fabric8's mock ignores {@code limit}, so this dispatcher pages its pod lists) and
 * keeps trimmed pods.
 */
class PagedListsTest {

  private static final int PODS = 1_234;

  private final List<String> lists = new CopyOnWriteArrayList<>();
  private final KubernetesMockServer server =
      new KubernetesMockServer(
          new Context(), new MockWebServer(), new HashMap<>(), new PagingPods(), false);
  private KubernetesClient client;
  private SharedIndexInformer<Pod> informer;

  @AfterEach
  void stop() {
    if (informer != null) {
      informer.stop();
    }
    client.close();
    server.destroy();
  }

  @Test
  void podsAreListedInPagesAndKeptTrimmed() {
    server.init(InetAddress.getLoopbackAddress(), 0);
    client = server.createClient();
    informer =
        new PodKind(TopicCatalogue.withDefaultPrefix().pods()).informer(client, Duration.ZERO);

    informer.start();
    await().atMost(Duration.ofSeconds(30)).until(informer::hasSynced);

    assertThat(informer.getStore().list()).hasSize(PODS);
    assertThat(lists).hasSize(3).allSatisfy(path -> assertThat(path).contains("limit=500"));
    assertThat(lists.subList(1, 3)).allSatisfy(path -> assertThat(path).contains("continue="));
    final Pod kept = informer.getStore().getByKey("team-a/pod-7");
    assertThat(kept.getMetadata().getManagedFields()).isEmpty();
    assertThat(kept.getSpec().getContainers().get(0).getEnv()).isEmpty();
    assertThat(kept.getSpec().getContainers().get(0).getResources().getRequests())
        .containsEntry("cpu", new Quantity("1"));
  }

  /** Pod lists paged by {@code limit} and an offset as {@code continue}; the rest is CRUD. */
  private final class PagingPods extends KubernetesCrudDispatcher {
    @Override
    public MockResponse dispatch(final RecordedRequest request) {
      final URI uri = URI.create(request.getPath());
      final String query = uri.getRawQuery() == null ? "" : uri.getRawQuery();
      if (!"GET".equals(request.getMethod())
          || !"/api/v1/pods".equals(uri.getPath())
          || query.contains("watch=true")) {
        return super.dispatch(request);
      }
      lists.add(request.getPath());
      final Map<String, String> params = new HashMap<>();
      for (final String pair : query.split("&")) {
        final String[] parts = pair.split("=", 2);
        params.put(parts[0], parts.length > 1 ? parts[1] : "");
      }
      final int from = Integer.parseInt(params.getOrDefault("continue", "0"));
      final int limit = Integer.parseInt(params.getOrDefault("limit", String.valueOf(PODS)));
      final int to = Math.min(PODS, from + limit);
      final PodListBuilder page =
          new PodListBuilder()
              .withNewMetadata()
              .withResourceVersion("1")
              .withContinue(to < PODS ? String.valueOf(to) : null)
              .endMetadata()
              .withItems(IntStream.range(from, to).mapToObj(PagedListsTest::pod).toList());
      return new MockResponse().setResponseCode(200).setBody(Serialization.asJson(page.build()));
    }
  }

  private static Pod pod(final int i) {
    return new PodBuilder()
        .withNewMetadata()
        .withName("pod-" + i)
        .withNamespace("team-a")
        .withUid("uid-" + i)
        .withResourceVersion("1")
        .addNewManagedField()
        .withManager("kubelet")
        .endManagedField()
        .endMetadata()
        .withNewSpec()
        .addNewContainer()
        .withName("main")
        .addNewEnv()
        .withName("A")
        .withValue("1")
        .endEnv()
        .withNewResources()
        .addToRequests("cpu", new Quantity("1"))
        .endResources()
        .endContainer()
        .endSpec()
        .build();
  }
}
