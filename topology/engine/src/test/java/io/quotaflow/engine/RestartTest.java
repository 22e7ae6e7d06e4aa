package io.quotaflow.engine;

import static io.quotaflow.engine.Inputs.cpu;
import static io.quotaflow.engine.Inputs.node;
import static io.quotaflow.engine.Inputs.pod;
import static io.quotaflow.engine.Inputs.quota;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.quotaflow.engine.convert.OutputRecords;
import io.quotaflow.engine.store.InputId;
import io.quotaflow.engine.store.InputId.InputKind;
import io.quotaflow.schemas.EvictionCommand;
import io.quotaflow.schemas.EvictionOutcome;
import io.quotaflow.schemas.GroupRuntime;
import io.quotaflow.schemas.NodeKey;
import io.quotaflow.schemas.PodKey;
import io.quotaflow.schemas.PodQuotaClass;
import io.quotaflow.schemas.QuotaClass;
import io.quotaflow.schemas.QuotaKey;
import io.quotaflow.tree.GroupStatus;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.streams.processor.api.Record;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A restarted (or migrated) task rebuilds its clusters from the stores its changelogs restored: it
 * emits nothing the stores already say, computes on from the restored state, and keeps its reclaim
 * clocks, its eviction ledger and its retry times. The scene: a 10-cpu cluster, dept (min 8) with
 * team-a (min 5, four 2-cpu pods a0..a3 borrowed from team-b) and team-b (min 3, idle).
 */
class RestartTest {
  private static final String EAST = "east";
  private static final String WEST = "west";
  private static final String NS = "apps";

  private ProcessorHarness harness;

  @BeforeEach
  void start() {
    harness = new ProcessorHarness();
    harness
        .node(EAST, "n1", node(10_000))
        .quota(EAST, "dept", quota().isParent().min(cpu(8_000)).max(cpu(10_000)).build())
        .quota(EAST, "team-a", quota().parent("dept").min(cpu(5_000)).max(cpu(10_000)).build())
        .quota(EAST, "team-b", quota().parent("dept").min(cpu(3_000)).max(cpu(10_000)).build());
    for (int i = 0; i < 4; i++) {
      harness.pod(EAST, NS, pod("a" + i).group("team-a").running("n1").cpu(2_000).priority(i));
    }
    harness.recompute();
    assertThat(harness.runtime()).hasSize(6);
    assertThat(harness.podClasses()).hasSize(4);
  }

  /**
   * Issue 26: a poison record stays in its cluster's stored inputs. If it breaks the rebuild of a
   * re-created task too, only its cluster is left out and quarantined: the task starts, the other
   * clusters are rebuilt and computed on, and no instance that takes the task over fails on it.
   */
  @Test
  void aClusterWhoseStoredInputsCannotBeRebuiltIsQuarantinedAndTheOthersComeBack() {
    harness
        .node(WEST, "w1", node(4_000))
        .quota(WEST, "team-w", quota().min(cpu(2_000)).max(cpu(4_000)).build())
        .pod(WEST, NS, pod("w0").group("team-w").running("w1").cpu(1_000))
        .recompute();
    harness.runtime();
    // A pod input whose stored value is a node's: reading it back throws.
    harness.storeInput(
        new InputId(EAST, InputKind.POD, NS, "poison"),
        InputEvents.node(new NodeKey(EAST, "n9"), node(1_000), InputEvents.Source.UNKNOWN));

    harness.restart();

    assertThat(harness.metrics().quarantine().isQuarantined(EAST)).isTrue();
    assertThat(harness.metrics().quarantine().reason(EAST).orElseThrow()).contains("poison");
    assertThat(harness.metrics().quarantine().isQuarantined(WEST)).isFalse();
    harness.pod(WEST, NS, pod("w1").group("team-w").running("w1").cpu(1_000));
    harness.pod(EAST, NS, pod("a9").group("team-a").running("n1").cpu(1_000));
    harness.recompute();
    assertThat(harness.runtime())
        .isNotEmpty()
        .allSatisfy(record -> assertThat(record.key().getCluster()).isEqualTo(WEST));
  }

