package io.quotaflow.tree;

import static io.quotaflow.tree.Fixtures.GPU;
import static io.quotaflow.tree.Fixtures.GPU_MEMORY;
import static io.quotaflow.tree.Fixtures.at;
import static io.quotaflow.tree.Fixtures.cluster;
import static io.quotaflow.tree.Fixtures.cpu;
import static io.quotaflow.tree.Fixtures.cpuMemory;
import static io.quotaflow.tree.Fixtures.parentQuota;
import static io.quotaflow.tree.Fixtures.quota;
import static io.quotaflow.tree.Fixtures.res;
import static io.quotaflow.tree.Fixtures.status;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.quota.PodPhase;
import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.QuotaNode;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.tree.QuotaOptions.DerivedResourceRule;
import io.quotaflow.tree.QuotaOptions.UsedPolicy;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** SPEC 3 to 5 and 12: which group a pod is charged to, and what it counts for. */
class AccountingTest {

  private static final String CPU = ResourceList.CPU;

  private static PodAssignment assignment(TreeSnapshot snapshot, String namespace, String name) {
    return snapshot.pods().stream()
        .filter(p -> p.ref().equals(new PodRef(namespace, name)))
        .findFirst()
        .orElseThrow();
  }

  private static Fixtures.ClusterBuilder mappingCluster() {
    return cluster()
        .total(cpu(100))
        .group(quota("labelled").min(cpu(10)).selectedNamespaces(List.of("team-ns")))
        .group(quota("team-ns").min(cpu(10)))
        .group(quota("listing").min(cpu(10)).namespaces(List.of("shared-ns")))
        .group(parentQuota("dept").min(cpu(10)));
  }

  @Test
  void theQuotaNameLabelWinsWhenItNamesAnExistingGroup() {
    final TreeSnapshot snapshot =
        mappingCluster().pod(QuotaPod.builder("team-ns", "p").quotaName("labelled")).compute();

    assertThat(assignment(snapshot, "team-ns", "p").group()).isEqualTo("labelled");
  }

  @Test
  void aLabelNamingNoGroupFallsBackToTheGroupNamedLikeTheNamespace() {
    final TreeSnapshot snapshot =
        mappingCluster().pod(QuotaPod.builder("team-ns", "p").quotaName("nobody")).compute();

    assertThat(assignment(snapshot, "team-ns", "p").group()).isEqualTo("team-ns");
  }

  @Test
  void aNamespaceListedByAGroupBelongsToThatGroup() {
    final TreeSnapshot snapshot =
        mappingCluster().pod(QuotaPod.builder("shared-ns", "p")).compute();

    assertThat(assignment(snapshot, "shared-ns", "p").group()).isEqualTo("listing");
  }

  @Test
  void aPodMatchingNothingGoesToTheDefaultGroup() {
    final TreeSnapshot snapshot =
        mappingCluster().pod(QuotaPod.builder("elsewhere", "p").request(cpu(5))).compute();

    assertThat(assignment(snapshot, "elsewhere", "p").group()).isEqualTo(SpecialGroups.DEFAULT);
    assertThat(status(snapshot, SpecialGroups.DEFAULT).request().get(CPU)).isEqualTo(5);
  }

  @Test
  void aPodResolvingToAParentGroupIsReportedAndNotCounted() {
    // Its namespace is named like the parent group: a configuration problem, reported.
    final TreeSnapshot snapshot =
        mappingCluster().pod(QuotaPod.builder("dept", "p").request(cpu(7)).running("n")).compute();

    final PodAssignment pod = assignment(snapshot, "dept", "p");
    assertThat(pod.group()).isEqualTo("dept");
    assertThat(pod.problem()).hasValueSatisfying(p -> assertThat(p).contains("parent group dept"));
    assertThat(pod.podClass()).isEmpty();
    assertThat(status(snapshot, "dept").used().get(CPU)).isZero();
    assertThat(status(snapshot, "dept").request().get(CPU)).isZero();
  }

  @Test
  void aPodLabelledWithAParentGroupIsChargedAsIfUnlabelledWithTheReason() {
    // Issue 39: a label cannot make a pod count nowhere.
    final TreeSnapshot snapshot =
        mappingCluster()
            .pod(QuotaPod.builder("x", "p").quotaName("dept").request(cpu(7)).running("n"))
            .compute();

    final PodAssignment pod = assignment(snapshot, "x", "p");
    assertThat(pod.group()).isEqualTo(SpecialGroups.DEFAULT);
    assertThat(pod.problem()).isEmpty();
    assertThat(pod.unbound()).hasValueSatisfying(p -> assertThat(p).contains("parent group dept"));
    assertThat(status(snapshot, SpecialGroups.DEFAULT).used().get(CPU)).isEqualTo(7);
  }

  @Test
  void podsMoveToAGroupThatAppearsLater() {
    final ClusterQuotaState state = new ClusterQuotaState(QuotaOptions.DEFAULTS);
    state.putPod(QuotaPod.builder("late", "p").request(cpu(3)).build());
    state.recompute();
    assertThat(state.pod(new PodRef("late", "p")).orElseThrow().group())
        .isEqualTo(SpecialGroups.DEFAULT);

    state.putGroup(quota("late").min(cpu(10)).build());
    final TreeDelta delta = state.recompute();

    assertThat(delta.changedPods()).extracting(PodAssignment::group).containsExactly("late");
    assertThat(state.group("late").orElseThrow().request().get(CPU)).isEqualTo(3);
    assertThat(state.group(SpecialGroups.DEFAULT).orElseThrow().request().get(CPU)).isZero();
  }

