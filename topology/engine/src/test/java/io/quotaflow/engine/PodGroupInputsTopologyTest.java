package io.quotaflow.engine;

import static io.quotaflow.engine.Inputs.cpu;
import static io.quotaflow.engine.Inputs.node;
import static io.quotaflow.engine.Inputs.pod;
import static io.quotaflow.engine.Inputs.quota;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.engine.config.EngineConfig;
import io.quotaflow.engine.config.EngineSettings;
import io.quotaflow.engine.errors.InvalidInputException;
import io.quotaflow.engine.store.InputId;
import io.quotaflow.engine.store.InputId.InputKind;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.schemas.PodGroupKey;
import io.quotaflow.schemas.PodGroupSpec;
import io.quotaflow.schemas.internal.ClusterEvent;
import io.quotaflow.topics.ClusterPartitioner;
import io.quotaflow.topics.RejectedRecordHeaders;
import io.quotaflow.topics.RejectedRecordHeaders.Rejection;
import io.quotaflow.topics.SourceMarkers;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * podgroups.v1 is an input of the engine (docs/semantics.md 21.5): each PodGroup is kept in the
 * cluster-inputs store, under its convention, namespace and name, where the admission plugin reads
 * a gang's minMember; quotas are computed as before; malformed or misplaced PodGroups go to
 * rejected.v1 with the reason; a snapshot of PodGroups drops those it did not re-send.
 */
class PodGroupInputsTopologyTest {
  private static final String EAST = "east";
  private static final PodGroupKey VOLCANO_TRAIN = new PodGroupKey(EAST, "volcano", "ml", "train");
  private static final PodGroupKey PLUGINS_TRAIN =
      new PodGroupKey(EAST, "scheduler-plugins", "ml", "train");

  @AutoClose private EngineDriver engine = new EngineDriver();

  private KeyValueStore<InputId, ClusterEvent> inputs() {
    return engine.driver().getKeyValueStore(TopologyNames.CLUSTER_INPUTS_STORE);
  }

  private Optional<PodGroupSpec> stored(final PodGroupKey key) {
    final ClusterEvent event =
        inputs()
            .get(
                InputId.podGroup(
                    key.getCluster(), key.getConvention(), key.getNamespace(), key.getName()));
    return event == null ? Optional.empty() : event.getPodGroup();
  }

  private static PodGroupSpec minMember(final int minMember) {
    return new PodGroupSpec("uid-" + minMember, minMember, List.of());
  }

  @Test
  void podGroupsOfBothApisAreStoredApartUnderTheirConventionAndATombstoneRemovesOne() {
    engine.putPodGroup(VOLCANO_TRAIN, minMember(8)).putPodGroup(PLUGINS_TRAIN, minMember(4));

    assertThat(stored(VOLCANO_TRAIN)).contains(minMember(8));
    assertThat(stored(PLUGINS_TRAIN)).contains(minMember(4));

    engine.putPodGroup(VOLCANO_TRAIN, minMember(6)).deletePodGroup(PLUGINS_TRAIN);

    assertThat(stored(VOLCANO_TRAIN)).contains(minMember(6));
    assertThat(stored(PLUGINS_TRAIN)).isEmpty();
    assertThat(engine.rejectedRecords()).isEmpty();
  }

  @Test
  void podGroupsDoNotChangeTheQuotas() {
    engine
        .putNode(EAST, "n1", node(10_000))
        .putQuota(EAST, "team-a", quota().namespace("ml").min(cpu(4_000)).max(cpu(8_000)).build())
        .putPod(EAST, "ml", pod("w0").group("team-a").running("n1").cpu(1_000))
        .recompute();
    final var before = engine.table(EAST);
    engine.runtimeRecords();

    engine.putPodGroup(VOLCANO_TRAIN, minMember(8)).recompute();

    assertThat(engine.runtimeRecords()).as("no group is recomputed differently").isEmpty();
    assertThat(engine.table(EAST)).isEqualTo(before);
    assertThat(engine.group(EAST, "team-a").used()).isEqualTo(ResourceList.of("cpu", 1_000));
  }

  @Test
  void aPodGroupOfAnUnknownConventionIsRejectedWithTheReason() {
    engine.putPodGroup(new PodGroupKey(EAST, "koordinator", "ml", "train"), minMember(2));

    final Rejection rejection = rejection();
    assertThat(rejection.message())
        .isEqualTo(
            "PodGroup of unknown convention \"koordinator\" (expected scheduler-plugins or"
                + " volcano)");
    assertThat(rejection.exceptionClass()).isEqualTo(InvalidInputException.class.getName());
  }

  @Test
  void aPodGroupWithoutANameOrWithASlashInItsNameOrAMinMemberBelowOneIsRejected() {
    engine
        .putPodGroup(new PodGroupKey(EAST, "volcano", "ml", ""), minMember(2))
        .putPodGroup(new PodGroupKey(EAST, "volcano", "ml", "a/b"), minMember(2))
        .putPodGroup(new PodGroupKey(EAST, "volcano", "", "train"), minMember(2))
        .putPodGroup(VOLCANO_TRAIN, minMember(0));

    assertThat(engine.rejectedRecords())
        .extracting(record -> RejectedRecordHeaders.read(record.headers()).orElseThrow().message())
        .containsExactly(
            "empty PodGroup name",
            "PodGroup name \"a/b\" holds a slash",
            "empty PodGroup namespace",
            "PodGroup minMember 0 (at least 1, or none)");
    assertThat(stored(VOLCANO_TRAIN)).isEmpty();
  }

  @Test
  void aPodGroupOffItsClustersPartitionIsRejected() {
    engine.close();
    engine =
        new EngineDriver(
            EngineConfig.builder()
                .set(EngineSettings.INPUTS_MARKERS_REQUIRED.key(), "false")
                .set(EngineSettings.TOPIC_PARTITIONS.key(), "6")
                .build());
    final String elsewhere =
        IntStream.range(0, 1_000)
            .mapToObj(i -> "cluster-" + i)
            .filter(name -> ClusterPartitioner.partitionOf(name, 6) == 3)
            .findFirst()
            .orElseThrow();
    final PodGroupKey key = new PodGroupKey(elsewhere, "volcano", "ml", "train");

    engine.putPodGroup(key, minMember(8));

    assertThat(rejection().message())
        .contains("cluster " + elsewhere + " on partition 0", "must be on partition 3 of 6");
    assertThat(stored(key)).isEmpty();
  }

  @Test
  void aSnapshotOfPodGroupsDropsThePodGroupsItDidNotResend() {
    engine.putPodGroup(VOLCANO_TRAIN, minMember(8)).putPodGroup(PLUGINS_TRAIN, minMember(4));

    engine.marker(
        InputKind.PODGROUP, SourceMarkers.snapshotStart(EAST, 1L, engine.now(), "connectors"));
    engine.putPodGroup(VOLCANO_TRAIN, minMember(8));
    engine.marker(
        InputKind.PODGROUP, SourceMarkers.snapshotEnd(EAST, 1L, 1L, engine.now(), "connectors"));

    assertThat(stored(VOLCANO_TRAIN)).contains(minMember(8));
    assertThat(stored(PLUGINS_TRAIN)).as("deleted while the connectors were away").isEmpty();
    assertThat(engine.rejectedRecords()).isEmpty();
  }

  private Rejection rejection() {
    final var rejected = engine.rejectedRecords();
    assertThat(rejected).hasSize(1);
    return RejectedRecordHeaders.read(rejected.get(0).headers()).orElseThrow();
  }
}
