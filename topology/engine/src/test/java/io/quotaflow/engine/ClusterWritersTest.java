package io.quotaflow.engine;

import static io.quotaflow.engine.Inputs.cpu;
import static io.quotaflow.engine.Inputs.node;
import static io.quotaflow.engine.Inputs.pod;
import static io.quotaflow.engine.Inputs.quota;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import io.quotaflow.engine.errors.ClusterQuarantine;
import io.quotaflow.engine.store.InputId;
import io.quotaflow.engine.store.InputId.InputKind;
import io.quotaflow.engine.writers.ClusterWriterBook;
import io.quotaflow.schemas.PodKey;
import io.quotaflow.schemas.PodState;
import io.quotaflow.schemas.internal.ClusterEvent;
import io.quotaflow.topics.SourceMarkers;
import io.quotaflow.topics.WriterHeaders.Writer;
import java.time.Duration;
import java.util.Optional;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * Who writes a cluster's inputs (issue 40.12, docs/reliability.md): the connectors' writer headers
 * (the cluster's kube-system UID, the writer's epoch) travel with every input record through the
 * whole topology; a second cluster under one name quarantines it, an old leader's records are
 * dropped, and {@code quotaflow cluster forget}'s marker starts the name afresh.
 */
class ClusterWritersTest {
  private static final String EAST = "east";
  private static final String NS = "apps";
  private static final String EAST_UID = "0b7c3d9e-6c41-4d0e-9f67-2b1a5c8e4f10";
  private static final String OTHER_UID = "9e2f1a4b-3c5d-4e6f-8a7b-1c2d3e4f5a6b";
  private static final Writer OLD_LEADER = new Writer(Optional.of(EAST_UID), 4);
  private static final Writer NEW_LEADER = new Writer(Optional.of(EAST_UID), 5);
  private static final Writer OTHER_CLUSTER = new Writer(Optional.of(OTHER_UID), 5);

  @AutoClose private EngineDriver engine;

  private void eastWithTeamA(final Writer writer) {
    engine = new EngineDriver();
    engine
        .writtenBy(writer)
        .putNode(EAST, "n1", node(10_000))
        .putQuota(EAST, "team-a", quota().min(cpu(4_000)).max(cpu(8_000)).build())
        .putPod(EAST, NS, pod("a0").group("team-a").cpu(1_000).running("n1"))
        .heartbeat(EAST)
        .recompute();
  }

  private ClusterEvent storedPod(final String name) {
    final KeyValueStore<InputId, ClusterEvent> inputs =
        engine.driver().getKeyValueStore(TopologyNames.CLUSTER_INPUTS_STORE);
    return inputs.get(new InputId(EAST, InputKind.POD, NS, name));
  }

  private long storedCpu(final String name) {
    return ((PodState) storedPod(name).getValue().orElseThrow()).getRequests().get("cpu");
  }

  private ClusterQuarantine quarantine() {
    return engine.metrics().quarantine();
  }

  private double fenced() {
    final Counter counter =
        engine.metrics().registry().find(ClusterWriterBook.FENCED).tag("cluster", EAST).counter();
    return counter == null ? 0 : counter.count();
  }

  @Test
  void aSecondClusterUnderTheSameNameQuarantinesItAndNoneOfItsRecordsIsApplied() {
    eastWithTeamA(NEW_LEADER);

    engine
        .writtenBy(OTHER_CLUSTER)
        .putPod(EAST, NS, pod("b0").group("team-a").cpu(3_000).running("n1"))
        .recompute();

    assertThat(quarantine().reason(EAST))
        .hasValueSatisfying(
            reason ->
                assertThat(reason)
                    .startsWith("two clusters named east")
                    .contains(EAST_UID, OTHER_UID));
    assertThat(engine.metrics().registry().get(ClusterQuarantine.QUARANTINED).gauge().value())
        .isEqualTo(1.0);
    assertThat(storedPod("b0")).isNull();
    // Neither cluster's records go in while the name stands for two: their states never mix.
    engine.writtenBy(NEW_LEADER).putPod(EAST, NS, pod("a1").group("team-a").cpu(1_000));
    assertThat(storedPod("a1")).isNull();
    assertThat(storedCpu("a0")).isEqualTo(1_000);
  }