  @Test
  void requestCountsPendingAndRunningPodsButNotFinishedOnes() {
    final TreeSnapshot snapshot =
        cluster()
            .group(quota("g").min(cpu(100)))
            .pod(Fixtures.pod("g", "pending").request(cpu(1)))
            .pod(Fixtures.pod("g", "running").request(cpu(2)).running("n"))
            .pod(Fixtures.pod("g", "done").request(cpu(4)).phase(PodPhase.SUCCEEDED).nodeName("n"))
            .pod(Fixtures.pod("g", "failed").request(cpu(8)).phase(PodPhase.FAILED).nodeName("n"))
            .compute();

    assertThat(status(snapshot, "g").request().get(CPU)).isEqualTo(3);
    assertThat(status(snapshot, "g").used().get(CPU)).isEqualTo(2);
  }

  @Test
  void usedCountsBoundPodsOrOnlyRunningOnesByPolicy() {
    final Fixtures.ClusterBuilder cluster =
        cluster()
            .group(quota("g").min(cpu(100)))
            .pod(Fixtures.pod("g", "bound").request(cpu(1)).nodeName("n"))
            .pod(Fixtures.pod("g", "running").request(cpu(2)).running("n"));

    assertThat(status(cluster.compute(), "g").used().get(CPU)).isEqualTo(3);
    assertThat(
            status(
                    cluster
                        .options(QuotaOptions.DEFAULTS.withUsedPolicy(UsedPolicy.RUNNING))
                        .compute(),
                    "g")
                .used()
                .get(CPU))
        .isEqualTo(2);
  }

  @Test
  void terminatingPodsCountUntilGoneUnlessConfiguredOtherwise() {
    final Fixtures.ClusterBuilder cluster =
        cluster()
            .group(quota("g").min(cpu(100)))
            .pod(Fixtures.pod("g", "leaving").request(cpu(5)).running("n").deletionTime(at(9)));

    assertThat(status(cluster.compute(), "g").used().get(CPU)).isEqualTo(5);
    final TreeSnapshot notCounted =
        cluster.options(QuotaOptions.DEFAULTS.withCountTerminatingPods(false)).compute();
    assertThat(status(notCounted, "g").used().get(CPU)).isZero();
    assertThat(status(notCounted, "g").request().get(CPU)).isZero();
  }

  @Test
  void nonPreemptiblePodsAreSummedSeparately() {
    final TreeSnapshot snapshot =
        cluster()
            .group(parentQuota("dept").min(cpu(100)))
            .group(quota("g").parent("dept").min(cpu(100)))
            .pod(Fixtures.pod("g", "keep").request(cpu(3)).running("n").preemptible(false))
            .pod(Fixtures.pod("g", "pending-keep").request(cpu(4)).preemptible(false))
            .pod(Fixtures.pod("g", "other").request(cpu(5)).running("n"))
            .compute();

    assertThat(status(snapshot, "g").nonPreemptibleUsed().get(CPU)).isEqualTo(3);
    assertThat(status(snapshot, "g").nonPreemptibleRequest().get(CPU)).isEqualTo(7);
    assertThat(status(snapshot, "dept").nonPreemptibleUsed().get(CPU)).isEqualTo(3);
  }

  @Test
  void onlyTheDimensionsTheGroupTracksCount() {
    final TreeSnapshot snapshot =
        cluster()
            .group(quota("g").min(cpu(100)))
            .pod(Fixtures.pod("g", "p").request(cpuMemory(5, 1 << 20)).running("n"))
            .compute();

    assertThat(status(snapshot, "g").used()).isEqualTo(cpu(5));
  }

  @Test
  void derivedResourcesAreAddedToPodsAndNodesBeforeAccounting() {
    final QuotaOptions options =
        QuotaOptions.DEFAULTS.withDerivedResources(
            List.of(
                new DerivedResourceRule(GPU, GPU_MEMORY, 32),
                new DerivedResourceRule("nvidia.com/mig-1g.10gb", GPU_MEMORY, 10)));
    final TreeSnapshot snapshot =
        cluster()
            .node(QuotaNode.healthy("gpu", res(GPU, 4)))
            .group(quota("ml").min(res(GPU_MEMORY, 64)))
            .pod(
                Fixtures.pod("ml", "train")
                    .request(res(GPU, 2, "nvidia.com/mig-1g.10gb", 1))
                    .running("gpu"))
            .options(options)
            .compute();

    assertThat(snapshot.total().get(GPU_MEMORY)).isEqualTo(128);
    assertThat(status(snapshot, "ml").used().get(GPU_MEMORY)).isEqualTo(74);
  }

  @Test
  void deletingNodesNeverCountAndUnreadyOnesOnlyWhenConfigured() {
    final Fixtures.ClusterBuilder cluster =
        cluster()
            .node(QuotaNode.healthy("ok", cpu(10)))
            .node(new QuotaNode("draining", cpu(20), true, false, false, List.of()))
            .node(new QuotaNode("gone", cpu(40), true, true, true, List.of()));

    assertThat(cluster.compute().total()).isEqualTo(cpu(30));
    assertThat(
            cluster
                .options(QuotaOptions.DEFAULTS.withOnlyReadySchedulableNodes(true))
                .compute()
                .total())
        .isEqualTo(cpu(10));
  }

  @Test
  void everyPodHasAnAssignmentOrderedByReference() {
    final TreeSnapshot snapshot =
        mappingCluster()
            .pod(QuotaPod.builder("b", "p2"))
            .pod(QuotaPod.builder("a", "p9"))
            .pod(QuotaPod.builder("b", "p1"))
            .compute();

    assertThat(snapshot.pods())
        .extracting(PodAssignment::ref)
        .containsExactly(new PodRef("a", "p9"), new PodRef("b", "p1"), new PodRef("b", "p2"));
    assertThat(snapshot.pods())
        .allSatisfy(p -> assertThat(p.problem()).isEqualTo(Optional.empty()));
  }
}
