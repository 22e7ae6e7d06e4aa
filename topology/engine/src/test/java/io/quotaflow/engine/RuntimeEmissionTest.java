package io.quotaflow.engine;

import static io.quotaflow.engine.Inputs.cpu;
import static io.quotaflow.engine.Inputs.node;
import static io.quotaflow.engine.Inputs.pod;
import static io.quotaflow.engine.Inputs.quota;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.engine.config.EngineConfig;
import io.quotaflow.engine.config.EngineSettings;
import io.quotaflow.engine.query.PodInGroup;
import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.schemas.PodKey;
import io.quotaflow.schemas.PodQuotaClass;
import io.quotaflow.schemas.QuotaClass;
import io.quotaflow.schemas.QuotaKey;
import io.quotaflow.tree.PodClass;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What the topology emits on runtime.v1 and pod-classes.v1 as pods, groups and nodes change. After
 * every step the groups read back from runtime.v1 equal the core's full computation on the same
 * inputs: the topology routes and coalesces, the core computes.
 */
class RuntimeEmissionTest {
  private static final String EAST = "east";
  private static final String WEST = "west";
  private static final String NS = "apps";

  private EngineDriver engine;

  @BeforeEach
  void startEngineWithOneNodeAndTwoTeams() {
    startEngine(settings().build());
  }

  /** The engine's settings for these tests: its defaults, as the driver runs them. */
  EngineConfig.Builder settings() {
    return EngineDriver.settings();
  }

  private void startEngine(final EngineConfig config) {
    engine = new EngineDriver(config);
    engine
        .putNode(EAST, "n1", node(10_000))
        .putQuota(EAST, "team-a", quota().min(cpu(4_000)).max(cpu(8_000)).build())
        .putQuota(EAST, "team-b", quota().min(cpu(4_000)).max(cpu(8_000)).build())
        .recompute();
    engine.runtimeRecords();
  }

  @AfterEach
  void close() {
    engine.close();
  }

  @Test
  void nothingIsEmittedBeforeTheRecomputationInterval() {
    engine.putPod(EAST, NS, pod("p1").group("team-a").running("n1").cpu(1_000));

    assertThat(engine.runtimeRecords()).isEmpty();
    engine.recompute();
    assertThat(engine.emittedGroups(EAST)).contains("team-a");
  }

  @Test
  void aBurstOfPodEventsIsCoalescedIntoOneRecordPerChangedGroup() {
    for (int i = 0; i < 20; i++) {
      engine.putPod(EAST, NS, pod("p" + i).group("team-a").running("n1").cpu(100));
    }
    engine.recompute();

    assertThat(engine.emittedGroups(EAST)).containsOnlyOnce("team-a").doesNotContain("team-b");
    assertThat(engine.group(EAST, "team-a").used()).isEqualTo(ResourceList.of("cpu", 2_000));
    assertThat(engine.table(EAST)).isEqualTo(engine.expected(EAST));
  }

  @Test
  void anOldBacklogIsRecomputedOncePerMaximumIntervalAndItsEndAfterASecondsPause() {
    // The reclaim check recomputes whatever is dirty every second; without it, the pacer alone.
    engine.close();
    startEngine(settings().set(EngineSettings.RECLAIM_ENABLED.key(), "false").build());
    engine.inputsPublishedAgo(Duration.ofMinutes(5));
    for (int tick = 1; tick < 100; tick++) {
      engine.putPod(EAST, NS, pod("p" + tick).group("team-a").running("n1").cpu(100)).recompute();
      assertThat(engine.runtimeRecords()).as("tick %d of a backlog", tick).isEmpty();
    }
    engine.putPod(EAST, NS, pod("p100").group("team-a").running("n1").cpu(100)).recompute();
    assertThat(engine.emittedGroups(EAST))
        .as("10 s (recompute.backlog.max.interval) into the backlog")
        .containsOnlyOnce("team-a");
    assertThat(engine.group(EAST, "team-a").used()).isEqualTo(ResourceList.of("cpu", 10_000));

    engine.putPod(EAST, NS, pod("p101").group("team-a").running("n1").cpu(100)).recompute();
    engine.advance(Duration.ofMillis(800));
    assertThat(engine.runtimeRecords()).as("a pause of 900 ms in a 5-minute backlog").isEmpty();
    engine.advance(Duration.ofMillis(100));
    assertThat(engine.emittedGroups(EAST))
        .as("a second without events: its end")
        .contains("team-a");
    assertThat(engine.group(EAST, "team-a").used()).isEqualTo(ResourceList.of("cpu", 10_100));
    assertThat(engine.table(EAST)).isEqualTo(engine.expected(EAST));
  }

