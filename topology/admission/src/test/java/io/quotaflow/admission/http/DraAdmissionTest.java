package io.quotaflow.admission.http;

import static io.quotaflow.tree.Fixtures.quota;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClassBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplateBuilder;
import io.quotaflow.admission.state.SnapshotClusterState;
import io.quotaflow.dra.DeviceClassMappings;
import io.quotaflow.dra.DraObjects;
import io.quotaflow.quota.PodPhase;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.tree.Fixtures;
import io.quotaflow.tree.QuotaOptions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A new pod that asks GPUs through a ResourceClaimTemplate is judged with those GPUs, by the pod
 * webhook and the scheduler filter alike (docs/semantics.md section 22, issue 29): team-a (max 4
 * GPUs) already uses 2, so a pod claiming 4 more is denied with the usual reason, one claiming 1 is
 * admitted.
 */
class DraAdmissionTest {
  private static final String GPU = "nvidia.com/gpu";
  private static final String WEBHOOK = "/clusters/east/admission/pods";
  private static final String FILTER = "/clusters/east/scheduler/filter";

  private final SnapshotClusterState state =
      new SnapshotClusterState()
          .put(
              TestClusters.EAST,
              Fixtures.cluster()
                  .total(ResourceList.of(Map.of("cpu", 16_000L, GPU, 8L)))
                  .group(
                      quota("team-a")
                          .min(ResourceList.of(Map.of("cpu", 4_000L, GPU, 2L)))
                          .max(ResourceList.of(Map.of("cpu", 8_000L, GPU, 4L)))
                          .namespaces(List.of("alpha")))
                  .group(
                      quota("team-b")
                          .min(ResourceList.of(Map.of("cpu", 4_000L, GPU, 6L)))
                          .max(ResourceList.of(Map.of("cpu", 8_000L, GPU, 8L))))
                  .pod(
                      QuotaPod.builder("alpha", "train-1")
                          .quotaName("team-a")
                          .request(ResourceList.of(Map.of("cpu", 1_000L, GPU, 2L)))
                          .phase(PodPhase.RUNNING)
                          .nodeName("node-1")
                          .build())
                  .inputs(),
              QuotaOptions.DEFAULTS)
          .dra(
              TestClusters.EAST,
              DraObjects.of(
                  List.of(
                      new DeviceClassBuilder()
                          .withNewMetadata()
                          .withName("gpu.nvidia.com")
                          .endMetadata()
                          .build()),
                  List.of(),
                  List.of(template("four-gpus", 4), template("one-gpu", 1)),
                  List.of()),
              DeviceClassMappings.defaults());
  private Plugin plugin;

  @AfterEach
  void stop() {
    if (plugin != null) {
      plugin.close();
    }
  }

  private Plugin plugin() {
    if (plugin == null) {
      plugin = Plugin.start(state);
    }
    return plugin;
  }

  @Test
  void theWebhookDeniesAPodWhoseClaimTakesItsGroupPastItsGpuMax() {
    final JsonNode response =
        plugin()
            .post(
                WEBHOOK,
                Reviews.createPod(
                    "u1",
                    Reviews.pod("alpha", "train-2").cpu("1").claimTemplate("gpu", "four-gpus")))
            .json()
            .get("response");

    assertThat(response.get("allowed").asBoolean()).isFalse();
    assertThat(response.get("status").get("code").asInt()).isEqualTo(403);
    assertThat(response.get("status").get("message").asText()).contains("team-a", GPU, "request 4");
  }

  @Test
  void theWebhookAdmitsAPodWhoseClaimFits() {
    final JsonNode response =
        plugin()
            .post(
                WEBHOOK,
                Reviews.createPod(
                    "u2", Reviews.pod("alpha", "eval").cpu("1").claimTemplate("gpu", "one-gpu")))
            .json()
            .get("response");

    assertThat(response.get("allowed").asBoolean()).isTrue();
  }

  @Test
  void theSameCpuRequestWithoutTheClaimIsAdmitted() {
    final JsonNode response =
        plugin()
            .post(WEBHOOK, Reviews.createPod("u3", Reviews.pod("alpha", "train-2").cpu("1")))
            .json()
            .get("response");

    assertThat(response.get("allowed").asBoolean()).isTrue();
  }

  @Test
  void theSchedulerFilterJudgesTheClaimToo() {
    final JsonNode result =
        plugin()
            .post(
                FILTER,
                Reviews.filterArgsWithNames(
                    Reviews.pod("alpha", "train-2").cpu("1").claimTemplate("gpu", "four-gpus"),
                    "node-1"))
            .json();

    // Exceeding a max is unresolvable: no other node would take the pod either.
    assertThat(result.get("NodeNames")).isEmpty();
    assertThat(result.get("FailedAndUnresolvableNodes").get("node-1").asText())
        .contains("exceeds-max", "team-a", GPU, "request 4 > runtime 4");
  }

  private static ResourceClaimTemplate template(String name, long gpus) {
    return new ResourceClaimTemplateBuilder()
        .withNewMetadata()
        .withNamespace("alpha")
        .withName(name)
        .endMetadata()
        .withNewSpec()
        .withNewSpec()
        .withNewDevices()
        .withRequests(
            new DeviceRequestBuilder()
                .withName("gpus")
                .withNewExactly()
                .withDeviceClassName("gpu.nvidia.com")
                .withCount(gpus)
                .endExactly()
                .build())
        .endDevices()
        .endSpec()
        .endSpec()
        .build();
  }
}
