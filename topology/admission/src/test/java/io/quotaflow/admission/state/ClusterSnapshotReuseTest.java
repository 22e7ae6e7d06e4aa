package io.quotaflow.admission.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.tree.GroupStatus;
import io.quotaflow.tree.PodAssignment;
import io.quotaflow.tree.PodClass;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Issue 40.4: a refresh copies only what changed since the previous snapshot, exactly. */
class ClusterSnapshotReuseTest {

  private static final Instant FIRST = Instant.parse("2026-03-01T12:00:00Z");
  private static final Instant SECOND = FIRST.plusSeconds(1);

  private final StoredClusterView stores =
      new StoredClusterView()
          .used("team-a", 200)
          .pod("team-a", "a-1", true)
          .pod("team-a", "a-2", false)
          .used("team-b", 100)
          .pod("team-b", "b-1", true)
          .used("team-c", 0);

  private ClusterSnapshot refresh(ClusterSnapshot previous) {
    return ClusterSnapshot.capture(stores, SECOND, Optional.of(previous));
  }

  @Test
  void aChangeToOneGroupsPodsIsReflectedExactlyAndTheOtherGroupsAreReused() {
    final ClusterSnapshot first = ClusterSnapshot.capture(stores, FIRST);
    stores.removePod("team-a", "a-2").pod("team-a", "a-3", true).used("team-a", 300);

    final ClusterSnapshot second = refresh(first);

    assertThat(second.asOf()).isEqualTo(SECOND);
    assertThat(second.podsOf("team-a"))
        .extracting(PodAssignment::ref)
        .containsExactly(new PodRef("ns", "a-1"), new PodRef("ns", "a-3"));
    assertThat(second.group("team-a").map(GroupStatus::used))
        .contains(ResourceList.of(ResourceList.CPU, 300));
    assertThat(second.ownRequest("team-a")).contains(ResourceList.of(ResourceList.CPU, 300));
    assertThat(second.podsOf("team-b")).isSameAs(first.podsOf("team-b"));
    assertThat(second.group("team-b").orElseThrow()).isSameAs(first.group("team-b").orElseThrow());
    assertThat(second.ownRequest("team-b").orElseThrow())
        .isSameAs(first.ownRequest("team-b").orElseThrow());
    assertThat(second.quotas()).isSameAs(first.quotas());
    assertThat(second.directory()).isSameAs(first.directory());
    assertThat(second.sameState(ClusterSnapshot.capture(stores, SECOND))).isTrue();
  }

  @Test
  void aPodChangingClassAloneIsReflected() {
    final ClusterSnapshot first = ClusterSnapshot.capture(stores, FIRST);
    stores.pod("team-a", "a-2", true);

    final ClusterSnapshot second = refresh(first);

    assertThat(second.pod("team-a", new PodRef("ns", "a-2")).flatMap(PodAssignment::podClass))
        .contains(PodClass.IN_QUOTA);
    assertThat(second.groups()).isSameAs(first.groups());
    assertThat(second.sameState(ClusterSnapshot.capture(stores, SECOND))).isTrue();
  }

  @Test
  void removedAndNewGroupsAreReflected() {
    final ClusterSnapshot first = ClusterSnapshot.capture(stores, FIRST);
    stores.removeGroup("team-b").used("team-d", 50).pod("team-d", "d-1", false);

    final ClusterSnapshot second = refresh(first);

    assertThat(second.group("team-b")).isEmpty();
    assertThat(second.podsOf("team-b")).isEmpty();
    assertThat(second.ownRequest("team-b")).isEmpty();
    assertThat(second.quota("team-b")).isEmpty();
    assertThat(second.childNames(SpecialGroups.ROOT))
        .containsExactlyInAnyOrder("team-a", "team-c", "team-d");
    assertThat(second.podsOf("team-d"))
        .extracting(PodAssignment::ref)
        .containsExactly(new PodRef("ns", "d-1"));
    assertThat(second.podsOf("team-a")).isSameAs(first.podsOf("team-a"));
    assertThat(second.sameState(ClusterSnapshot.capture(stores, SECOND))).isTrue();
  }

  @Test
  void aGroupLosingItsLastPodHasNoneAndTheOthersKeepTheirs() {
    final ClusterSnapshot first = ClusterSnapshot.capture(stores, FIRST);
    stores.removePod("team-b", "b-1");

    final ClusterSnapshot second = refresh(first);

    assertThat(second.podsOf("team-b")).isEmpty();
    assertThat(second.podsOf("team-a")).hasSize(2);
    assertThat(second.sameState(ClusterSnapshot.capture(stores, SECOND))).isTrue();
  }

  @Test
  void anUnchangedClusterSharesEveryPartButIsStampedWithTheNewRead() {
    final ClusterSnapshot first = ClusterSnapshot.capture(stores, FIRST);

    final ClusterSnapshot second = refresh(first);

    assertThat(second.asOf()).isEqualTo(SECOND);
    assertThat(second.groups()).isSameAs(first.groups());
    assertThat(second.children(SpecialGroups.ROOT)).isSameAs(first.children(SpecialGroups.ROOT));
    assertThat(second.overUsedSince()).isSameAs(first.overUsedSince());
    assertThat(second.lockedNodes()).isSameAs(first.lockedNodes());
    assertThat(second.sameState(first)).isTrue();
  }

  @Test
  void aMovedGroupIsIndexedUnderItsNewParent() {
    stores.used("org", 0);
    final ClusterSnapshot first = ClusterSnapshot.capture(stores, FIRST);
    stores.parent("team-c", "org").overUsed("team-a", FIRST);

    final ClusterSnapshot second = refresh(first);

    assertThat(second.childNames("org")).containsExactly("team-c");
    assertThat(second.childNames(SpecialGroups.ROOT)).doesNotContain("team-c");
    assertThat(second.overUsedSince()).containsEntry("team-a", FIRST);
    assertThat(second.sameState(ClusterSnapshot.capture(stores, SECOND))).isTrue();
  }
}
