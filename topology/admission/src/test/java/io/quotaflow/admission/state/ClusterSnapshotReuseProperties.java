package io.quotaflow.admission.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Issue 40.4: a snapshot built refresh after refresh, each reusing the previous one, equals one
 * captured whole from the same stores, over any sequence of changes.
 */
class ClusterSnapshotReuseProperties {

  /** One change to the stores: which kind, and numbers that pick its group, pod and values. */
  record Change(int kind, int group, int pod, int value) {}

  @Property(tries = 300)
  void aSnapshotBuiltIncrementallyEqualsOneCapturedWhole(
      @ForAll("changes") List<List<Change>> refreshes) {
    final StoredClusterView stores = new StoredClusterView().addGroup("g0").addGroup("g1");
    Instant asOf = Instant.parse("2026-03-01T12:00:00Z");
    ClusterSnapshot kept = ClusterSnapshot.capture(stores, asOf);
    for (final List<Change> changes : refreshes) {
      changes.forEach(change -> apply(stores, change));
      asOf = asOf.plusSeconds(1);
      kept = ClusterSnapshot.capture(stores, asOf, Optional.of(kept));
      final ClusterSnapshot whole = ClusterSnapshot.capture(stores, asOf);
      assertThat(kept.sameState(whole)).as("%s", changes).isTrue();
      assertThat(kept.asOf()).isEqualTo(asOf);
      for (final String name : stores.names()) {
        assertThat(kept.podsOf(name)).isEqualTo(stores.podsOf(name));
        assertThat(kept.group(name)).isEqualTo(stores.group(name));
        assertThat(kept.ownRequest(name)).isEqualTo(stores.ownRequest(name));
      }
    }
  }

  @Provide
  Arbitrary<List<List<Change>>> changes() {
    final Arbitrary<Change> change =
        Combinators.combine(
                Arbitraries.integers().between(0, 7),
                Arbitraries.integers().between(0, 5),
                Arbitraries.integers().between(0, 4),
                Arbitraries.integers().between(0, 3))
            .as(Change::new);
    return change.list().ofMaxSize(4).list().ofMaxSize(12);
  }

  private static void apply(StoredClusterView stores, Change change) {
    final String group = "g" + change.group();
    if (change.kind() != 0 && !stores.names().contains(group)) {
      stores.addGroup(group);
      return;
    }
    final String pod = "p" + change.pod();
    switch (change.kind()) {
      case 0 -> stores.addGroup(group);
      case 1 -> stores.removeGroup(group);
      case 2, 3 -> stores.pod(group, pod, change.value() % 2 == 0);
      case 4 -> stores.removePod(group, pod);
      case 5 -> stores.used(group, change.value() * 100L);
      case 6 -> {
        final String parent = "g" + change.value();
        stores.parent(
            group,
            parent.equals(group) || !stores.names().contains(parent)
                ? io.quotaflow.quota.SpecialGroups.ROOT
                : parent);
      }
      default -> stores.overUsed(group, Instant.ofEpochSecond(change.value()));
    }
  }
}
