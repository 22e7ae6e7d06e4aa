package io.quotaflow.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacityBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClassBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResultBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplateBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import io.quotaflow.fixtures.ConnectorRig;
import io.quotaflow.fixtures.Keys;
import io.quotaflow.fixtures.TestTopics;
import io.quotaflow.fixtures.TopicReader;
import io.quotaflow.fixtures.TopicReader.Entry;
import io.quotaflow.schemas.AllocatedDevice;
import io.quotaflow.schemas.DeviceClassState;
import io.quotaflow.schemas.DeviceRequest;
import io.quotaflow.schemas.DraKey;
import io.quotaflow.schemas.ExactDeviceRequest;
import io.quotaflow.schemas.PodClaimEntry;
import io.quotaflow.schemas.PodKey;
import io.quotaflow.schemas.PodState;
import io.quotaflow.schemas.ResourceClaimState;
import io.quotaflow.schemas.ResourceClaimTemplateState;
import io.quotaflow.schemas.ResourceSliceState;
import io.quotaflow.schemas.SliceDevice;
import io.quotaflow.topics.ClusterPartitioner;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 29: the source watches DeviceClasses, ResourceClaims, ResourceClaimTemplates and
 * ResourceSlices where the cluster serves resource.k8s.io/v1, writes each to its topic keyed and
 * placed by cluster with what counting claims reads, and writes pods with their claims. A cluster
 * without DRA is not watched and its DRA topics get nothing.
 */
class DraSourceIT {

  private static final String GPU_CLASS = "gpu.nvidia.com";

  // A mock per test: whether it serves resource.k8s.io/v1 outlives a test.
  @RegisterExtension static final ConnectorRig rig = new ConnectorRig("dra").faultyMockPerTest();

  @Test
  void draObjectsAndPodsClaimsAreWrittenKeyedAndPlacedByCluster() {
    rig.mock().serveDra();
    create(gpuClass());
    create(template("two-gpus", 2));
    create(claim("shared", 1));
    create(slice("node-1-gpus", "node-1", "gpu-0", "gpu-1"));
    create(podWithTemplate("train", "two-gpus"));
    startSource(SourceSettings.defaults());

    final String cluster = rig.mock().name();
    final ExactDeviceRequest two = new ExactDeviceRequest("", GPU_CLASS, null, 2L, false);
    assertThat(awaitValue(rig.topics().deviceClasses(), new DraKey(cluster, "", GPU_CLASS)))
        .isEqualTo(new DeviceClassState(List.of("device.driver == \"gpu.nvidia.com\"")));
    assertThat(
            awaitValue(
                rig.topics().resourceClaimTemplates(),
                new DraKey(cluster, rig.namespace(), "two-gpus")))
        .isEqualTo(
            new ResourceClaimTemplateState(List.of(new DeviceRequest("gpus", two, List.of()))));
    assertThat(
            awaitValue(
                rig.topics().resourceClaims(), new DraKey(cluster, rig.namespace(), "shared")))
        .satisfies(
            claim -> {
              assertThat(claim.getRequests()).hasSize(1);
              assertThat(claim.getAllocation()).isEmpty();
            });
    assertThat(awaitValue(rig.topics().resourceSlices(), new DraKey(cluster, "", "node-1-gpus")))
        .isEqualTo(
            new ResourceSliceState(
                GPU_CLASS,
                "node-1",
                List.of(
                    new SliceDevice("gpu-0", Map.of("memory", "80Gi")),
                    new SliceDevice("gpu-1", Map.of("memory", "80Gi"))),
                "node-1",
                1L));
    assertThat(awaitValue(rig.topics().pods(), Keys.pod(rig.namespace(), "train")))
        .satisfies(
            pod ->
                assertThat(pod.getResourceClaims())
                    .containsExactly(new PodClaimEntry("gpu", null, "two-gpus")));

    final int partition = ClusterPartitioner.partitionOf(cluster, TestTopics.PARTITIONS);
    for (final var topic : rig.topics().draInputs()) {
      try (TopicReader<DraKey, ?> reader = rig.reader(topic)) {
        assertThat(reader.read()).extracting(Entry::partition).containsOnly(partition);
      }
    }
  }

