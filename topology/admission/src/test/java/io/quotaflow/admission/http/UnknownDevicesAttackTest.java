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
import io.quotaflow.dra.UnmappedClasses;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.tree.Fixtures;
import io.quotaflow.tree.QuotaOptions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 39, point 3: unknown devices are not free. Before, a pod naming a ResourceClaim or template
 * the engine had not read yet, or devices of a DeviceClass no mapping names, was admitted with
 * nothing charged for them; labelled {@code preemptible: "false"}, it then held its devices past
 * its group's min and could never be reclaimed. Now the webhook and the filter deny it (enforce)
 * with a reason that says to retry, or that the class needs a mapping; a fallback charges unmapped
 * classes instead.
 */
class UnknownDevicesAttackTest {
  private static final String GPU = "nvidia.com/gpu";
  private static final String NIC_CLASS = "nic.example.com";
  private static final String WEBHOOK = "/clusters/east/admission/pods";
  private static final String FILTER = "/clusters/east/scheduler/filter";

  private Plugin plugin;

  @AfterEach
  void stop() {
    if (plugin != null) {
      plugin.close();
    }
  }

  /**
   * team-a: min 0 and max 2 GPUs; the engine knows the GPU class, a NIC class and two templates.
   */
  private static SnapshotClusterState state(DeviceClassMappings mappings) {
    return new SnapshotClusterState()
        .put(
            TestClusters.EAST,
            Fixtures.cluster()
                .total(ResourceList.of(Map.of("cpu", 16_000L, GPU, 8L)))
                .group(
                    quota("team-a")
                        .min(ResourceList.of(Map.of("cpu", 4_000L, GPU, 0L)))
                        .max(ResourceList.of(Map.of("cpu", 8_000L, GPU, 2L)))
                        .namespaces(List.of("alpha")))
                .inputs(),
            QuotaOptions.DEFAULTS)
        .dra(
            TestClusters.EAST,
            DraObjects.of(
                List.of(deviceClass("gpu.nvidia.com"), deviceClass(NIC_CLASS)),
                List.of(),
                List.of(template("one-gpu", "gpu.nvidia.com", 1), template("nics", NIC_CLASS, 4)),
                List.of()),
            mappings);
  }

  private JsonNode create(SnapshotClusterState state, Reviews.PodJson pod) {
    if (plugin == null) {
      plugin = Plugin.start(state);
    }
    return plugin.post(WEBHOOK, Reviews.createPod("u", pod)).json().get("response");
  }

  @Test
  void aNonPreemptiblePodNamingAClaimNotKnownYetIsDeniedWithARetryableReason() {
    final JsonNode response =
        create(
            state(DeviceClassMappings.defaults()),
            Reviews.pod("alpha", "hold").cpu("1").nonPreemptible().claim("gpus", "eight-gpus"));

    assertThat(response.get("allowed").asBoolean()).isFalse();
    assertThat(response.get("status").get("code").asInt()).isEqualTo(403);
    assertThat(response.get("status").get("message").asText())
        .contains("devices-unknown", "ResourceClaim alpha/eight-gpus", "retry");
    assertThat(response.get("auditAnnotations").get("reason").asText())
        .isEqualTo("devices-unknown");
  }

  @Test
  void aPodNamingATemplateNotKnownYetIsDenied() {
    final JsonNode response =
        create(
            state(DeviceClassMappings.defaults()),
            Reviews.pod("alpha", "t").cpu("1").claimTemplate("gpus", "eight-gpus"));

    assertThat(response.get("allowed").asBoolean()).isFalse();
    assertThat(response.get("status").get("message").asText())
        .contains("devices-unknown", "ResourceClaimTemplate alpha/eight-gpus");
  }

  @Test
  void aPodClaimingAnUnmappedClassIsDeniedUnlessAFallbackChargesIt() {
    final Reviews.PodJson pod = Reviews.pod("alpha", "net").cpu("1").claimTemplate("nics", "nics");

    final JsonNode denied = create(state(DeviceClassMappings.defaults()), pod);
    assertThat(denied.get("allowed").asBoolean()).isFalse();
    assertThat(denied.get("status").get("message").asText())
        .contains("device-class-unmapped", "DeviceClass " + NIC_CLASS, "quota.device.classes");
    plugin.close();
    plugin = null;

    // Each NIC counted as a GPU: 4 are past team-a's max of 2.
    final JsonNode charged =
        create(
            state(
                DeviceClassMappings.defaults()
                    .withUnmapped(UnmappedClasses.parse("nvidia.com/gpu x 1"))),
            pod);
    assertThat(charged.get("allowed").asBoolean()).isFalse();
    assertThat(charged.get("status").get("message").asText())
        .contains("exceeds-max", GPU, "request 4");
  }

  @Test
  void theSchedulerFilterLeavesAPodWithUnknownDevicesToRetry() {
    final JsonNode result =
        create(state(DeviceClassMappings.defaults()), Reviews.pod("alpha", "warm").cpu("1"));
    assertThat(result.get("allowed").asBoolean()).isTrue();

    final JsonNode filtered =
        plugin
            .post(
                FILTER,
                Reviews.filterArgsWithNames(
                    Reviews.pod("alpha", "hold").cpu("1").claim("gpus", "eight-gpus"), "node-1"))
            .json();

    assertThat(filtered.get("NodeNames")).isEmpty();
    // Resolvable: the scheduler asks again, and the claim is known by then.
    assertThat(filtered.get("FailedNodes").get("node-1").asText())
        .contains("devices-unknown", "ResourceClaim alpha/eight-gpus");
  }

  @Test
  void aPodWhoseDevicesAreKnownIsJudgedAsBefore() {
    final JsonNode response =
        create(
            state(DeviceClassMappings.defaults()),
            Reviews.pod("alpha", "ok").cpu("1").claimTemplate("gpu", "one-gpu"));

    assertThat(response.get("allowed").asBoolean()).isTrue();
  }

  private static io.fabric8.kubernetes.api.model.resource.v1.DeviceClass deviceClass(String name) {
    return new DeviceClassBuilder().withNewMetadata().withName(name).endMetadata().build();
  }

  private static ResourceClaimTemplate template(String name, String deviceClass, long count) {
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
                .withName("devices")
                .withNewExactly()
                .withDeviceClassName(deviceClass)
                .withCount(count)
                .endExactly()
                .build())
        .endDevices()
        .endSpec()
        .endSpec()
        .build();
  }
}
