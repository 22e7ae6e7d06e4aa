package io.quotaflow.tree;

import static io.quotaflow.tree.Fixtures.cluster;
import static io.quotaflow.tree.Fixtures.cpu;
import static io.quotaflow.tree.Fixtures.quota;
import static io.quotaflow.tree.Fixtures.runtime;
import static io.quotaflow.tree.Fixtures.status;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecialGroups;
import org.junit.jupiter.api.Test;

/** SPEC 8: the root, the system group and the default group. */
class SpecialGroupsTest {

  private static final String CPU = ResourceList.CPU;

  private static QuotaPod.Builder systemPod(String name, long milli) {
    return QuotaPod.builder("kube-system", name)
        .quotaName(SpecialGroups.SYSTEM)
        .request(cpu(milli))
        .running("n");
  }

  @Test
  void theRootAndBothSpecialGroupsAlwaysExist() {
    final TreeSnapshot snapshot = cluster().total(cpu(10)).compute();

    assertThat(snapshot.groups())
        .extracting(GroupStatus::name)
        .containsExactly(SpecialGroups.ROOT, SpecialGroups.DEFAULT, SpecialGroups.SYSTEM);
    assertThat(status(snapshot, SpecialGroups.ROOT).parent()).isEmpty();
    assertThat(status(snapshot, SpecialGroups.SYSTEM).parent()).isEqualTo(SpecialGroups.ROOT);
  }

  @Test
  void theSystemGroupsUsedIsCarvedOutOfWhatTheRootDistributes() {
    final TreeSnapshot snapshot =
        cluster()
            .total(cpu(100))
            .group(quota("a").min(cpu(0)).max(cpu(100)))
            .demand("a", cpu(100))
            .pod(systemPod("dns", 30))
            .compute();

    assertThat(runtime(snapshot, SpecialGroups.ROOT, CPU)).isEqualTo(70);
    assertThat(runtime(snapshot, "a", CPU)).isEqualTo(70);
    assertThat(runtime(snapshot, SpecialGroups.SYSTEM, CPU)).isEqualTo(100);
    assertThat(snapshot.total().get(CPU)).isEqualTo(100);
  }

  @Test
  void theDefaultGroupsUsedIsCarvedOutAndItNeverCompetesForSurplus() {
    final TreeSnapshot snapshot =
        cluster()
            .total(cpu(100))
            .group(quota("a").min(cpu(0)).max(cpu(100)))
            .demand("a", cpu(100))
            .pod(QuotaPod.builder("stray", "held").request(cpu(20)).running("n"))
            .pod(QuotaPod.builder("stray", "waiting").request(cpu(500)))
            .compute();

    assertThat(runtime(snapshot, "a", CPU)).isEqualTo(80);
    assertThat(status(snapshot, SpecialGroups.DEFAULT).request().get(CPU)).isEqualTo(520);
  }

  @Test
  void theDefaultGroupIsLimitedByItsConfiguredMaxOrItsObjectsMax() {
    final Fixtures.ClusterBuilder cluster =
        cluster()
            .total(cpu(100))
            .pod(QuotaPod.builder("stray", "waiting").request(cpu(500)))
            .options(QuotaOptions.DEFAULTS.withDefaultGroupMax(cpu(25)));

    assertThat(runtime(cluster.compute(), SpecialGroups.DEFAULT, CPU)).isEqualTo(25);
    assertThat(status(cluster.compute(), SpecialGroups.DEFAULT).limitedRequest().get(CPU))
        .isEqualTo(25);

    cluster.group(quota(SpecialGroups.DEFAULT).max(cpu(40)));
    assertThat(runtime(cluster.compute(), SpecialGroups.DEFAULT, CPU)).isEqualTo(40);
  }

  @Test
  void whatTheRootDistributesNeverGoesBelowZero() {
    final TreeSnapshot snapshot =
        cluster()
            .total(cpu(50))
            .group(quota("a").min(cpu(10)).max(cpu(100)))
            .demand("a", cpu(10))
            .pod(systemPod("huge", 80))
            .compute();

    assertThat(runtime(snapshot, SpecialGroups.ROOT, CPU)).isZero();
    assertThat(runtime(snapshot, "a", CPU)).isZero();
  }

  @Test
  void aGroupCannotHangBelowASpecialGroup() {
    final TreeSnapshot snapshot =
        cluster()
            .total(cpu(50))
            .group(quota("stowaway").parent(SpecialGroups.SYSTEM).min(cpu(1)))
            .compute();

    assertThat(status(snapshot, "stowaway").valid()).isFalse();
    assertThat(status(snapshot, "stowaway").reason())
        .hasValueSatisfying(r -> assertThat(r).contains("special group"));
  }
}