  @Test
  void anAllocationIsWrittenAndADeleteTombstonesTheClaim() {
    rig.mock().serveDra();
    create(claim("train-gpu", 1));
    startSource(SourceSettings.defaults());
    final DraKey key = new DraKey(rig.mock().name(), rig.namespace(), "train-gpu");
    awaitValue(rig.topics().resourceClaims(), key);

    final ResourceClaim allocated =
        new ResourceClaimBuilder(claim("train-gpu", 1))
            .withNewStatus()
            .withNewAllocation()
            .withNewDevices()
            .withResults(
                new DeviceRequestAllocationResultBuilder()
                    .withRequest("gpus")
                    .withDriver(GPU_CLASS)
                    .withPool("node-1")
                    .withDevice("gpu-0")
                    .build())
            .endDevices()
            .endAllocation()
            .endStatus()
            .build();
    rig.mock().client().resource(allocated).update();

    try (TopicReader<DraKey, ResourceClaimState> claims =
        rig.reader(rig.topics().resourceClaims())) {
      await()
          .atMost(ConnectorRig.WAIT)
          .until(
              () ->
                  claims
                      .last(key)
                      .flatMap(Entry::value)
                      .flatMap(ResourceClaimState::getAllocation)
                      .equals(
                          Optional.of(
                              List.of(
                                  new AllocatedDevice(
                                      "gpus", GPU_CLASS, "node-1", "gpu-0", false, Map.of())))));

      rig.mock().client().resource(allocated).delete();

      await()
          .atMost(ConnectorRig.WAIT)
          .until(() -> claims.last(key).map(Entry::isTombstone).orElse(false));
    }
  }

  @Test
  void aClusterWithoutDraWatchesNoneWritesNoDraRecordAndIsReady() {
    // The mock's store keeps the objects even unserved: they are there and must not be read.
    create(gpuClass());
    create(claim("shared", 1));
    create(podWithTemplate("train", "two-gpus"));
    startSource(SourceSettings.defaults().withHeartbeatInterval(Duration.ofMillis(100)));

    // The pod is written (with its claims), heartbeats go on, and the DRA topics stay empty.
    awaitValue(rig.topics().pods(), Keys.pod(rig.namespace(), "train"));
    assertThat(rig.mock().faults().refused("/apis/resource.k8s.io/v1")).isZero();
    try (TopicReader<PodKey, PodState> pods = rig.reader(rig.topics().pods())) {
      final int before = pods.read().size();
      await().atMost(ConnectorRig.WAIT).until(() -> pods.read().size() > before + 2);
    }
    for (final var topic : rig.topics().draInputs()) {
      try (TopicReader<DraKey, ?> reader = rig.reader(topic)) {
        assertThat(reader.read()).isEmpty();
      }
    }
    for (final String kind :
        List.of("deviceclasses", "resourceclaims", "resourceclaimtemplates", "resourceslices")) {
      assertThat(watchDown(kind)).isZero();
    }
  }

  @Test
  void offWatchesNoDraObjectEvenWhereServed() {
    rig.mock().serveDra();
    create(gpuClass());
    create(podWithTemplate("train", "two-gpus"));
    startSource(SourceSettings.defaults().withDra(DraWatch.NEVER));

    awaitValue(rig.topics().pods(), Keys.pod(rig.namespace(), "train"));
    try (TopicReader<DraKey, DeviceClassState> classes = rig.reader(rig.topics().deviceClasses())) {
      assertThat(classes.read()).isEmpty();
    }
  }

  private void startSource(final SourceSettings settings) {
    rig.closeAfterTest(
            new KubeSource(
                List.of(rig.mock().cluster()),
                rig.topics(),
                rig.kafka(),
                new SourceSettings(
                    Duration.ofMinutes(10),
                    Duration.ofMinutes(10),
                    ConnectorRig.WAIT,
                    true,
                    true,
                    settings.heartbeatInterval(),
                    SourceSettings.DEFAULT_SNAPSHOT_INTERVAL,
                    SourceSettings.DEFAULT_RECOVERY_SNAPSHOT_REPEAT,
                    settings.podGroups(),
                    settings.dra()),
                rig.registry()))
        .start()
        .orTimeout(ConnectorRig.WAIT.toSeconds(), TimeUnit.SECONDS)
        .join();
  }

