package io.quotaflow.engine;

import static io.quotaflow.engine.Inputs.cpu;
import static io.quotaflow.engine.Inputs.node;
import static io.quotaflow.engine.Inputs.pod;
import static io.quotaflow.engine.Inputs.quota;
import static io.quotaflow.engine.ReclaimScene.CHECK;
import static io.quotaflow.engine.ReclaimScene.DELAY;
import static io.quotaflow.engine.ReclaimScene.EAST;
import static io.quotaflow.engine.ReclaimScene.NS;
import static io.quotaflow.engine.ReclaimScene.teamABorrowsTheWholeCluster;
import static io.quotaflow.engine.ReclaimScene.teamBClaimsItsMin;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.engine.config.EngineSettings;
import io.quotaflow.engine.metrics.EngineMetrics;
import io.quotaflow.engine.reclaim.EvictionCommands;
import io.quotaflow.engine.store.GroupId;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.schemas.EvictionCommand;
import io.quotaflow.schemas.PodKey;
import io.quotaflow.tree.GroupStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * Reclaim by eviction (SPEC 11) through the topology, on wall-clock time. The scene ({@link
 * ReclaimScene}): a 10-cpu cluster; team-a (min 5) runs four 2-cpu pods, borrowing from an idle
 * team-b (min 5). When team-b asks for its min, team-a's runtime drops to 5 cpu while it uses 8: it
 * is over-used.
 */
class ReclaimTest {

  @AutoClose private EngineDriver engine;

  @Test
  void groupOverUsedForExactlyTheRevokeDelayGetsItsLeastImportantPodsEvicted() {
    engine = new EngineDriver();
    teamABorrowsTheWholeCluster(engine, false);
    teamBClaimsItsMin(engine);

    // The first check notices the over-use; commands come once it has lasted the delay.
    engine.advance(CHECK);
    final Instant overUsedSince = engine.now();
    engine.advance(DELAY.minus(CHECK));
    assertThat(engine.evictionRecords()).as("before the delay has passed").isEmpty();

    engine.advance(CHECK);

    final List<TestRecord<PodKey, EvictionCommand>> commands = engine.evictionRecords();
    assertThat(engine.now()).isEqualTo(overUsedSince.plus(DELAY));
    // Lowest priority first: a0 (priority 0), then a1 (priority 1) bring used from 8 to 4 <= 5.
    assertThat(commands)
        .extracting(record -> record.key().getName())
        .containsExactlyInAnyOrder("a0", "a1");
    final EvictionCommand first =
        commands.stream()
            .filter(record -> record.key().getName().equals("a0"))
            .findFirst()
            .orElseThrow()
            .value();
    assertThat(first.getId()).isEqualTo(EvictionCommands.commandId(EAST, NS, "a0", "a0-uid"));
    assertThat(first.getPodUid()).isEqualTo("a0-uid");
    assertThat(first.getGroup()).isEqualTo("team-a");
    assertThat(first.getDimensionsOver()).containsExactly("cpu");
    assertThat(first.getUsed()).isEqualTo(Map.of("cpu", 8_000L));
    assertThat(first.getRuntime()).isEqualTo(Map.of("cpu", 5_000L));
    assertThat(first.getPodRequest()).isEqualTo(Map.of("cpu", 2_000L));
    assertThat(first.getIssuedAt()).isEqualTo(engine.now());
    assertThat(first.getReason())
        .contains("team-a", "a0")
        .endsWith("; pod " + NS + "/a0 (priority 0) is evicted to reclaim it");
    assertThat(commands)
        .extracting(record -> record.value().getReasonCode())
        .containsOnly("reclaimed-after-delay");
    assertThat(
            engine
                .metrics()
                .registry()
                .get(EngineMetrics.EVICTIONS)
                .tag("cluster", EAST)
                .tag("reason", "reclaimed-after-delay")
                .counter()
                .count())
        .isEqualTo(2.0);
    assertThat(engine.metrics().registry().find(EngineMetrics.EVICTIONS).counters())
        .as("no command for another reason")
        .hasSize(1);
  }