  @Test
  void aBacklogReadInAMomentIsComputedOnceWhenItEnds() {
    // Inputs published shortly before the engine started (as quotaflow local does).
    engine.close();
    startEngine(settings().set(EngineSettings.RECLAIM_ENABLED.key(), "false").build());
    engine.inputsPublishedAgo(Duration.ofSeconds(4));
    for (int i = 1; i <= 5; i++) {
      engine.putPod(EAST, NS, pod("p" + i).group("team-a").running("n1").cpu(100));
    }
    engine.recompute();
    assertThat(engine.runtimeRecords()).as("100 ms after the last of a 4 s old backlog").isEmpty();
    engine.recompute();
    engine.recompute();

    assertThat(engine.emittedGroups(EAST)).containsOnlyOnce("team-a");
    assertThat(engine.group(EAST, "team-a").used()).isEqualTo(ResourceList.of("cpu", 500));
  }

  @Test
  void podAddedIsChargedToItsGroupAndOnlyChangedGroupsAreEmitted() {
    engine.putPod(EAST, NS, pod("p1").group("team-a").running("n1").cpu(1_000)).recompute();

    final List<String> emitted = engine.emittedGroups(EAST);
    assertThat(emitted).contains("team-a", SpecialGroups.ROOT).doesNotContain("team-b");
    assertThat(engine.group(EAST, "team-a").used()).isEqualTo(ResourceList.of("cpu", 1_000));
    assertThat(engine.table(EAST)).isEqualTo(engine.expected(EAST));
    assertThat(engine.podClassRecords())
        .singleElement()
        .satisfies(
            record -> {
              assertThat(record.key()).isEqualTo(new PodKey(EAST, NS, "p1"));
              assertThat(record.value().getGroup()).isEqualTo("team-a");
              assertThat(record.value().getPodUid()).isEqualTo("p1-uid");
              assertThat(record.value().getQuotaClass()).isEqualTo(QuotaClass.IN_QUOTA);
            });
  }

  @Test
  void podUpdatedFromPendingToRunningBecomesUsed() {
    engine.putPod(EAST, NS, pod("p1").group("team-a").cpu(1_000)).recompute();
    assertThat(engine.group(EAST, "team-a").request()).isEqualTo(ResourceList.of("cpu", 1_000));
    assertThat(engine.group(EAST, "team-a").used()).isEqualTo(ResourceList.of("cpu", 0));
    assertThat(engine.podClassRecords()).as("a pending pod has no class").isEmpty();

    engine.putPod(EAST, NS, pod("p1").group("team-a").running("n1").cpu(1_500)).recompute();

    assertThat(engine.group(EAST, "team-a").used()).isEqualTo(ResourceList.of("cpu", 1_500));
    assertThat(engine.table(EAST)).isEqualTo(engine.expected(EAST));
    assertThat(engine.podClassRecords()).hasSize(1);
  }

