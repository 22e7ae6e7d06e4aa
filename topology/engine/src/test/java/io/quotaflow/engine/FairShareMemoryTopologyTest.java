package io.quotaflow.engine;

import static io.quotaflow.engine.Inputs.cpu;
import static io.quotaflow.engine.Inputs.node;
import static io.quotaflow.engine.Inputs.pod;
import static io.quotaflow.engine.Inputs.quota;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotaflow.config.QuotaSettings;
import io.quotaflow.engine.config.EngineConfig;
import io.quotaflow.engine.config.HistorySettings;
import io.quotaflow.engine.fairshare.FairShareConfig;
import io.quotaflow.engine.recovery.RestoreAudit;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.schemas.GroupRuntime;
import io.quotaflow.schemas.QuotaKey;
import io.quotaflow.tree.GroupStatus;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.streams.processor.api.Record;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Fair share with memory on the topology (docs/semantics.md section 24): team-a borrowed 8 of 12
 * cores for a minute; then team-a and team-b, alike in everything else, both ask for the whole
 * cluster. With the memory on (half-life one minute, step one minute), team-b gets more of the
 * surplus, and the difference fades as the minutes pass; with it off, they split evenly.
 */
class FairShareMemoryTopologyTest {
  private static final String EAST = "east";
  private static final String NS = "apps";
  private static final Duration MINUTE = Duration.ofMinutes(1);

  private EngineDriver engine;

  @AfterEach
  void close() {
    if (engine != null) {
      engine.close();
    }
  }

  private static EngineConfig withMemory(final boolean on) {
    return EngineDriver.settings()
        .set(QuotaSettings.FAIRSHARE_MEMORY_ENABLED.key(), String.valueOf(on))
        .set(QuotaSettings.FAIRSHARE_MEMORY_HALF_LIFE.key(), "1m")
        .build();
  }

  /** The past: team-a borrows 8 cores for the first minute; then both ask for 12 cores. */
  private void script() {
    assertThat(engine.now().toEpochMilli() % MINUTE.toMillis()).isZero();
    engine
        .putNode(EAST, "n1", node(12_000))
        .putQuota(EAST, "team-a", quota().min(cpu(2_000)).max(cpu(12_000)).build())
        .putQuota(EAST, "team-b", quota().min(cpu(2_000)).max(cpu(12_000)).build())
        .putPod(EAST, NS, pod("past").group("team-a").running("n1").cpu(10_000))
        .recompute();
    engine.advance(MINUTE.minus(engine.recomputeInterval()));
    engine
        .deletePod(EAST, NS, "past")
        .putPod(EAST, NS, pod("a").group("team-a").cpu(12_000))
        .putPod(EAST, NS, pod("b").group("team-b").cpu(12_000))
        .recompute();
  }

  private long runtime(final String group) {
    return engine.group(EAST, group).runtime().get(ResourceList.CPU);
  }

  @Test
  void withMemoryTheGroupThatBorrowedGetsLessOfTheSurplusAndTheDifferenceFades() {
    engine = new EngineDriver(withMemory(true));
    script();

    final GroupStatus teamA = engine.group(EAST, "team-a");
    // About 8 cores for the minute less the first recomputation, averaged with a one-minute
    // half-life: about 4 cores.
    assertThat(teamA.pastBorrowed().get(ResourceList.CPU)).isBetween(3_900L, 4_000L);
    assertThat(engine.group(EAST, "team-b").pastBorrowed()).isEqualTo(ResourceList.empty());
    final long remembered = runtime("team-a");
    assertThat(remembered).isBetween(5_400L, 5_450L);
    assertThat(runtime("team-b")).isEqualTo(12_000 - remembered);

    // One minute later the average halved: team-a gets more back.
    engine.advance(MINUTE).recompute();
    assertThat(engine.group(EAST, "team-a").pastBorrowed().get(ResourceList.CPU))
        .isBetween(1_950L, 2_050L);
    assertThat(runtime("team-a")).isGreaterThan(remembered).isLessThan(6_000L);

    // Fifteen half-lives later nothing is left: an even split, and no past use shown.
    engine.advance(MINUTE.multipliedBy(15)).recompute();
    assertThat(runtime("team-a")).isEqualTo(6_000);
    assertThat(runtime("team-b")).isEqualTo(6_000);
    assertThat(engine.group(EAST, "team-a").pastBorrowed()).isEqualTo(ResourceList.empty());
  }

  @Test
  void withoutMemoryTheSplitIsEvenAndNoPastUseIsShown() {
    engine = new EngineDriver(withMemory(false));
    script();
    assertThat(runtime("team-a")).isEqualTo(6_000);
    assertThat(runtime("team-b")).isEqualTo(6_000);
    assertThat(engine.group(EAST, "team-a").pastBorrowed()).isEqualTo(ResourceList.empty());
  }

  @Test
  void memoryNeedsTheHistory() {
    final EngineConfig config =
        EngineDriver.settings()
            .set(QuotaSettings.FAIRSHARE_MEMORY_ENABLED.key(), "true")
            .set(HistorySettings.HISTORY_ENABLED.key(), "false")
            .build();
    assertThatThrownBy(() -> FairShareConfig.halfLife(config))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("fairshare.memory.enabled=true needs history.enabled=true");
  }

  /** A restarted task reads the memory back from its store: the same runtimes, nothing re-sent. */
  @Test
  void aRestartedProcessorKeepsTheRememberedSplit() {
    final ProcessorHarness harness =
        new ProcessorHarness(
            EngineDriver.settings()
                .set(QuotaSettings.FAIRSHARE_MEMORY_ENABLED.key(), "true")
                .set(QuotaSettings.FAIRSHARE_MEMORY_HALF_LIFE.key(), "1m")
                .build(),
            RestoreAudit.trusting());
    harness
        .node(EAST, "n1", node(12_000))
        .quota(EAST, "team-a", quota().min(cpu(2_000)).max(cpu(12_000)).build())
        .quota(EAST, "team-b", quota().min(cpu(2_000)).max(cpu(12_000)).build())
        .pod(EAST, NS, pod("past").group("team-a").running("n1").cpu(10_000))
        .recompute();
    harness.advance(MINUTE.minusMillis(100));
    harness
        .deletePod(EAST, NS, "past")
        .pod(EAST, NS, pod("a").group("team-a").cpu(12_000))
        .pod(EAST, NS, pod("b").group("team-b").cpu(12_000))
        .recompute();
    final long before = last(harness.runtime(), "team-a").getRuntime().get(ResourceList.CPU);
    assertThat(before).isLessThan(6_000L);

    harness.restart().recompute();

    assertThat(harness.runtime()).as("records re-sent after the restart").isEmpty();
  }

  private static GroupRuntime last(
      final List<Record<QuotaKey, GroupRuntime>> records, final String group) {
    GroupRuntime found = null;
    for (final Record<QuotaKey, GroupRuntime> record : records) {
      if (record.key().getName().equals(group)) {
        found = record.value();
      }
    }
    assertThat(found).as("a runtime record of %s", group).isNotNull();
    return found;
  }
}