  @Test
  void aGangIsEvictedWholeWithOneCommandPerMemberThatSaysSo() {
    engine = new EngineDriver();
    teamABorrowsTheWholeCluster(engine, false);
    // a1 and a2 are the two workers of one gang, as important as a2 (priority 2).
    for (int i = 1; i <= 2; i++) {
      engine.putPod(
          EAST,
          NS,
          pod("a" + i)
              .group("team-a")
              .running("n1", Inputs.CREATED.plusSeconds(i))
              .cpu(2_000)
              .priority(i)
              .gang("train", 2));
    }
    teamBClaimsItsMin(engine);

    engine.advance(CHECK).advance(DELAY);

    // Removed: a0 (8 -> 6 cpu), then the gang (-> 2); a0 fits back (4 <= 5), the gang does not.
    final List<TestRecord<PodKey, EvictionCommand>> commands = engine.evictionRecords();
    assertThat(commands)
        .extracting(record -> record.key().getName())
        .containsExactlyInAnyOrder("a1", "a2");
    assertThat(commands)
        .allSatisfy(
            record -> {
              assertThat(record.value().getReasonCode()).isEqualTo("reclaimed-after-delay");
              assertThat(record.value().getReason())
                  .contains(
                      "pod "
                          + NS
                          + "/"
                          + record.key().getName()
                          + " is evicted with its gang train (2 pods; the pod's priority "
                          + record.value().getPriority()
                          + ") to reclaim it");
            });
  }

  @Test
  void noSecondCommandIsIssuedForTheSamePod() {
    engine = new EngineDriver();
    teamABorrowsTheWholeCluster(engine, false);
    teamBClaimsItsMin(engine);
    engine.advance(CHECK).advance(DELAY);
    assertThat(engine.evictionRecords()).hasSize(2);

    // The pods are slow to go: the group stays over-used, check after check.
    engine.advance(CHECK).advance(CHECK).advance(Duration.ofSeconds(30));

    assertThat(engine.evictionRecords()).isEmpty();
  }

  @Test
  void aPodRecreatedUnderTheSameNameIsANewPodThatMayBeEvictedAgain() {
    engine = new EngineDriver();
    teamABorrowsTheWholeCluster(engine, false);
    teamBClaimsItsMin(engine);
    engine.advance(CHECK).advance(DELAY);
    assertThat(engine.evictionRecords()).hasSize(2);

    engine
        .deletePod(EAST, NS, "a0")
        .putPod(EAST, NS, pod("a0").uid("a0-second").group("team-a").running("n1").cpu(2_000))
        .advance(CHECK);

    assertThat(engine.evictionRecords())
        .singleElement()
        .satisfies(record -> assertThat(record.value().getPodUid()).isEqualTo("a0-second"));
  }

  @Test
  void groupNoLongerOverUsedBeforeTheDelayGetsNoEviction() {
    engine = new EngineDriver();
    teamABorrowsTheWholeCluster(engine, false);
    teamBClaimsItsMin(engine);
    engine.advance(CHECK).advance(Duration.ofSeconds(60));

    engine.deletePod(EAST, NS, "b0").advance(CHECK);
    teamBClaimsItsMin(engine);
    engine.advance(Duration.ofSeconds(61));

    assertThat(engine.evictionRecords())
        .as("the over-use restarted 62 s ago: its clock started again")
        .isEmpty();
    engine.advance(DELAY);
    assertThat(engine.evictionRecords()).hasSize(2);
  }

  @Test
  void nonPreemptiblePodsAreNeverEvicted() {
    engine = new EngineDriver();
    teamABorrowsTheWholeCluster(engine, true);
    teamBClaimsItsMin(engine);

    engine.advance(CHECK).advance(DELAY).advance(DELAY);

    assertThat(engine.group(EAST, "team-a").used().get("cpu"))
        .isGreaterThan(engine.group(EAST, "team-a").runtime().get("cpu"));
    assertThat(engine.evictionRecords()).isEmpty();
  }

