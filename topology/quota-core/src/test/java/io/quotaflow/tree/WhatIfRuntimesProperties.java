package io.quotaflow.tree;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.quota.PodPhase;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecialGroups;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * The what-if along the ancestor path equals a full recomputation after a pending pod is added to
 * the group, for the group and every ancestor below the root, whichever way the inputs are read.
 */
class WhatIfRuntimesProperties {

  @Property(tries = 400)
  void whatIfEqualsRecomputationAfterAddingAPendingPod(
      @ForAll long seed, @ForAll @IntRange(min = 1, max = 12) int groups) {
    final RandomClusters gen = new RandomClusters(seed, groups, true);
    final Random random = gen.random();
    checkWhatIf(gen, random, groups, IncrementalEqualsFullProperties.randomOptions(random));
  }

  /**
   * The same with Koordinator's gates switched at random (docs/semantics.md sections 17 and 18):
   * with parent pods on, the pending pod may go to a parent group.
   */
  @Property(tries = 400)
  void whatIfEqualsRecomputationWithKoordinatorsGates(
      @ForAll long seed, @ForAll @IntRange(min = 1, max = 12) int groups) {
    final RandomClusters gen = new RandomClusters(seed, groups, true);
    final Random random = gen.random();
    checkWhatIf(
        gen, random, groups, IncrementalEqualsFullProperties.randomOptionsWithGates(random));
  }

  private static void checkWhatIf(
      RandomClusters gen, Random random, int groups, QuotaOptions options) {
    final ClusterInputs inputs = gen.cluster(groups, random.nextInt(30), 1 + random.nextInt(3));
    final ClusterQuotaState state =
        ClusterQuotaState.restore(options, inputs, IncrementalEqualsFullProperties.emptySnapshot());
    state.recompute();
    final List<String> leaves = new ArrayList<>();
    for (final GroupStatus status : state.snapshot().groups()) {
      if ((!status.parentGroup() || options.parentPods())
          && !SpecialGroups.isSpecial(status.name())
          && !SpecialGroups.ROOT.equals(status.name())) {
        leaves.add(status.name());
      }
    }
    Assume.that(!leaves.isEmpty());
    final String group = leaves.get(random.nextInt(leaves.size()));
    final QuotaPod pod = pendingPod(gen, random, group);
    final ResourceList extra = PodAccounting.effectiveRequest(pod, options);
    final Map<String, ResourceList> fromState = state.whatIfRuntimes(group, extra);
    final Map<String, ResourceList> fromSnapshot =
        WhatIfRuntimes.compute(
            WhatIfInputs.of(state.snapshot(), inputs.groups(), ownRequests(state)),
            group,
            extra,
            options);

    state.putPod(pod);
    state.recompute();

    assertThat(fromSnapshot).isEqualTo(fromState);
    assertThat(fromState).isNotEmpty();
    final Map<String, ResourceList> recomputed = new TreeMap<>();
    fromState.keySet().forEach(name -> recomputed.put(name, state.group(name).get().runtime()));
    assertThat(new TreeMap<>(fromState)).isEqualTo(recomputed);
  }

  @Property(tries = 200)
  void nothingExtraChangesNothing(
      @ForAll long seed, @ForAll @IntRange(min = 1, max = 12) int groups) {
    final RandomClusters gen = new RandomClusters(seed, groups, true);
    final Random random = gen.random();
    final QuotaOptions options = IncrementalEqualsFullProperties.randomOptions(random);
    final ClusterQuotaState state =
        ClusterQuotaState.restore(
            options,
            gen.cluster(groups, random.nextInt(30), 1 + random.nextInt(3)),
            IncrementalEqualsFullProperties.emptySnapshot());
    state.recompute();
    final String group = gen.groupName(random.nextInt(groups));

    final Map<String, ResourceList> zero =
        state.whatIfRuntimes(group, ResourceList.of("cpu", 0, "memory", 0));

    zero.forEach(
        (name, runtime) -> assertThat(runtime).isEqualTo(state.group(name).get().runtime()));
  }

  private static QuotaPod pendingPod(RandomClusters gen, Random random, String group) {
    final Map<String, Long> request = new TreeMap<>();
    for (final String dim : RandomClusters.DIMS) {
      if (random.nextInt(4) > 0) {
        request.put(dim, gen.amount(40));
      }
    }
    // In the group's own namespace, so that its label is honoured (RandomClusters binds it).
    return QuotaPod.builder("ns-" + group, "pending")
        .quotaName(group)
        .phase(PodPhase.PENDING)
        .request(ResourceList.of(request))
        .build();
  }

  private static Map<String, ResourceList> ownRequests(ClusterQuotaState state) {
    final Map<String, ResourceList> own = new HashMap<>();
    for (final GroupStatus status : state.snapshot().groups()) {
      state.ownRequest(status.name()).ifPresent(request -> own.put(status.name(), request));
    }
    return own;
  }
}