  @Test
  void aRestartedTaskEmitsNothingTheStoresAlreadySay() {
    harness.restart().recompute();

    assertThat(harness.runtime()).isEmpty();
    assertThat(harness.podClasses()).isEmpty();
  }

  @Test
  void theGroupGaugesComeBackWithTheRestoredTaskWithoutARecomputation() {
    harness.restart();

    assertThat(
            harness
                .metrics()
                .registry()
                .get("quotaflow.elastic.quota.status")
                .tag("name", "team-a")
                .tag("field", "used")
                .tag("resource", "cpu")
                .gauge()
                .value())
        .isEqualTo(8_000.0);
  }

  @Test
  void aRestartedTaskComputesOnFromTheRestoredState() {
    harness.restart();

    harness.deletePod(EAST, NS, "a0").recompute();

    final List<Record<QuotaKey, GroupRuntime>> records = harness.runtime();
    assertThat(status(records, "team-a").used().get("cpu")).isEqualTo(6_000);
    assertThat(status(records, "dept").used().get("cpu")).isEqualTo(6_000);
    // a0 is gone; a2, which ran beyond min, now fits within it (SPEC 12: oldest first).
    assertThat(harness.podClasses())
        .extracting(record -> record.key().getName(), record -> quotaClass(record.value()))
        .containsExactlyInAnyOrder(tuple("a0", null), tuple("a2", QuotaClass.IN_QUOTA));
  }

  @Test
  void theOverUseClockSurvivesARestart() {
    teamBClaimsItsMin();
    harness.advance(Duration.ofSeconds(1)).advance(Duration.ofSeconds(60));

    harness.restart().advance(Duration.ofSeconds(59));
    assertThat(harness.evictions()).isEmpty();
    harness.advance(Duration.ofSeconds(1));

    assertThat(harness.evictions()).isNotEmpty();
  }

  @Test
  void theEvictionLedgerSurvivesARestart() {
    teamBClaimsItsMin();
    harness.advance(Duration.ofSeconds(1)).advance(Duration.ofSeconds(120));
    assertThat(harness.evictions()).isNotEmpty();

    harness.restart().advance(Duration.ofSeconds(10));

    assertThat(harness.evictions()).isEmpty();
  }

  @Test
  void aReleasedPodGetsExactlyOneRetryAcrossRestarts() {
    teamBClaimsItsMin();
    harness.advance(Duration.ofSeconds(1)).advance(Duration.ofSeconds(120));
    final Record<PodKey, EvictionCommand> first = harness.evictions().get(0);
    harness.answer(first, EvictionOutcome.BLOCKED_BY_BUDGET);

    // Restarted within the backoff, and again after the retry: one attempt 2, never a second.
    harness.restart().advance(Duration.ofSeconds(30));
    assertThat(harness.evictions()).isEmpty();
    harness.advance(Duration.ofSeconds(30));
    assertThat(harness.evictions())
        .singleElement()
        .satisfies(
            retry -> {
              assertThat(retry.key()).isEqualTo(first.key());
              assertThat(retry.value().getAttempt()).isEqualTo(2);
            });
    harness.restart().advance(Duration.ofSeconds(180));
    assertThat(harness.evictions()).isEmpty();

    // The first command's result, read again after a crash, changes nothing either.
    harness.answer(first, EvictionOutcome.BLOCKED_BY_BUDGET).advance(Duration.ofSeconds(180));
    assertThat(harness.evictions()).isEmpty();
  }

  private void teamBClaimsItsMin() {
    harness.pod(EAST, NS, pod("b0").group("team-b").cpu(3_000)).recompute();
    final GroupStatus teamA = status(harness.runtime(), "team-a");
    assertThat(teamA.used().get("cpu")).isGreaterThan(teamA.runtime().get("cpu"));
  }

  private static QuotaClass quotaClass(final PodQuotaClass record) {
    return record == null ? null : record.getQuotaClass();
  }

  private static GroupStatus status(
      final List<Record<QuotaKey, GroupRuntime>> records, final String group) {
    return records.stream()
        .filter(record -> record.key().getName().equals(group))
        .reduce((first, second) -> second)
        .map(record -> OutputRecords.status(group, record.value()))
        .orElseThrow(() -> new AssertionError("no runtime record for " + group));
  }
}