  @Test
  void invalidGroupsAreNeverEvictedFrom() {
    engine = new EngineDriver();
    teamABorrowsTheWholeCluster(engine, false);
    teamBClaimsItsMin(engine);
    engine.advance(CHECK);

    // team-a becomes invalid (min above max) while over-used.
    engine.putQuota(EAST, "team-a", quota().min(cpu(5_000)).max(cpu(4_000)).build());
    engine.advance(DELAY).advance(DELAY);

    assertThat(engine.group(EAST, "team-a").valid()).isFalse();
    assertThat(engine.evictionRecords()).isEmpty();
  }

  @Test
  void theSystemGroupIsNeverEvictedFrom() {
    engine = new EngineDriver();
    engine
        .putNode(EAST, "n1", node(2_000))
        .putQuota(EAST, SpecialGroups.SYSTEM, quota().min(cpu(1_000)).max(cpu(1_000)).build());
    for (int i = 0; i < 3; i++) {
      // Only kube-system's pods may name the system group (NamespaceBinding).
      engine.putPod(
          EAST, "kube-system", pod("s" + i).group(SpecialGroups.SYSTEM).running("n1").cpu(1_000));
    }

    engine.advance(CHECK).advance(DELAY).advance(DELAY);

    final GroupStatus system = engine.group(EAST, SpecialGroups.SYSTEM);
    assertThat(system.used().get("cpu")).isGreaterThan(system.runtime().get("cpu"));
    assertThat(engine.evictionRecords()).isEmpty();
  }

  @Test
  void reclaimSwitchedOffIssuesNoCommands() {
    engine =
        new EngineDriver(
            EngineDriver.settings().set(EngineSettings.RECLAIM_ENABLED.key(), "false").build());
    teamABorrowsTheWholeCluster(engine, false);
    teamBClaimsItsMin(engine);

    engine.advance(CHECK).advance(DELAY).advance(DELAY);

    assertThat(engine.evictionRecords()).isEmpty();
  }

  @Test
  void theRevokeDelayIsConfigurable() {
    engine =
        new EngineDriver(
            EngineDriver.settings().set(EngineSettings.REVOKE_DELAY.key(), "10s").build());
    teamABorrowsTheWholeCluster(engine, false);
    teamBClaimsItsMin(engine);

    engine.advance(CHECK).advance(Duration.ofSeconds(9));
    assertThat(engine.evictionRecords()).isEmpty();
    engine.advance(CHECK);
    assertThat(engine.evictionRecords()).hasSize(2);
  }

  @Test
  void aClusterReadingABacklogIsNotJudgedUntilItHasCaughtUp() {
    engine =
        new EngineDriver(
            EngineDriver.settings().set(EngineSettings.REVOKE_DELAY.key(), "10s").build());
    // Everything is read late, as at the start of an engine over topics that hold a history.
    engine.inputsPublishedAgo(Duration.ofMinutes(5));
    ReclaimScene.putTeamABorrowing(engine, false);
    engine.putPod(EAST, NS, pod("b0").group("team-b").cpu(5_000));
    // More of the backlog keeps coming for a while: the cluster is not judged meanwhile.
    for (int i = 0; i < 5; i++) {
      engine.putPod(EAST, "other", pod("x" + i).group("team-b").cpu(1)).advance(CHECK);
      assertThat(overUsedSince()).as("check %d, still reading the backlog", i).isEmpty();
    }

    // The check after a whole backlog interval without backlog events finds it caught up.
    engine.advance(CHECK);
    assertThat(overUsedSince()).containsExactly("team-a");
    engine.advance(Duration.ofSeconds(10));
    assertThat(engine.evictionRecords()).hasSize(2);
  }

  private List<String> overUsedSince() {
    final List<String> groups = new ArrayList<>();
    final KeyValueStore<GroupId, Long> store =
        engine.driver().getKeyValueStore(TopologyNames.OVER_USED_SINCE_STORE);
    try (KeyValueIterator<GroupId, Long> all = store.all()) {
      all.forEachRemaining(entry -> groups.add(entry.key.name()));
    }
    return groups;
  }
}