  @Test
  void aPendingPodAtANonLendersFloorReEmitsItsGroupWithTheNewOwnRequest() {
    engine
        .putQuota(EAST, "team-a", quota().min(cpu(4_000)).max(cpu(8_000)).allowLent(false).build())
        .putPod(EAST, NS, pod("p1").group("team-a").running("n1").cpu(1_000))
        .recompute();
    assertThat(engine.runtimeRecords())
        .filteredOn(record -> record.key().getName().equals("team-a"))
        .last()
        .satisfies(record -> assertThat(record.value().getOwnRequest()).isEqualTo(cpu(1_000)));

    // The request stays at the floor of 4 cores, so the status does not change; the own request
    // does, and the admission check reads it from this record.
    engine.putPod(EAST, NS, pod("p2").group("team-a").cpu(2_000)).recompute();

    assertThat(engine.runtimeRecords())
        .singleElement()
        .satisfies(
            record -> {
              assertThat(record.key()).isEqualTo(new QuotaKey(EAST, "team-a"));
              assertThat(record.value().getRequest()).isEqualTo(cpu(4_000));
              assertThat(record.value().getOwnRequest()).isEqualTo(cpu(3_000));
            });
    assertThat(engine.queries().ownRequest(EAST, "team-a")).contains(ResourceList.of("cpu", 3_000));
  }

  @Test
  void unchangedPodUpdateEmitsNothing() {
    engine.putPod(EAST, NS, pod("p1").group("team-a").running("n1").cpu(1_000)).recompute();
    engine.runtimeRecords();
    engine.podClassRecords();

    engine.putPod(EAST, NS, pod("p1").group("team-a").running("n1").cpu(1_000)).recompute();

    assertThat(engine.runtimeRecords()).isEmpty();
    assertThat(engine.podClassRecords()).isEmpty();
  }

  @Test
  void podDeletedReleasesItsResourcesAndItsClassIsTombstoned() {
    engine.putPod(EAST, NS, pod("p1").group("team-a").running("n1").cpu(1_000)).recompute();
    engine.podClassRecords();

    engine.deletePod(EAST, NS, "p1").recompute();

    assertThat(engine.group(EAST, "team-a").used()).isEqualTo(ResourceList.of("cpu", 0));
    assertThat(engine.table(EAST)).isEqualTo(engine.expected(EAST));
    assertThat(engine.podClassRecords())
        .singleElement()
        .satisfies(
            record -> {
              assertThat(record.key()).isEqualTo(new PodKey(EAST, NS, "p1"));
              assertThat(record.value()).isNull();
            });
    assertThat(engine.queries().podsOf(EAST, "team-a")).isEmpty();
  }

  @Test
  void podMovedToAnotherGroupByLabelIsChargedThereOnly() {
    engine.putPod(EAST, NS, pod("p1").group("team-a").running("n1").cpu(1_000)).recompute();
    engine.podClassRecords();

    engine.putPod(EAST, NS, pod("p1").group("team-b").running("n1").cpu(1_000)).recompute();

    assertThat(engine.group(EAST, "team-a").used()).isEqualTo(ResourceList.of("cpu", 0));
    assertThat(engine.group(EAST, "team-b").used()).isEqualTo(ResourceList.of("cpu", 1_000));
    assertThat(engine.table(EAST)).isEqualTo(engine.expected(EAST));
    assertThat(engine.queries().podsOf(EAST, "team-a")).isEmpty();
    assertThat(engine.queries().podsOf(EAST, "team-b"))
        .containsExactly(
            new PodInGroup(new PodRef(NS, "p1"), "p1-uid", Optional.of(PodClass.IN_QUOTA)));
    final List<TestRecord<PodKey, PodQuotaClass>> classes = engine.podClassRecords();
    assertThat(classes)
        .singleElement()
        .satisfies(r -> assertThat(r.value().getGroup()).isEqualTo("team-b"));
  }

  @Test
  void groupCreatedIsEmittedWithItsParent() {
    engine
        .putQuota(EAST, "dept", quota().isParent().min(cpu(6_000)).max(cpu(10_000)).build())
        .putQuota(EAST, "team-c", quota().parent("dept").min(cpu(1_000)).max(cpu(5_000)).build())
        .recompute();

    assertThat(engine.emittedGroups(EAST)).contains("dept", "team-c");
    assertThat(engine.group(EAST, "team-c").parent()).isEqualTo("dept");
    assertThat(engine.group(EAST, "dept").parentGroup()).isTrue();
    assertThat(engine.table(EAST)).isEqualTo(engine.expected(EAST));
  }

