package io.quotaflow.status;

import static io.quotaflow.fixtures.KubeObjects.quota;
import static io.quotaflow.status.WrittenStatus.used;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.api.model.APIResourceListBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.mockwebserver.dsl.TimesOnceableOrHttpHeaderable;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.quotaflow.events.EventSettings;
import io.quotaflow.fixtures.ConnectorRig;
import io.quotaflow.fixtures.Keys;
import io.quotaflow.fixtures.MockCluster;
import io.quotaflow.fixtures.StatusWriters;
import io.quotaflow.schemas.GroupRuntime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Where the status writer puts {@code status.used}, on a mock API server whose discovery and status
 * subresource answer as a real API server does for Koordinator's CRD (no subresource: discovery
 * lists no {@code elasticquotas/status}, {@code /status} answers 404) and for a CRD with one. One
 * mock per test: discovery differs between them.
 */
class StatusSubresourceIT {

  private static final String DISCOVERY = "/apis/scheduling.sigs.k8s.io/v1alpha1";

  @RegisterExtension static final ConnectorRig rig = new ConnectorRig("koord").mockPerTest();

  private MockCluster mock;
  private String namespace;
  private String group;

  @BeforeEach
  void thisTestsClusterNamespaceAndGroup() {
    mock = rig.mock();
    namespace = rig.namespace();
    group = rig.group();
  }

  @Test
  void withoutAStatusSubresourceStatusUsedAndKoordinatorsAnnotationsLandOnTheObjectInOnePatch()
      throws InterruptedException {
    discoveryAnswers(discovery(false)).always();
    statusSubresourceIsNotFound();
    mock.quotas().resource(quota(namespace, group).build()).create();
    start();

    send(
        GroupRuntime.newBuilder()
            .setRuntime(Map.of("cpu", 10_000L, "memory", 20L << 30))
            .setRequest(Map.of("cpu", 12_500L))
            .setUsed(Map.of("cpu", 5_000L, "memory", 1L << 30))
            .setNonPreemptibleRequest(Map.of("cpu", 2_000L))
            .setNonPreemptibleUsed(Map.of("cpu", 1_500L))
            .setComputedAt(Instant.parse("2026-03-01T12:00:00Z"))
            .build());

    await()
        .atMost(ConnectorRig.WAIT)
        .untilAsserted(
            () -> {
              final GenericKubernetesResource quota = object();
              assertThat(used(quota)).isEqualTo(Map.of("cpu", "5", "memory", "1Gi"));
              assertThat(quota.getMetadata().getAnnotations())
                  .containsEntry(
                      "quota.scheduling.koordinator.sh/runtime",
                      "{\"cpu\":\"10\",\"memory\":\"20Gi\"}")
                  .containsEntry("quota.scheduling.koordinator.sh/request", "{\"cpu\":\"12500m\"}")
                  .containsEntry(
                      "quota.scheduling.koordinator.sh/non-preemptible-request", "{\"cpu\":\"2\"}")
                  .containsEntry(
                      "quota.scheduling.koordinator.sh/non-preemptible-used",
                      "{\"cpu\":\"1500m\"}");
            });
    final List<RecordedRequest> patches = patches();
    // The mock has consumed the bodies: the object above shows what the one patch carried.
    assertThat(patches)
        .as("one merge patch of the object, none of /status")
        .extracting(RecordedRequest::getPath)
        .containsExactly(quotaPath() + "/" + group + "?fieldManager=" + QuotaPatcher.FIELD_MANAGER);
  }

  @Test
  void withAStatusSubresourceStatusUsedIsWrittenThroughIt() throws InterruptedException {
    discoveryAnswers(discovery(true)).always();
    mock.quotas().resource(quota(namespace, group).build()).create();
    start();

    send(runtimeUsing(3_000L));

    await().atMost(ConnectorRig.WAIT).until(() -> used(object()).equals(Map.of("cpu", "3")));
    final List<RecordedRequest> patches = patches();
    assertThat(patches)
        .extracting(RecordedRequest::getPath)
        .containsExactlyInAnyOrder(
            quotaPath() + "/" + group + "?fieldManager=" + QuotaPatcher.FIELD_MANAGER,
            quotaPath() + "/" + group + "/status" + "?fieldManager=" + QuotaPatcher.FIELD_MANAGER);
  }

  @Test
  void aStatusSubresourceThatAnswers404AfterTheCrdChangedIsAskedOfDiscoveryAgain() {
    discoveryAnswers(discovery(true)).once();
    discoveryAnswers(discovery(false)).always();
    statusSubresourceIsNotFound();
    mock.quotas().resource(quota(namespace, group).build()).create();
    start();

    send(runtimeUsing(4_000L));

    await().atMost(ConnectorRig.WAIT).until(() -> used(object()).equals(Map.of("cpu", "4")));
  }

  private TimesOnceableOrHttpHeaderable<Void> discoveryAnswers(final APIResourceList list) {
    return mock.server().expect().get().withPath(DISCOVERY).andReturn(200, list);
  }

  /** As a real API server answers a subresource the CRD does not declare. */
  private void statusSubresourceIsNotFound() {
    mock.server()
        .expect()
        .patch()
        .withPath(quotaPath() + "/" + group + "/status")
        .andReturn(
            404,
            new StatusBuilder()
                .withStatus("Failure")
                .withReason("NotFound")
                .withMessage("the server could not find the requested resource")
                .withCode(404)
                .build())
        .always();
  }

  private static APIResourceList discovery(final boolean statusSubresource) {
    final APIResourceListBuilder list =
        new APIResourceListBuilder()
            .withGroupVersion("scheduling.sigs.k8s.io/v1alpha1")
            .addNewResource()
            .withName("elasticquotas")
            .withSingularName("elasticquota")
            .withKind("ElasticQuota")
            .withNamespaced(true)
            .withVerbs("delete", "get", "list", "patch", "create", "update", "watch")
            .endResource();
    if (statusSubresource) {
      list.addNewResource()
          .withName("elasticquotas/status")
          .withKind("ElasticQuota")
          .withNamespaced(true)
          .withVerbs("get", "patch", "update")
          .endResource();
    }
    return list.build();
  }

  private void start() {
    rig.closeAfterTest(
            StatusWriters.writer(
                rig,
                StatusWriters.settings(Duration.ofMillis(300), StatusMode.KOORDINATOR),
                EventSettings.off()))
        .start();
  }

  private static GroupRuntime runtimeUsing(final long cpu) {
    return GroupRuntime.newBuilder()
        .setRuntime(Map.of("cpu", 10_000L))
        .setUsed(Map.of("cpu", cpu))
        .setComputedAt(Instant.parse("2026-03-01T12:00:00Z"))
        .build();
  }

  private void send(final GroupRuntime value) {
    rig.send(rig.topics().runtime(), Keys.quota(group), value);
  }

  /** Every PATCH the mock received so far (the requests are taken from it). */
  private List<RecordedRequest> patches() throws InterruptedException {
    final List<RecordedRequest> patches = new ArrayList<>();
    for (RecordedRequest request = mock.server().takeRequest(100, TimeUnit.MILLISECONDS);
        request != null;
        request = mock.server().takeRequest(100, TimeUnit.MILLISECONDS)) {
      if (request.getMethod().equals("PATCH")) {
        patches.add(request);
      }
    }
    return patches;
  }

  private String quotaPath() {
    return "/apis/scheduling.sigs.k8s.io/v1alpha1/namespaces/" + namespace + "/elasticquotas";
  }

  private GenericKubernetesResource object() {
    return mock.quotas().inNamespace(namespace).withName(group).get();
  }
}
