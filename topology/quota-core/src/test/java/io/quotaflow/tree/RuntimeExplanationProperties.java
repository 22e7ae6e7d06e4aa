package io.quotaflow.tree;

import io.quotaflow.quota.ResourceList;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * The explanation cannot drift from the computation (issue 27): for random trees, every group and
 * resource, the steps it lists recompute, with nothing but their own numbers, exactly the runtime
 * the core returns: scaled mins, starts, every round's shares and leftover units, what each took
 * and handed back, and each level's result as the next level's amount.
 */
class RuntimeExplanationProperties {

  @Property(tries = 300)
  void theStepsRecomputeTheRuntimeOfEveryGroup(
      @ForAll long seed, @ForAll @IntRange(min = 1, max = 14) int groups) {
    final RandomClusters gen = new RandomClusters(seed, groups, true);
    final Random random = gen.random();
    final QuotaOptions options = IncrementalEqualsFullProperties.randomOptionsWithGates(random);
    final ClusterInputs inputs = gen.cluster(groups, random.nextInt(30), 1 + random.nextInt(3));
    final ClusterQuotaState state =
        ClusterQuotaState.restore(options, inputs, IncrementalEqualsFullProperties.emptySnapshot());
    state.recompute();
    final Map<String, ResourceList> own = new HashMap<>();
    for (final GroupStatus status : state.snapshot().groups()) {
      state.ownRequest(status.name()).ifPresent(request -> own.put(status.name(), request));
    }
    final RuntimeExplainer explainer =
        new RuntimeExplainer(WhatIfInputs.of(state.snapshot(), inputs.groups(), own), options);

    ExplanationCheck.verifyAll(state.snapshot(), explainer, options);
  }
}
