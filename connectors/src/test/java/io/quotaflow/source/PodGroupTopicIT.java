package io.quotaflow.source;

import static io.quotaflow.fixtures.KubeObjects.podGroup;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.quotaflow.cluster.PodGroups;
import io.quotaflow.fixtures.ConnectorRig;
import io.quotaflow.fixtures.TestTopics;
import io.quotaflow.fixtures.TopicReader;
import io.quotaflow.fixtures.TopicReader.Entry;
import io.quotaflow.kube.PodGroupApi;
import io.quotaflow.schemas.MarkerKind;
import io.quotaflow.schemas.PodGroupKey;
import io.quotaflow.schemas.PodGroupSpec;
import io.quotaflow.schemas.SourceMarker;
import io.quotaflow.topics.ClusterPartitioner;
import io.quotaflow.topics.SourceMarkers;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * podgroups.v1 (docs/semantics.md 21.5): the source publishes the PodGroups of both APIs from the
 * pod watch's PodGroup informers, as one kind with one snapshot covering both, every record on its
 * cluster's partition; a cluster serving neither API has markers and empty snapshots only.
 */
class PodGroupTopicIT {

  // A mock per test: whether it serves the PodGroup APIs outlives a test.
  @RegisterExtension
  static final ConnectorRig rig = new ConnectorRig("podgroup-topic").faultyMockPerTest();

  @Test
  void podGroupsOfBothApisArePublishedWithOneSnapshotCoveringBoth() {
    rig.mock().servePodGroups();
    createPodGroup(PodGroupApi.SCHEDULER_PLUGINS_API_VERSION, "train", 4);
    createPodGroup(PodGroupApi.VOLCANO_API_VERSION, "train", 6);
    createPodGroup(PodGroupApi.VOLCANO_API_VERSION, "mpi", 3);
    startSource(PodGroupWatch.AUTO);

    try (TopicReader<PodGroupKey, PodGroupSpec> podGroups = rig.reader(rig.topics().podGroups())) {
      assertThat(awaitMinMember(podGroups, key("scheduler-plugins", "train"), 4)).isPresent();
      assertThat(awaitMinMember(podGroups, key("volcano", "train"), 6)).isPresent();
      assertThat(awaitMinMember(podGroups, key("volcano", "mpi"), 3)).isPresent();
      final List<SourceMarker> ends = awaitSnapshotEnds(podGroups, 1);

      assertThat(ends.get(0).getObjects()).as("both APIs in the one snapshot").isEqualTo(3);
      // The two informers list one after the other, and a second list may come after the first
      // snapshot ended: a second snapshot is then written. Each must cover both APIs, or a
      // snapshot of one would drop the other's records.
      assertThat(
              podGroups.markers().stream()
                  .filter(marker -> marker.getKind() == MarkerKind.SNAPSHOT_END)
                  .map(SourceMarker::getObjects))
          .as("every snapshot covers both APIs")
          .containsOnly(3L);
      assertThat(podGroups.read())
          .extracting(Entry::partition)
          .containsOnly(ClusterPartitioner.partitionOf(rig.mock().name(), TestTopics.PARTITIONS));
      assertThat(podGroups.read(SourceMarkers.podGroupKey(rig.mock().name())::equals)).isNotEmpty();
    }
  }

  @Test
  void aMinMemberChangeIsWrittenAndADeleteIsTombstoned() {
    rig.mock().servePodGroups();
    createPodGroup(PodGroupApi.VOLCANO_API_VERSION, "job", 4);
    startSource(PodGroupWatch.AUTO);

    try (TopicReader<PodGroupKey, PodGroupSpec> podGroups = rig.reader(rig.topics().podGroups())) {
      final PodGroupKey job = key("volcano", "job");
      final PodGroupSpec first = awaitMinMember(podGroups, job, 4).orElseThrow();
      assertThat(first.getUid()).isNotEmpty();

      rig.mock()
          .podGroups(PodGroups.VOLCANO)
          .inNamespace(rig.namespace())
          .withName("job")
          .edit(
              podGroup -> {
                spec(podGroup).put("minMember", 6);
                return podGroup;
              });
      awaitMinMember(podGroups, job, 6);

      rig.mock().podGroups(PodGroups.VOLCANO).inNamespace(rig.namespace()).withName("job").delete();
      await()
          .atMost(ConnectorRig.WAIT)
          .until(() -> podGroups.last(job).map(Entry::isTombstone).orElse(false));
    }
  }