  private static <V> V awaitValue(final io.quotaflow.topics.Topic<?, V> topic, final Object key) {
    @SuppressWarnings("unchecked")
    final io.quotaflow.topics.Topic<Object, V> typed = (io.quotaflow.topics.Topic<Object, V>) topic;
    try (TopicReader<Object, V> reader = rig.reader(typed)) {
      return await()
          .atMost(ConnectorRig.WAIT)
          .until(() -> reader.last(key).flatMap(Entry::value), Optional::isPresent)
          .orElseThrow();
    }
  }

  private static double watchDown(final String kind) {
    return rig.registry()
        .get(KubeSource.WATCH_DOWN)
        .tag("cluster", rig.mock().name())
        .tag("kind", kind)
        .gauge()
        .value();
  }

  private static void create(final io.fabric8.kubernetes.api.model.HasMetadata object) {
    rig.mock().client().resource(object).create();
  }

  private static DeviceClass gpuClass() {
    return new DeviceClassBuilder()
        .withNewMetadata()
        .withName(GPU_CLASS)
        .endMetadata()
        .withNewSpec()
        .addNewSelector()
        .withNewCel()
        .withExpression("device.driver == \"gpu.nvidia.com\"")
        .endCel()
        .endSelector()
        .endSpec()
        .build();
  }

  private static ResourceClaimTemplate template(final String name, final long gpus) {
    return new ResourceClaimTemplateBuilder()
        .withNewMetadata()
        .withNamespace(rig.namespace())
        .withName(name)
        .endMetadata()
        .withNewSpec()
        .withNewSpec()
        .withNewDevices()
        .withRequests(gpus(gpus))
        .endDevices()
        .endSpec()
        .endSpec()
        .build();
  }

  private static ResourceClaim claim(final String name, final long gpus) {
    return new ResourceClaimBuilder()
        .withNewMetadata()
        .withNamespace(rig.namespace())
        .withName(name)
        .endMetadata()
        .withNewSpec()
        .withNewDevices()
        .withRequests(gpus(gpus))
        .endDevices()
        .endSpec()
        .build();
  }

  private static io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest gpus(final long count) {
    return new DeviceRequestBuilder()
        .withName("gpus")
        .withNewExactly()
        .withDeviceClassName(GPU_CLASS)
        .withCount(count)
        .endExactly()
        .build();
  }

  private static ResourceSlice slice(
      final String name, final String pool, final String... devices) {
    return new ResourceSliceBuilder()
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .withNewSpec()
        .withDriver(GPU_CLASS)
        .withNodeName(pool)
        .withNewPool()
        .withName(pool)
        .withGeneration(1L)
        .withResourceSliceCount(1L)
        .endPool()
        .withDevices(
            java.util.Arrays.stream(devices)
                .map(
                    device ->
                        new DeviceBuilder()
                            .withName(device)
                            .withCapacity(
                                Map.of(
                                    "memory",
                                    new DeviceCapacityBuilder()
                                        .withValue(new Quantity("80Gi"))
                                        .build()))
                            .build())
                .toList())
        .endSpec()
        .build();
  }

  private static Pod podWithTemplate(final String name, final String template) {
    return new PodBuilder()
        .withNewMetadata()
        .withNamespace(rig.namespace())
        .withName(name)
        .withUid(name + "-uid")
        .withCreationTimestamp("2026-01-01T00:00:00Z")
        .endMetadata()
        .withNewSpec()
        .addNewContainer()
        .withName("main")
        .withImage("busybox")
        .endContainer()
        .addNewResourceClaim()
        .withName("gpu")
        .withResourceClaimTemplateName(template)
        .endResourceClaim()
        .endSpec()
        .build();
  }
}
