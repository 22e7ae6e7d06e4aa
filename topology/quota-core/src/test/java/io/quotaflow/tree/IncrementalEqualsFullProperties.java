package io.quotaflow.tree;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.tree.QuotaOptions.DefaultWeightPolicy;
import io.quotaflow.tree.QuotaOptions.UsedPolicy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * The incremental state always equals a full recomputation on the same inputs, and each delta is
 * exactly the difference between consecutive snapshots.
 */
class IncrementalEqualsFullProperties {

  @Property(tries = 200)
  void incrementalRecomputationEqualsFullRecomputationAfterRandomEvents(
      @ForAll long seed, @ForAll @IntRange(min = 1, max = 12) int groups) {
    final RandomClusters gen = new RandomClusters(seed, groups, true);
    final Random random = gen.random();
    checkRandomEvents(gen, random, groups, randomOptions(random));
  }

  /**
   * The same with Koordinator's gates (docs/semantics.md sections 17 and 18) switched at random.
   */
  @Property(tries = 200)
  void incrementalRecomputationEqualsFullRecomputationWithKoordinatorsGates(
      @ForAll long seed, @ForAll @IntRange(min = 1, max = 12) int groups) {
    final RandomClusters gen = new RandomClusters(seed, groups, true);
    final Random random = gen.random();
    checkRandomEvents(gen, random, groups, randomOptionsWithGates(random));
  }

  private static void checkRandomEvents(
      RandomClusters gen, Random random, int groups, QuotaOptions options) {
    final ClusterQuotaState state = new ClusterQuotaState(options);
    final ClusterInputs initial = gen.cluster(groups, random.nextInt(25), 1 + random.nextInt(3));
    initial.groups().forEach(state::putGroup);
    initial.pods().forEach(state::putPod);
    initial.nodes().forEach(state::putNode);
    TreeSnapshot previous = emptySnapshot();
    previous = checkRecompute(state, options, previous);
    for (int step = 0; step < 30; step++) {
      final int events = 1 + random.nextInt(3);
      for (int e = 0; e < events; e++) {
        randomEvent(gen, random, state, groups);
      }
      previous = checkRecompute(state, options, previous);
    }
  }

  /** {@link #randomOptions} with guaranteed usage and parent pods each on or off. */
  static QuotaOptions randomOptionsWithGates(Random random) {
    return randomOptions(random)
        .withGuaranteeUsage(random.nextBoolean())
        .withParentPods(random.nextBoolean());
  }

  static QuotaOptions randomOptions(Random random) {
    QuotaOptions options =
        QuotaOptions.DEFAULTS
            .withMinScaling(random.nextInt(4) > 0)
            .withDefaultWeight(
                random.nextBoolean() ? DefaultWeightPolicy.MAX : DefaultWeightPolicy.MIN)
            .withUsedPolicy(random.nextBoolean() ? UsedPolicy.BOUND : UsedPolicy.RUNNING)
            .withCountTerminatingPods(random.nextBoolean())
            .withOnlyReadySchedulableNodes(random.nextBoolean());
    if (random.nextBoolean()) {
      options =
          options.withDerivedResources(
              List.of(
                  new QuotaOptions.DerivedResourceRule(
                      "nvidia.com/gpu", "quotaflow.io/gpu-memory", 32)));
    }
    if (random.nextBoolean()) {
      options = options.withDefaultGroupMax(Fixtures.cpu(random.nextInt(50)));
    }
    return options;
  }

  static TreeSnapshot emptySnapshot() {
    return new TreeSnapshot(io.quotaflow.quota.ResourceList.empty(), List.of(), List.of());
  }

  private static void randomEvent(
      RandomClusters gen, Random random, ClusterQuotaState state, int groups) {
    switch (random.nextInt(10)) {
      case 0, 1 -> state.putGroup(gen.group(gen.groupName(random.nextInt(groups))));
      case 2 -> state.removeGroup(gen.anyGroupName());
      case 3, 4, 5 -> state.putPod(gen.pod("pod-" + random.nextInt(30)));
      case 6 -> state.removePod(new PodRef("ns-" + random.nextInt(4), "pod-" + random.nextInt(30)));
      case 7 -> {
        final List<PodRef> refs = new ArrayList<>();
        state.inputs().pods().forEach(p -> refs.add(p.ref()));
        if (!refs.isEmpty()) {
          refs.sort(null);
          final PodRef ref = refs.get(random.nextInt(refs.size()));
          state.putPod(
              state.inputs().pods().stream()
                  .filter(p -> p.ref().equals(ref))
                  .findFirst()
                  .orElseThrow()
                  .toBuilder()
                  .running("node-1")
                  .build());
        }
      }
      case 8 -> state.putNode(gen.node("node-" + random.nextInt(3)));
      default -> state.removeNode("node-" + random.nextInt(3));
    }
  }

  private static TreeSnapshot checkRecompute(
      ClusterQuotaState state, QuotaOptions options, TreeSnapshot previous) {
    final TreeDelta delta = state.recompute();
    final TreeSnapshot incremental = state.snapshot();
    final TreeSnapshot full = QuotaCalculator.compute(state.inputs(), options, previous);
    assertThat(incremental).isEqualTo(full);
    assertDeltaIsTheDifference(previous, incremental, delta);
    return incremental;
  }

  static void assertDeltaIsTheDifference(TreeSnapshot before, TreeSnapshot after, TreeDelta delta) {
    final Map<String, GroupStatus> old = new HashMap<>();
    before.groups().forEach(g -> old.put(g.name(), g));
    final List<GroupStatus> expectedChanged = new ArrayList<>();
    final List<String> expectedRemoved = new ArrayList<>();
    for (final GroupStatus status : after.groups()) {
      if (!status.equals(old.remove(status.name()))) {
        expectedChanged.add(status);
      }
    }
    expectedRemoved.addAll(old.keySet());
    expectedRemoved.sort(null);
    if (before.groups().isEmpty()) {
      // The first recomputation reports everything, including the root.
      assertThat(delta.changedGroups()).containsExactlyElementsOf(after.groups());
    } else {
      assertThat(delta.changedGroups()).containsExactlyElementsOf(expectedChanged);
    }
    assertThat(delta.removedGroups()).containsExactlyElementsOf(expectedRemoved);
    assertThat(delta.changedGroups()).extracting(GroupStatus::name).doesNotHaveDuplicates();

    final Map<PodRef, PodAssignment> oldPods = new HashMap<>();
    before.pods().forEach(p -> oldPods.put(p.ref(), p));
    final List<PodAssignment> changedPods = new ArrayList<>();
    for (final PodAssignment pod : after.pods()) {
      if (!pod.equals(oldPods.remove(pod.ref()))) {
        changedPods.add(pod);
      }
    }
    final List<PodRef> removedPods = new ArrayList<>(oldPods.keySet());
    removedPods.sort(null);
    assertThat(delta.changedPods()).containsExactlyElementsOf(changedPods);
    assertThat(delta.removedPods()).containsExactlyElementsOf(removedPods);
    assertThat(after.group(SpecialGroups.ROOT)).isPresent();
  }
}
