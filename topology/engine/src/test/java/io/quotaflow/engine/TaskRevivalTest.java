package io.quotaflow.engine;

import static io.quotaflow.engine.Inputs.cpu;
import static io.quotaflow.engine.Inputs.node;
import static io.quotaflow.engine.Inputs.pod;
import static io.quotaflow.engine.Inputs.quota;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotaflow.engine.metrics.EngineMetrics;
import io.quotaflow.engine.recovery.RestoreAudit;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.errors.TaskCorruptedException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A task Kafka Streams closed dirty and revived (the same processor initialised again) must have
 * restored its stores from the start of their changelogs; one that began past it would hold an
 * incomplete state (issue 31), so the processor reports its task corrupted again before it computes
 * or emits anything. A new task restoring from where its store already is (a standby promoted, a
 * checkpointed store) is not judged.
 */
class TaskRevivalTest {
  private static final String EAST = "east";
  private static final TopicPartition INPUTS_CHANGELOG =
      new TopicPartition("app-" + TopologyNames.CLUSTER_INPUTS_STORE + "-changelog", 0);

  private final Map<TopicPartition, Long> changelogStarts = new HashMap<>();
  private final RestoreAudit audit = new RestoreAudit(true, partitions -> changelogStarts);
  private ProcessorHarness harness;

  @BeforeEach
  void start() {
    harness = new ProcessorHarness(audit);
    harness
        .node(EAST, "n1", node(10_000))
        .quota(EAST, "team-a", quota().min(cpu(5_000)).max(cpu(10_000)).build())
        .pod(EAST, "apps", pod("a0").group("team-a").running("n1").cpu(2_000))
        .recompute();
    harness.runtime();
  }

  @Test
  void aRevivedTaskWhoseRestoreBeganPastTheChangelogsStartIsReportedCorruptedBeforeComputing() {
    audit.onRestoreStart(INPUTS_CHANGELOG, TopologyNames.CLUSTER_INPUTS_STORE, 32, 33);

    harness.revive();

    assertThatThrownBy(() -> harness.advance(Duration.ofMillis(5)))
        .isInstanceOf(TaskCorruptedException.class);
    assertThatThrownBy(() -> harness.pod(EAST, "apps", pod("a1").group("team-a").cpu(1_000)))
        .isInstanceOf(TaskCorruptedException.class);
    assertThat(harness.runtime()).isEmpty();
    assertThat(harness.metrics().registry().get(EngineMetrics.RESTORES_REFUSED).counter().count())
        .isEqualTo(1.0);
  }

  @Test
  void aRevivedTaskRestoredFromTheChangelogsStartComputesOn() {
    changelogStarts.put(INPUTS_CHANGELOG, 32L);
    audit.onRestoreStart(INPUTS_CHANGELOG, TopologyNames.CLUSTER_INPUTS_STORE, 32, 40);

    harness.revive().pod(EAST, "apps", pod("a1").group("team-a").running("n1").cpu(1_000));
    harness.advance(Duration.ofSeconds(1));

    assertThat(harness.podClasses()).hasSize(1);
    assertThat(harness.metrics().clustersByTask()).containsEntry(0, 1);
  }

  @Test
  void aNewTaskRestoringFromWhereItsStoreIsIsNotJudged() {
    audit.onRestoreStart(INPUTS_CHANGELOG, TopologyNames.CLUSTER_INPUTS_STORE, 32, 33);

    harness.restart().pod(EAST, "apps", pod("a1").group("team-a").running("n1").cpu(1_000));
    harness.advance(Duration.ofSeconds(1));

    assertThat(harness.podClasses()).hasSize(1);
  }

  @Test
  void aRestoreIsJudgedOnlyOnce() {
    audit.onRestoreStart(INPUTS_CHANGELOG, TopologyNames.CLUSTER_INPUTS_STORE, 32, 33);
    harness.restart();

    harness.revive().pod(EAST, "apps", pod("a1").group("team-a").running("n1").cpu(1_000));

    assertThat(harness.metrics().registry().get(EngineMetrics.RESTORES_REFUSED).counter().count())
        .isZero();
  }

  @Test
  void withoutExactlyOnceARevivedTaskKeepsItsStateSoItsRestoreIsNotJudged() {
    final RestoreAudit atLeastOnce = new RestoreAudit(false, partitions -> Map.of());
    atLeastOnce.onRestoreStart(INPUTS_CHANGELOG, TopologyNames.CLUSTER_INPUTS_STORE, 32, 33);

    assertThat(
            atLeastOnce.skippedRestores(
                0, TopologyNames.CLUSTER_QUOTA_STORES, /* reinitialised= */ true))
        .isEmpty();
  }

  @Test
  void aChangelogWhoseStartCannotBeReadLeavesTheRestoreUnprovenAndTheTaskIsRestoredAgain() {
    final ProcessorHarness unsure =
        new ProcessorHarness(
            new RestoreAudit(
                true,
                partitions -> {
                  throw new IllegalStateException("Kafka is away");
                }));
    // The harness's processors share its audit: a restore past offset 0, then a revival.
    final RestoreAudit shared = unsure.restores();
    shared.onRestoreStart(INPUTS_CHANGELOG, TopologyNames.CLUSTER_INPUTS_STORE, 5, 9);

    unsure.revive();

    assertThatThrownBy(() -> unsure.advance(Duration.ofMillis(5)))
        .isInstanceOf(TaskCorruptedException.class);
  }
}