  @Test
  void aClusterServingNoPodGroupApiHasMarkersAndAnEmptySnapshotOnly() {
    // The mock keeps a PodGroup though it serves no PodGroup API: it must not be read.
    createPodGroup(PodGroupApi.SCHEDULER_PLUGINS_API_VERSION, "train", 4);
    startSource(PodGroupWatch.AUTO);

    try (TopicReader<PodGroupKey, PodGroupSpec> podGroups = rig.reader(rig.topics().podGroups())) {
      final List<SourceMarker> ends = awaitSnapshotEnds(podGroups, 1);

      assertThat(ends.get(0).getObjects()).isZero();
      assertThat(podGroups.read()).allMatch(Entry::isTombstone);
    }
  }

  @Test
  void withPodGroupsOffTheTopicHasMarkersAndAnEmptySnapshotOnly() {
    rig.mock().servePodGroups();
    createPodGroup(PodGroupApi.VOLCANO_API_VERSION, "mpi", 3);
    startSource(PodGroupWatch.NEVER);

    try (TopicReader<PodGroupKey, PodGroupSpec> podGroups = rig.reader(rig.topics().podGroups())) {
      assertThat(awaitSnapshotEnds(podGroups, 1).get(0).getObjects()).isZero();
      assertThat(podGroups.read()).allMatch(Entry::isTombstone);
    }
  }

  private static PodGroupKey key(final String convention, final String name) {
    return new PodGroupKey(rig.mock().name(), convention, rig.namespace(), name);
  }

  private static Optional<PodGroupSpec> awaitMinMember(
      final TopicReader<PodGroupKey, PodGroupSpec> podGroups,
      final PodGroupKey key,
      final int minMember) {
    return await()
        .atMost(ConnectorRig.WAIT)
        .until(
            () ->
                podGroups
                    .last(key)
                    .flatMap(Entry::value)
                    .filter(spec -> spec.getMinMember().equals(Optional.of(minMember))),
            Optional::isPresent);
  }

  private static List<SourceMarker> awaitSnapshotEnds(
      final TopicReader<PodGroupKey, PodGroupSpec> podGroups, final int count) {
    return await()
        .atMost(ConnectorRig.WAIT)
        .until(
            () ->
                podGroups.markers().stream()
                    .filter(marker -> marker.getKind() == MarkerKind.SNAPSHOT_END)
                    .toList(),
            ends -> ends.size() >= count);
  }

  private void startSource(final PodGroupWatch watch) {
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
                    SourceSettings.DEFAULT_HEARTBEAT_INTERVAL,
                    SourceSettings.DEFAULT_SNAPSHOT_INTERVAL,
                    SourceSettings.DEFAULT_RECOVERY_SNAPSHOT_REPEAT,
                    watch),
                rig.registry()))
        .start()
        .orTimeout(ConnectorRig.WAIT.toSeconds(), TimeUnit.SECONDS)
        .join();
  }

  private static void createPodGroup(final String apiVersion, final String name, final int min) {
    final GenericKubernetesResource podGroup = podGroup(apiVersion, rig.namespace(), name, min);
    rig.mock()
        .podGroups(
            PodGroupApi.VOLCANO_API_VERSION.equals(apiVersion)
                ? PodGroups.VOLCANO
                : PodGroups.SCHEDULER_PLUGINS)
        .resource(podGroup)
        .create();
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> spec(final GenericKubernetesResource podGroup) {
    return (Map<String, Object>) podGroup.getAdditionalProperties().get("spec");
  }
}
