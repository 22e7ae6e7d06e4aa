package io.quotaflow.bench.core;

import io.quotaflow.bench.cluster.Dimensions;
import io.quotaflow.bench.cluster.SyntheticCluster;
import io.quotaflow.eviction.OverUse;
import io.quotaflow.eviction.VictimPlan;
import io.quotaflow.eviction.VictimSelector;
import io.quotaflow.quota.Gang;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.tree.ClusterQuotaState;
import io.quotaflow.tree.GroupStatus;
import io.quotaflow.tree.QuotaOptions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * Victim choice over every over-used group of a 10,000-group cluster (issue 28: by gang within 2x
 * of pod by pod). The generated cluster keeps its pods, except in {@value #GANG_LEAVES} leaves,
 * each of which instead runs {@value #GANGS_PER_LEAF} gangs of {@value #GANG_SIZE} pods (100,000
 * pods in all) asking together 5/4 of the leaf's max cpu, so that each is over-used whatever its
 * runtime and there is a choice between its gangs. The same run chooses on the same pods without
 * their gangs, with today's selector ({@link VictimSelector}, unit by unit, each pod a unit) and
 * with the pod-by-pod algorithm it replaced ({@link PodByPodVictimChoice}); both give the same
 * plans.
 */
public class VictimChoiceBenchmark extends CoreBenchmark {

  static final int GANG_LEAVES = 50;
  static final int GANGS_PER_LEAF = 2;
  static final int GANG_SIZE = 1_000;

  @Param({"10000"})
  public int groups;

  /**
   * Which groups choose: {@code gang-groups}, the {@value #GANG_LEAVES} that hold the 100,000 gang
   * pods; {@code all-over-used}, every over-used group of the cluster, as a reclaim round of the
   * engine does when all have been over-used for the revoke delay.
   */
  @Param({"gang-groups", "all-over-used"})
  public String scope;

  /** Each over-used group's status and pods, with gangs and without. */
  private List<GroupStatus> overUsed;

  private List<List<QuotaPod>> withGangs;
  private List<List<QuotaPod>> withoutGangs;

  @Setup
  public void setUp() {
    final SyntheticCluster cluster = cluster(groups);
    final Set<String> gangLeaves = gangLeaves(cluster);
    final List<QuotaPod> gangPods = gangPods(cluster, gangLeaves);
    final ClusterQuotaState gangs = state(cluster, gangLeaves, gangPods, pod -> pod);
    final ClusterQuotaState plain =
        state(cluster, gangLeaves, gangPods, VictimChoiceBenchmark::withoutGang);
    overUsed = new ArrayList<>();
    withGangs = new ArrayList<>();
    withoutGangs = new ArrayList<>();
    for (final OverUse over : OverUse.find(gangs.snapshot().groups())) {
      final GroupStatus status = gangs.group(over.group()).orElseThrow();
      if (!status.equals(plain.group(over.group()).orElseThrow())) {
        throw new IllegalStateException("gangs changed the numbers of " + over.group());
      }
      if ("gang-groups".equals(scope) && !gangLeaves.contains(over.group())) {
        continue;
      }
      overUsed.add(status);
      withGangs.add(List.copyOf(gangs.podsOf(over.group())));
      withoutGangs.add(List.copyOf(plain.podsOf(over.group())));
    }
    if (!overUsed.stream()
        .map(GroupStatus::name)
        .collect(Collectors.toSet())
        .containsAll(gangLeaves)) {
      throw new IllegalStateException("every gang leaf must be over-used");
    }
    long plainVictims = 0;
    for (int i = 0; i < overUsed.size(); i++) {
      final VictimPlan today = select(i, withoutGangs);
      if (!today.equals(PodByPodVictimChoice.select(overUsed.get(i), withoutGangs.get(i)))) {
        throw new IllegalStateException("without gangs the plans differ at " + overUsed.get(i));
      }
      plainVictims += today.victims().size();
    }
    System.out.printf(
        "%n%s: %d over-used groups, %d of them with %d gangs of %d pods; victims by gang %d, pod"
            + " by pod %d%n",
        scope,
        overUsed.size(),
        gangLeaves.size(),
        GANGS_PER_LEAF,
        GANG_SIZE,
        byGang(),
        plainVictims);
  }

  /** Leaves with a cpu max of at least one millicore per pod, not above the cluster's cpu. */
  private static Set<String> gangLeaves(final SyntheticCluster cluster) {
    final Set<String> leaves = new HashSet<>();
    final Map<String, QuotaGroup> groups =
        cluster.inputs().groups().stream()
            .collect(Collectors.toMap(QuotaGroup::name, Function.identity()));
    for (final SyntheticCluster.Leaf leaf : cluster.leaves()) {
      final long max = groups.get(leaf.name()).max().get(Dimensions.CPU);
      if (max >= GANGS_PER_LEAF * GANG_SIZE && max <= cluster.total().get(Dimensions.CPU)) {
        leaves.add(leaf.name());
      }
      if (leaves.size() == GANG_LEAVES) {
        return leaves;
      }
    }
    throw new IllegalStateException("not enough leaves for the gangs: " + leaves.size());
  }

  private static List<QuotaPod> gangPods(
      final SyntheticCluster cluster, final Set<String> gangLeaves) {
    final SplittableRandom random = new SplittableRandom(cluster.shape().seed());
    final List<QuotaPod> pods = new ArrayList<>();
    for (final QuotaGroup group : cluster.inputs().groups()) {
      if (!gangLeaves.contains(group.name())) {
        continue;
      }
      final int members = GANGS_PER_LEAF * GANG_SIZE;
      final long cpu = group.max().get(Dimensions.CPU) * 5 / 4 / members + 1;
      for (int g = 0; g < GANGS_PER_LEAF; g++) {
        final Gang gang = new Gang("gang-" + g, OptionalInt.of(GANG_SIZE), "scheduler-plugins");
        for (int m = 0; m < GANG_SIZE; m++) {
          pods.add(
              QuotaPod.builder(group.name(), "gang-" + g + "-" + m)
                  .quotaName(group.name())
                  .request(ResourceList.of(Dimensions.CPU, cpu))
                  .priority(random.nextInt(0, 1000))
                  .creationTime(Instant.EPOCH.plusSeconds(random.nextInt(0, 3600)))
                  .startTime(Instant.EPOCH.plusSeconds(3600 + random.nextInt(0, 3600)))
                  .running("gang-node-" + (pods.size() % 64))
                  .gang(gang)
                  .build());
        }
      }
    }
    return pods;
  }

  /** The cluster with its gang leaves' own pods replaced by {@code gangPods}, as {@code view}. */
  private static ClusterQuotaState state(
      final SyntheticCluster cluster,
      final Set<String> gangLeaves,
      final List<QuotaPod> gangPods,
      final Function<QuotaPod, QuotaPod> view) {
    final ClusterQuotaState state = new ClusterQuotaState(QuotaOptions.DEFAULTS);
    cluster.inputs().groups().forEach(state::putGroup);
    cluster.inputs().nodes().forEach(state::putNode);
    for (final QuotaPod pod : cluster.inputs().pods()) {
      if (!gangLeaves.contains(pod.quotaName().orElse(""))) {
        state.putPod(pod);
      }
    }
    gangPods.forEach(pod -> state.putPod(view.apply(pod)));
    state.recompute();
    return state;
  }

  private static QuotaPod withoutGang(final QuotaPod pod) {
    return new QuotaPod(
        pod.ref(),
        pod.uid(),
        pod.quotaName(),
        pod.phase(),
        pod.nodeName(),
        pod.priority(),
        pod.request(),
        pod.preemptible(),
        pod.creationTime(),
        pod.startTime(),
        pod.deletionTime(),
        pod.problems(),
        Optional.empty());
  }

  private VictimPlan select(final int group, final List<List<QuotaPod>> pods) {
    return VictimSelector.select(overUsed.get(group), pods.get(group), QuotaOptions.DEFAULTS);
  }

  /** Victims of every over-used group, gangs taken whole. */
  @Benchmark
  public int byGang() {
    int victims = 0;
    for (int i = 0; i < overUsed.size(); i++) {
      victims += select(i, withGangs).victims().size();
    }
    return victims;
  }

  /** The same pods without gangs, by today's selector: each pod its own unit. */
  @Benchmark
  public int withoutGangs() {
    int victims = 0;
    for (int i = 0; i < overUsed.size(); i++) {
      victims += select(i, withoutGangs).victims().size();
    }
    return victims;
  }

  /** The same pods without gangs, by the pod-by-pod algorithm of before gangs. */
  @Benchmark
  public int podByPodBeforeGangs() {
    int victims = 0;
    for (int i = 0; i < overUsed.size(); i++) {
      victims += PodByPodVictimChoice.select(overUsed.get(i), withoutGangs.get(i)).victims().size();
    }
    return victims;
  }
}
