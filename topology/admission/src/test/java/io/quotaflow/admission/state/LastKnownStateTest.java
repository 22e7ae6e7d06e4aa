package io.quotaflow.admission.state;

import static io.quotaflow.tree.Fixtures.cpu;
import static io.quotaflow.tree.Fixtures.quota;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.quota.PodPhase;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.tree.Fixtures;
import io.quotaflow.tree.GroupStatus;
import io.quotaflow.tree.QuotaOptions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LastKnownStateTest {

  private static final Instant START = Instant.parse("2026-03-01T12:00:00Z");
  private final MutableClock clock = new MutableClock(START);
  private final LastKnownState lastKnown = new LastKnownState(clock, Duration.ofSeconds(5));
  private final SnapshotClusterState state =
      new SnapshotClusterState().put("east", cluster(1_000).inputs(), QuotaOptions.DEFAULTS);

  @Test
  void theStateIsAgedByTheInjectedClockAndAnsweredFromUpToTheMaxStaleness() {
    lastKnown.refresh(state);
    clock.advance(Duration.ofMillis(4_999));

    final LastKnownState.Recall young = lastKnown.recall("east");
    clock.advance(Duration.ofMillis(1));
    final LastKnownState.Recall atTheBound = lastKnown.recall("east");
    clock.advance(Duration.ofMillis(1));
    final LastKnownState.Recall old = lastKnown.recall("east");

    assertThat(young).isInstanceOf(LastKnownState.Usable.class);
    assertThat(((LastKnownState.Usable) young).staleness())
        .isEqualTo(new Staleness(START, Duration.ofMillis(4_999)));
    assertThat(atTheBound).isInstanceOf(LastKnownState.Usable.class);
    assertThat(old)
        .isEqualTo(
            new LastKnownState.TooOld(
                new Staleness(START, Duration.ofMillis(5_001)), Duration.ofSeconds(5)));
    assertThat(lastKnown.recall("west")).isInstanceOf(LastKnownState.Unknown.class);
  }

  /**
   * Issue 40.10: the standby replica of a cluster held elsewhere is copied too, dated by its newest
   * heartbeat (a standby shows the owner's state only as far as the owner wrote it), and keeps its
   * age when the owner stops writing.
   */
  @Test
  void aStandbyCopyIsDatedByItsNewestHeartbeatNotByWhenItWasRead() {
    state.standby("east", START.minusSeconds(3)).remote("east", "10.0.0.9", 8443);

    lastKnown.refresh(state);
    clock.advance(Duration.ofSeconds(1));
    lastKnown.refresh(state);

    final LastKnownState.Usable usable = (LastKnownState.Usable) lastKnown.recall("east");
    assertThat(usable.staleness())
        .isEqualTo(new Staleness(START.minusSeconds(3), Duration.ofSeconds(4)));
    assertThat(usable.view().group("team-a").map(GroupStatus::used))
        .contains(ResourceList.of(ResourceList.CPU, 1_000));
    clock.advance(Duration.ofMillis(1_001));
    lastKnown.refresh(state);
    assertThat(lastKnown.recall("east"))
        .as("older than the max staleness: not answered from")
        .isInstanceOf(LastKnownState.TooOld.class);
  }

  @Test
  void aStandbyCopyWithoutAnyHeartbeatCannotBeDatedAndIsNotKept() {
    // The state of east, whose view carries no heartbeat, offered as a standby copy.
    final ClusterStateReader elsewhere =
        new ClusterStateReader() {
          @Override
          public boolean alive() {
            return true;
          }

          @Override
          public Optional<String> notReadyReason() {
            return Optional.empty();
          }

          @Override
          public Ownership owner(String cluster) {
            return new Ownership.Remote("10.0.0.9", 8443);
          }

          @Override
          public List<String> localClusters() {
            return List.of();
          }

          @Override
          public Optional<ClusterView> cluster(String cluster) {
            return Optional.empty();
          }

          @Override
          public List<String> standbyClusters() {
            return List.of("east");
          }

          @Override
          public Optional<ClusterView> standbyCluster(String cluster) {
            return state.cluster(cluster);
          }
        };

    lastKnown.refresh(elsewhere);

    assertThat(lastKnown.recall("east")).isInstanceOf(LastKnownState.Unknown.class);
  }

  @Test
  void whileTheStoresCannotBeReadTheLastStateIsKeptAndAges() {
    lastKnown.refresh(state);
    state.unavailable("east", "rebalancing");
    clock.advance(Duration.ofSeconds(2));

    lastKnown.refresh(state);

    final LastKnownState.Usable usable = (LastKnownState.Usable) lastKnown.recall("east");
    assertThat(usable.staleness()).isEqualTo(new Staleness(START, Duration.ofSeconds(2)));
    assertThat(usable.view().group("team-a").map(GroupStatus::used))
        .contains(ResourceList.of(ResourceList.CPU, 1_000));
    assertThat(lastKnown.staleness("east")).map(Staleness::age).contains(Duration.ofSeconds(2));
  }

  @Test
  void aStateIsAsOldAsTheMomentItsReadBeganNotEnded() {
    // The read of the stores takes a second (a large cluster, a busy machine), or a rebalance
    // begins while it runs: the state is as of the read's start.
    final ClusterStateReader slow =
        new ClusterStateReader() {
          @Override
          public boolean alive() {
            return true;
          }

          @Override
          public java.util.Optional<String> notReadyReason() {
            return java.util.Optional.empty();
          }

          @Override
          public Ownership owner(String cluster) {
            return state.owner(cluster);
          }

          @Override
          public java.util.List<String> localClusters() {
            return state.localClusters();
          }

          @Override
          public java.util.Optional<ClusterView> cluster(String cluster) {
            final java.util.Optional<ClusterView> view = state.cluster(cluster);
            clock.advance(Duration.ofSeconds(1));
            return view;
          }
        };

    lastKnown.refresh(slow);

    final LastKnownState.Usable usable = (LastKnownState.Usable) lastKnown.recall("east");
    assertThat(usable.staleness()).isEqualTo(new Staleness(START, Duration.ofSeconds(1)));
  }

  @Test
  void aRefreshReplacesTheLastStateWithoutChangingACopyAlreadyHandedOut() {
    lastKnown.refresh(state);
    final ClusterView before = ((LastKnownState.Usable) lastKnown.recall("east")).view();
    state.put("east", cluster(3_000).inputs(), QuotaOptions.DEFAULTS);
    clock.advance(Duration.ofSeconds(1));

    lastKnown.refresh(state);

    final LastKnownState.Usable after = (LastKnownState.Usable) lastKnown.recall("east");
    assertThat(before.group("team-a").orElseThrow().used().get(ResourceList.CPU)).isEqualTo(1_000);
    assertThat(after.view().group("team-a").orElseThrow().used().get(ResourceList.CPU))
        .isEqualTo(3_000);
    assertThat(after.view().podsOf("team-a")).hasSize(1);
    assertThat(after.view().quota("team-a")).isPresent();
    assertThat(after.staleness().age()).isZero();
  }

  @Test
  void aClusterThatMovedAwayIsKeptUntilItsStateIsTooOldThenForgotten() {
    lastKnown.refresh(state);
    state.remote("east", "10.0.0.2", 8443);
    clock.advance(Duration.ofSeconds(5));
    lastKnown.refresh(state);
    assertThat(lastKnown.recall("east")).isInstanceOf(LastKnownState.Usable.class);

    clock.advance(Duration.ofSeconds(1));
    lastKnown.refresh(state);

    assertThat(lastKnown.recall("east")).isInstanceOf(LastKnownState.Unknown.class);
    assertThat(lastKnown.clusters()).isEmpty();
  }

  @Test
  void aRefreshReflectsWhatChangedStampedWithItsReadAndKeepsTheRestOfThePreviousState() {
    final SnapshotClusterState two =
        new SnapshotClusterState().put("east", twoGroups(1_000).inputs(), QuotaOptions.DEFAULTS);
    lastKnown.refresh(two);
    final ClusterSnapshot first = lastKnown.snapshot("east").orElseThrow();
    clock.advance(Duration.ofSeconds(1));
    two.put("east", twoGroups(2_000).inputs(), QuotaOptions.DEFAULTS);

    lastKnown.refresh(two);

    final ClusterSnapshot second = lastKnown.snapshot("east").orElseThrow();
    assertThat(second.asOf()).isEqualTo(START.plusSeconds(1));
    assertThat(second.group("team-a").map(GroupStatus::used))
        .contains(ResourceList.of(ResourceList.CPU, 2_000));
    assertThat(second.group("team-b").orElseThrow()).isSameAs(first.group("team-b").orElseThrow());
    assertThat(second.podsOf("team-b")).isSameAs(first.podsOf("team-b"));
    assertThat(second.sameState(ClusterSnapshot.capture(two.cluster("east").orElseThrow(), START)))
        .isTrue();
  }

  /** {@link #cluster} and team-b (min 2 cores), running one pod of 500m. */
  private static Fixtures.ClusterBuilder twoGroups(long milliCpu) {
    return cluster(milliCpu)
        .group(quota("team-b").namespace("beta").min(cpu(2_000)).max(cpu(6_000)))
        .pod(
            QuotaPod.builder("beta", "b-1")
                .quotaName("team-b")
                .request(ResourceList.of(ResourceList.CPU, 500))
                .phase(PodPhase.RUNNING)
                .nodeName("node-1")
                .build());
  }

  /** One group, team-a (min 4 cores), running one pod of {@code milliCpu}. */
  private static Fixtures.ClusterBuilder cluster(long milliCpu) {
    return Fixtures.cluster()
        .total(cpu(10_000))
        .group(quota("team-a").namespace("alpha").min(cpu(4_000)).max(cpu(6_000)))
        .pod(
            QuotaPod.builder("alpha", "a-1")
                .quotaName("team-a")
                .request(ResourceList.of(ResourceList.CPU, milliCpu))
                .phase(PodPhase.RUNNING)
                .nodeName("node-1")
                .build());
  }
}