  @Test
  void groupChangedIsEmittedWithItsNewSpec() {
    engine.putQuota(EAST, "team-a", quota().min(cpu(2_000)).max(cpu(6_000)).build()).recompute();

    assertThat(engine.group(EAST, "team-a").max()).isEqualTo(ResourceList.of("cpu", 6_000));
    assertThat(engine.group(EAST, "team-a").min()).isEqualTo(ResourceList.of("cpu", 2_000));
    assertThat(engine.table(EAST)).isEqualTo(engine.expected(EAST));
  }

  @Test
  void groupReparentedMovesUnderItsNewParent() {
    engine
        .putQuota(EAST, "dept", quota().isParent().min(cpu(6_000)).max(cpu(10_000)).build())
        .putPod(EAST, NS, pod("p1").group("team-a").running("n1").cpu(3_000))
        .recompute();
    assertThat(engine.group(EAST, "dept").used()).isEqualTo(ResourceList.of("cpu", 0));

    engine
        .putQuota(EAST, "team-a", quota().parent("dept").min(cpu(4_000)).max(cpu(8_000)).build())
        .recompute();

    assertThat(engine.group(EAST, "team-a").parent()).isEqualTo("dept");
    assertThat(engine.group(EAST, "dept").used()).isEqualTo(ResourceList.of("cpu", 3_000));
    assertThat(engine.table(EAST)).isEqualTo(engine.expected(EAST));

    engine.putQuota(EAST, "team-a", quota().min(cpu(4_000)).max(cpu(8_000)).build()).recompute();

    assertThat(engine.group(EAST, "team-a").parent()).isEqualTo(SpecialGroups.ROOT);
    assertThat(engine.group(EAST, "dept").used()).isEqualTo(ResourceList.of("cpu", 0));
    assertThat(engine.table(EAST)).isEqualTo(engine.expected(EAST));
  }

  @Test
  void groupDeletedIsTombstonedAndItsPodsFallToTheDefaultGroup() {
    engine.putPod(EAST, NS, pod("p1").group("team-b").running("n1").cpu(1_000)).recompute();
    engine.runtimeRecords();

    engine.deleteQuota(EAST, "team-b").recompute();

    final List<TestRecord<QuotaKey, io.quotaflow.schemas.GroupRuntime>> records =
        engine.runtimeRecords();
    assertThat(records)
        .filteredOn(record -> record.key().getName().equals("team-b"))
        .singleElement()
        .satisfies(record -> assertThat(record.value()).isNull());
    assertThat(engine.queries().group(EAST, "team-b")).isEmpty();
    assertThat(engine.group(EAST, SpecialGroups.DEFAULT).used())
        .isEqualTo(ResourceList.of("cpu", 1_000));
    assertThat(engine.table(EAST)).isEqualTo(engine.expected(EAST));
  }

  @Test
  void lendingFlagFlipRaisesTheRequestToMinAndBack() {
    engine.putPod(EAST, NS, pod("p1").group("team-a").running("n1").cpu(1_000)).recompute();
    assertThat(engine.group(EAST, "team-a").request()).isEqualTo(ResourceList.of("cpu", 1_000));

    engine
        .putQuota(EAST, "team-a", quota().min(cpu(4_000)).max(cpu(8_000)).allowLent(false).build())
        .recompute();
    assertThat(engine.group(EAST, "team-a").request()).isEqualTo(ResourceList.of("cpu", 4_000));
    assertThat(engine.group(EAST, "team-a").runtime()).isEqualTo(ResourceList.of("cpu", 4_000));
    assertThat(engine.table(EAST)).isEqualTo(engine.expected(EAST));

    engine.putQuota(EAST, "team-a", quota().min(cpu(4_000)).max(cpu(8_000)).build()).recompute();
    assertThat(engine.group(EAST, "team-a").request()).isEqualTo(ResourceList.of("cpu", 1_000));
    assertThat(engine.table(EAST)).isEqualTo(engine.expected(EAST));
  }

