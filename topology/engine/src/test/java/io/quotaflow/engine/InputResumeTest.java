package io.quotaflow.engine;

import static io.quotaflow.engine.Inputs.cpu;
import static io.quotaflow.engine.Inputs.node;
import static io.quotaflow.engine.Inputs.pod;
import static io.quotaflow.engine.Inputs.quota;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotaflow.engine.metrics.EngineMetrics;
import io.quotaflow.engine.recovery.InputResumeAudit;
import io.quotaflow.schemas.DenialOccasion;
import io.quotaflow.schemas.PodDenial;
import io.quotaflow.schemas.PodKey;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.errors.TaskMigratedException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A task whose first record of a partition lies past committed records it never processed (Kafka
 * Streams' defect, issue 40.7) makes its stream thread rejoin the group before it applies anything,
 * whatever the record: an object, an eviction result or a denial (which nobody writes again).
 */
class InputResumeTest {
  private static final String EAST = "east";
  private static final String RESULTS =
      "app-" + TopologyNames.EVICTION_RESULTS_BY_CLUSTER + "-repartition";
  private static final TopicPartition RESULTS_0 = new TopicPartition(RESULTS, 0);
  private static final TopicPartition PODS_0 = new TopicPartition("pods.v1", 0);

  private final Map<TopicPartition, Long> committed = new HashMap<>();
  private final Map<TopicPartition, Long> firstCommittedRecord = new HashMap<>();
  private ProcessorHarness harness;

  @BeforeEach
  void start() {
    harness = new ProcessorHarness();
    harness
        .node(EAST, "n1", node(10_000))
        .quota(EAST, "team-a", quota().min(cpu(5_000)).max(cpu(10_000)).build())
        .pod(EAST, "apps", pod("a0").group("team-a").running("n1").cpu(2_000))
        .recompute();
    harness.resumes(
        new InputResumeAudit(
            partitions -> committed,
            ranges -> {
              final Map<TopicPartition, Long> found = new HashMap<>();
              ranges.forEach(
                  (partition, range) -> {
                    final Long first = firstCommittedRecord.get(partition);
                    if (first != null && first >= range.from() && first < range.to()) {
                      found.put(partition, first);
                    }
                  });
              return found;
            },
            harness.metrics()::inputsSkipped));
  }

  @Test
  void aTaskResumingPastADenialItsFailedIncarnationFetchedRejoinsBeforeApplyingAnything() {
    // The failed incarnation fetched the denial at 40; the task Kafka Streams made after it reads
    // on
    // from 41.
    committed.put(RESULTS_0, 40L);
    firstCommittedRecord.put(RESULTS_0, 40L);
    harness.restart().at(RESULTS, 0, 41);

    assertThatThrownBy(() -> harness.input(denial("a1"))).isInstanceOf(TaskMigratedException.class);
    assertThat(harness.metrics().registry().get(EngineMetrics.INPUTS_SKIPPED).counter().count())
        .isEqualTo(1.0);
  }

  @Test
  void aTaskResumingPastAPodRejoinsBeforeApplyingIt() {
    committed.put(PODS_0, 12L);
    firstCommittedRecord.put(PODS_0, 12L);
    harness.restart().at(PODS_0.topic(), 0, 20);

    assertThatThrownBy(
            () -> harness.pod(EAST, "apps", pod("a1").group("team-a").running("n1").cpu(1_000)))
        .isInstanceOf(TaskMigratedException.class);
    harness.advance(Duration.ofSeconds(1));
    assertThat(harness.podClasses()).noneMatch(record -> record.key().getName().equals("a1"));
  }

  @Test
  void aRevivedTaskResumingPastOnlyMarkersComputesOn() {
    committed.put(PODS_0, 12L);
    firstCommittedRecord.put(PODS_0, 20L);
    harness.restart().revive().at(PODS_0.topic(), 0, 14);

    harness.pod(EAST, "apps", pod("a1").group("team-a").running("n1").cpu(1_000));
    harness.advance(Duration.ofSeconds(1));

    assertThat(harness.podClasses()).anyMatch(record -> record.key().getName().equals("a1"));
    assertThat(harness.metrics().registry().get(EngineMetrics.INPUTS_SKIPPED).counter().count())
        .isZero();
  }

  private static io.quotaflow.schemas.internal.ClusterEvent denial(final String pod) {
    return InputEvents.denial(
        new PodKey(EAST, "apps", pod),
        PodDenial.newBuilder()
            .setGroup("team-a")
            .setReasonCode("max-exceeded")
            .setOccasion(DenialOccasion.WEBHOOK)
            .setAt(Instant.parse("2026-11-29T00:00:00Z"))
            .build(),
        InputEvents.Source.UNKNOWN);
  }
}
