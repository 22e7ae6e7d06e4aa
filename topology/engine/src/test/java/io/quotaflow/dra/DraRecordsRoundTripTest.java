package io.quotaflow.dra;

import static io.quotaflow.dra.Dra.GPU;
import static io.quotaflow.dra.Dra.GPU_CLASS;
import static io.quotaflow.dra.Dra.GPU_MEMORY;
import static io.quotaflow.dra.Dra.NAMESPACE;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.quotaflow.engine.convert.DraRecords;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.schemas.PodState;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The DRA objects travel as records of their topics (the connectors' side of {@link DraRecords})
 * and are rebuilt by the engine (its side): a pod's claims are charged the same from the rebuilt
 * objects as from the cluster's own, for every shape of request the core counts.
 */
class DraRecordsRoundTripTest {
  private final ClaimedDevices claimed =
      new ClaimedDevices(
          DeviceClassMappings.parse(
              "gpu.nvidia.com -> nvidia.com/gpu x 1 [memory / 1Gi -> quotaflow.io/gpu-memory]"));

  private final List<DeviceClass> classes =
      List.of(Dra.deviceClass(GPU_CLASS, "device.driver == \"gpu.nvidia.com\""));
  private final List<ResourceSlice> slices =
      List.of(
          Dra.slice("n1-a", GPU_CLASS, "n1", Dra.gpu("gpu-0", "80Gi"), Dra.gpu("gpu-1", "80Gi")),
          Dra.slice("n2-a", GPU_CLASS, "n2", Dra.gpu("gpu-0", "40Gi")));
  private final List<ResourceClaimTemplate> templates =
      List.of(
          Dra.template(
              "mixed",
              Dra.exact("one", GPU_CLASS, 1L),
              Dra.all("whole", GPU_CLASS),
              Dra.firstAvailable(
                  "either", Dra.sub("big", GPU_CLASS, 2), Dra.sub("small", GPU_CLASS, 1)),
              Dra.adminAccess("watch", GPU_CLASS, 4)));
  private final List<ResourceClaim> claims =
      List.of(
          Dra.reservedFor(
              Dra.allocated(
                  Dra.claim("shared", Dra.exact("gpus", GPU_CLASS, 2L)),
                  Dra.result("gpus", GPU_CLASS, "n1", "gpu-0"),
                  Dra.result("gpus", GPU_CLASS, "n1", "gpu-1")),
              "first",
              "second"),
          Dra.claim("pending", Dra.exact("gpus", GPU_CLASS, 3L)));

  @Test
  void everyShapeOfClaimIsChargedTheSameFromTheRecords() {
    final List<Pod> pods =
        List.of(
            Dra.pod("first", Dra.fromClaim("gpu", "shared")),
            Dra.pod("second", Dra.fromClaim("gpu", "shared"), Dra.fromClaim("more", "pending")),
            Dra.pod("templated", Dra.fromTemplate("gpu", "mixed")),
            Dra.withGenerated(
                Dra.pod("generated", Dra.fromTemplate("gpu", "mixed")), "gpu", "shared"),
            Dra.pod("unknown", Dra.fromTemplate("gpu", "missing")));
    final DraObjects original = Dra.objects(classes, claims, templates, slices);
    final DraObjects rebuilt = rebuilt();

    for (final Pod pod : pods) {
      final PodState record = record(pod);
      final Pod read =
          DraRecords.pod(pod.getMetadata().getNamespace(), pod.getMetadata().getName(), record);

      assertThat(claimed.charge(read, rebuilt))
          .as(pod.getMetadata().getName())
          .isEqualTo(claimed.charge(pod, original));
    }
    // The pod that pays for the shared claim is charged its two devices and their memory.
    assertThat(claimed.charge(pods.get(0), rebuilt).devices())
        .isEqualTo(ResourceList.of(Map.of(GPU, 2L, GPU_MEMORY, 160L)));
  }

  private DraObjects rebuilt() {
    return Dra.objects(
        classes.stream()
            .map(
                c ->
                    DraRecords.deviceClass(
                        c.getMetadata().getName(), DraRecords.deviceClassState(c)))
            .toList(),
        claims.stream()
            .map(
                c ->
                    DraRecords.resourceClaim(
                        NAMESPACE, c.getMetadata().getName(), DraRecords.resourceClaimState(c)))
            .toList(),
        templates.stream()
            .map(
                t ->
                    DraRecords.resourceClaimTemplate(
                        NAMESPACE,
                        t.getMetadata().getName(),
                        DraRecords.resourceClaimTemplateState(t)))
            .toList(),
        slices.stream()
            .map(
                s ->
                    DraRecords.resourceSlice(
                        s.getMetadata().getName(), DraRecords.resourceSliceState(s)))
            .toList());
  }

  private static PodState record(final Pod pod) {
    return PodState.newBuilder()
        .setUid(pod.getMetadata().getUid())
        .setCreationTime(Instant.EPOCH)
        .setResourceClaims(DraRecords.podClaims(pod))
        .setResourceClaimStatuses(DraRecords.podClaimStatuses(pod))
        .build();
  }
}