  @Test
  void nodeCapacityChangeRedistributesTheClusterTotal() {
    engine
        .putQuota(EAST, "team-a", quota().min(cpu(2_000)).max(cpu(20_000)).build())
        .putPod(EAST, NS, pod("big").group("team-a").cpu(15_000))
        .recompute();
    assertThat(engine.group(EAST, SpecialGroups.ROOT).runtime())
        .isEqualTo(ResourceList.of("cpu", 10_000));
    // team-b lends everything it does not use: team-a borrows the whole cluster.
    assertThat(engine.group(EAST, "team-a").runtime()).isEqualTo(ResourceList.of("cpu", 10_000));

    engine.putNode(EAST, "n1", node(20_000)).recompute();

    assertThat(engine.group(EAST, SpecialGroups.ROOT).runtime())
        .isEqualTo(ResourceList.of("cpu", 20_000));
    assertThat(engine.group(EAST, "team-a").runtime()).isEqualTo(ResourceList.of("cpu", 15_000));
    assertThat(engine.table(EAST)).isEqualTo(engine.expected(EAST));

    engine.deleteNode(EAST, "n1").recompute();

    assertThat(engine.group(EAST, "team-a").runtime().get("cpu")).isZero();
    assertThat(engine.table(EAST)).isEqualTo(engine.expected(EAST));
  }

  @Test
  void twoClustersWithTheSameGroupNamesNeverAffectEachOther() {
    engine
        .putNode(WEST, "n1", node(4_000))
        .putQuota(WEST, "team-a", quota().min(cpu(1_000)).max(cpu(2_000)).build())
        .recompute();
    engine.runtimeRecords();

    engine.putPod(EAST, NS, pod("p1").group("team-a").running("n1").cpu(3_000)).recompute();

    assertThat(engine.emittedGroups(WEST)).isEmpty();
    assertThat(engine.group(WEST, "team-a").used()).isEqualTo(ResourceList.of("cpu", 0));
    assertThat(engine.group(EAST, "team-a").used()).isEqualTo(ResourceList.of("cpu", 3_000));
    assertThat(engine.table(EAST)).isEqualTo(engine.expected(EAST));
    assertThat(engine.table(WEST)).isEqualTo(engine.expected(WEST));
    assertThat(engine.queries().group(WEST, "team-a")).contains(engine.group(WEST, "team-a"));
    assertThat(engine.queries().group(EAST, "team-a")).contains(engine.group(EAST, "team-a"));
    assertThat(engine.queries().lookup(EAST).find("team-a")).contains(engine.group(EAST, "team-a"));
    assertThat(engine.queries().tree(WEST))
        .extracting(status -> status.name())
        .containsExactlyInAnyOrderElementsOf(engine.expected(WEST).keySet());
  }

  @Test
  void invalidGroupIsIsolatedWhileValidGroupsOfTheClusterKeepBeingComputed() {
    engine
        .putPod(EAST, NS, pod("a1").group("team-a").running("n1").cpu(1_000))
        .putPod(EAST, NS, pod("b1").group("team-b").running("n1").cpu(2_000))
        .recompute();
    final ResourceList lastValidRuntime = engine.group(EAST, "team-b").runtime();

    // min above max breaks SPEC 9: the group is invalid, the record itself is fine.
    engine.putQuota(EAST, "team-b", quota().min(cpu(9_000)).max(cpu(8_000)).build()).recompute();

    assertThat(engine.group(EAST, "team-b").valid()).isFalse();
    assertThat(engine.group(EAST, "team-b").reason()).isPresent();
    assertThat(engine.group(EAST, "team-b").runtime()).isEqualTo(lastValidRuntime);
    assertThat(engine.rejectedRecords()).isEmpty();

    engine.putPod(EAST, NS, pod("a2").group("team-a").running("n1").cpu(500)).recompute();

    assertThat(engine.group(EAST, "team-a").valid()).isTrue();
    assertThat(engine.group(EAST, "team-a").used()).isEqualTo(ResourceList.of("cpu", 1_500));
    assertThat(engine.group(EAST, "team-a")).isEqualTo(engine.expected(EAST).get("team-a"));
  }
}