  @Test
  void anOldLeadersWritesAfterTheNewLeadersAreDroppedAndCounted() {
    eastWithTeamA(OLD_LEADER);

    engine.writtenBy(NEW_LEADER).heartbeat(EAST).putPod(EAST, NS, pod("a0").cpu(2_000));
    engine.advance(Duration.ofSeconds(5));
    engine.writtenBy(OLD_LEADER).putPod(EAST, NS, pod("a0").cpu(5_000)).deletePod(EAST, NS, "a0");

    assertThat(storedCpu("a0")).isEqualTo(2_000);
    assertThat(fenced()).isEqualTo(2.0);
    assertThat(quarantine().isQuarantined(EAST)).isFalse();
  }

  @Test
  void aLowerEpochTakesOverOnceTheNewerWriterIsSilentForTheMaximumStaleness() {
    eastWithTeamA(NEW_LEADER);

    // The Lease was re-created (its term counts from 0 again) and the old writer is gone.
    engine.advance(Duration.ofSeconds(61));
    engine
        .writtenBy(new Writer(Optional.of(EAST_UID), 0))
        .putPod(EAST, NS, pod("a0").group("team-a").cpu(3_000));

    assertThat(storedCpu("a0")).isEqualTo(3_000);
    assertThat(fenced()).isZero();
  }

  @Test
  void recordsWithoutWriterHeadersPassUnjudged() {
    eastWithTeamA(NEW_LEADER);

    // A replica of an older connectors release, or another application.
    engine.writtenWithoutHeaders().putPod(EAST, NS, pod("a2").cpu(1));

    assertThat(storedPod("a2")).isNotNull();
    assertThat(fenced()).isZero();
  }

  @Test
  void forgettingTheClusterEndsTheQuarantineAndTheNextWriterIsANewClusters() {
    eastWithTeamA(NEW_LEADER);
    engine.writtenBy(OTHER_CLUSTER).putPod(EAST, NS, pod("b0").cpu(3_000));
    assertThat(quarantine().isQuarantined(EAST)).isTrue();

    // quotaflow cluster forget east: a FORGOTTEN marker first, then the tombstones.
    engine.marker(InputKind.POD, SourceMarkers.forgotten(EAST, engine.now(), "cli"));
    engine.deletePod(EAST, NS, "a0");

    assertThat(quarantine().isQuarantined(EAST)).isFalse();
    assertThat(storedPod("a0")).isNull();
    engine.writtenBy(OTHER_CLUSTER).putPod(EAST, NS, pod("b0").cpu(3_000));
    assertThat(storedCpu("b0")).isEqualTo(3_000);
    assertThat(quarantine().isQuarantined(EAST)).isFalse();
  }

  @Test
  void forgettingAClusterOfTwoIdentitiesRetiresItsGroupsFromRuntime() {
    eastWithTeamA(NEW_LEADER);
    assertThat(engine.table(EAST)).containsKey("team-a");
    engine.writtenBy(OTHER_CLUSTER).putPod(EAST, NS, pod("b0").cpu(3_000));

    // As quotaflow cluster forget writes it: the marker, then a tombstone per live key.
    engine.writtenWithoutHeaders();
    engine.marker(InputKind.NODE, SourceMarkers.forgotten(EAST, engine.now(), "cli"));
    engine.deleteNode(EAST, "n1");
    engine.marker(InputKind.QUOTA, SourceMarkers.forgotten(EAST, engine.now(), "cli"));
    engine.deleteQuota(EAST, "team-a");
    engine.marker(InputKind.POD, SourceMarkers.forgotten(EAST, engine.now(), "cli"));
    engine.deletePod(EAST, NS, "a0");
    engine.recompute();

    assertThat(engine.table(EAST)).doesNotContainKey("team-a");
    assertThat(quarantine().isQuarantined(EAST)).isFalse();
  }

  @Test
  void aRestartedTaskQuarantinesTheClusterOfTwoIdentitiesAgainBeforeAnyRecord() {
    final ProcessorHarness harness = new ProcessorHarness();
    final RecordHeaders east = new RecordHeaders();
    NEW_LEADER.addTo(east);
    final RecordHeaders other = new RecordHeaders();
    OTHER_CLUSTER.addTo(other);
    harness.input(podEvent("a0"), east);
    harness.input(podEvent("b0"), other);
    assertThat(harness.metrics().quarantine().isQuarantined(EAST)).isTrue();

    harness.restart();

    assertThat(harness.metrics().quarantine().reason(EAST))
        .hasValueSatisfying(reason -> assertThat(reason).startsWith("two clusters named east"));
  }

  private static ClusterEvent podEvent(final String name) {
    return InputEvents.pod(
        new PodKey(EAST, NS, name),
        pod(name).group("team-a").cpu(1_000).build(),
        InputEvents.Source.UNKNOWN);
  }
}
