package io.quotaflow.engine;

import static io.quotaflow.engine.Inputs.cpu;
import static io.quotaflow.engine.Inputs.node;
import static io.quotaflow.engine.Inputs.pod;
import static io.quotaflow.engine.Inputs.quota;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.engine.config.EngineConfig;
import io.quotaflow.engine.config.EngineSettings;
import io.quotaflow.engine.convert.OutputRecords;
import io.quotaflow.engine.recovery.RestoreAudit;
import io.quotaflow.engine.store.InputId.InputKind;
import io.quotaflow.schemas.PodKey;
import io.quotaflow.schemas.SourceMarker;
import io.quotaflow.topics.SourceMarkers;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 40, point 6, through the processor: a task re-created between a snapshot's start and its
 * end (rebalance, crash) restores the start from the input-freshness store, so the end still drops
 * the pods the snapshot did not re-send. Before, the start lived only in the task's memory and the
 * re-created task dropped nothing.
 */
class SnapshotAcrossRestartTest {
  private static final String EAST = "east";
  private static final String NS = Inputs.APPS;
  private static final String PODS = "pods.v1";

  private ProcessorHarness harness;
  private long offset;
  private long used = -1;

  @BeforeEach
  void cluster() {
    harness =
        new ProcessorHarness(
            EngineConfig.builder()
                .set(EngineSettings.INPUTS_MARKERS_REQUIRED.key(), "false")
                .set(EngineSettings.INPUTS_MAX_STALENESS.key(), "30s")
                .build(),
            RestoreAudit.trusting());
    harness
        .node(EAST, "n1", node(8_000))
        .quota(EAST, "team-a", quota().min(cpu(2_000)).max(cpu(8_000)).build());
    marker(SourceMarkers.heartbeat(EAST, harness.now(), "test"));
    for (final String name : new String[] {"a0", "a1", "a2"}) {
      write(name);
    }
  }

  /** A pod written by the connectors, at the next offset of the pods' partition. */
  private void write(final String name) {
    harness.input(
        InputEvents.pod(
            new PodKey(EAST, NS, name),
            pod(name).group("team-a").running("n1", Inputs.CREATED).cpu(1_000).build(),
            new InputEvents.Source(PODS, 0, ++offset)));
  }

  private void marker(final SourceMarker marker) {
    harness.input(
        InputEvents.marker(EAST, InputKind.POD, marker, new InputEvents.Source(PODS, 0, ++offset)));
  }

  /** team-a's used cpu as last emitted (a task emits only what changed). */
  private long usedCpu() {
    harness.runtime().stream()
        .filter(record -> record.key().getName().equals("team-a"))
        .reduce((first, second) -> second)
        .map(record -> OutputRecords.status("team-a", record.value()).used().get("cpu"))
        .ifPresent(cpu -> used = cpu);
    return used;
  }

  @Test
  void aTaskReCreatedMidSnapshotStillDropsWhatTheSnapshotDidNotReSend() {
    harness.recompute();
    assertThat(usedCpu()).isEqualTo(3_000);
    final long epoch = harness.now().toEpochMilli();
    // a1 and a2 were deleted while their tombstones could not be written: only a0 is re-sent.
    marker(SourceMarkers.snapshotStart(EAST, epoch, harness.now(), "test"));
    write("a0");

    harness.restart();
    marker(SourceMarkers.snapshotEnd(EAST, epoch, 1, harness.now(), "test"));
    harness.recompute();

    assertThat(usedCpu()).isEqualTo(1_000);
  }
}
