package io.quotaflow.tree;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.QuotaNode;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecialGroups;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/** Invariants of whole-tree results on random clusters (SPEC 6, 7). */
class TreeInvariantProperties {

  @Property(tries = 200)
  void noRuntimeExceedsTheLimitedRequest(
      @ForAll long seed, @ForAll @IntRange(min = 1, max = 14) int groups) {
    final RandomClusters gen = new RandomClusters(seed, groups, true);
    final QuotaOptions options = IncrementalEqualsFullProperties.randomOptions(gen.random());
    final TreeSnapshot snapshot = QuotaCalculator.compute(gen.cluster(groups, 30, 2), options);
    for (final GroupStatus status : snapshot.groups()) {
      if (!status.valid() || SpecialGroups.isSpecial(status.name())) {
        continue;
      }
      for (final String dimension : status.runtime().names()) {
        assertThat(status.runtime().get(dimension))
            .as("%s %s", status.name(), dimension)
            .isLessThanOrEqualTo(status.limitedRequest().get(dimension));
      }
    }
  }

  @Property(tries = 200)
  void withMinScalingChildrenNeverSumAboveWhatTheirParentDistributes(
      @ForAll long seed, @ForAll @IntRange(min = 1, max = 14) int groups) {
    final RandomClusters gen = new RandomClusters(seed, groups, true);
    final QuotaOptions options =
        IncrementalEqualsFullProperties.randomOptions(gen.random()).withMinScaling(true);
    final TreeSnapshot snapshot = QuotaCalculator.compute(gen.cluster(groups, 30, 2), options);
    final Map<String, List<GroupStatus>> children = new HashMap<>();
    for (final GroupStatus status : snapshot.groups()) {
      if (status.valid() && !SpecialGroups.isSpecial(status.name())) {
        children.computeIfAbsent(status.parent(), p -> new ArrayList<>()).add(status);
      }
    }
    for (final GroupStatus parent : snapshot.groups()) {
      if (!parent.valid() || !children.containsKey(parent.name())) {
        continue;
      }
      for (final String dimension : parent.runtime().names()) {
        BigInteger sum = BigInteger.ZERO;
        for (final GroupStatus child : children.get(parent.name())) {
          sum = sum.add(BigInteger.valueOf(child.runtime().get(dimension)));
        }
        assertThat(sum)
            .as("children of %s in %s", parent.name(), dimension)
            .isLessThanOrEqualTo(BigInteger.valueOf(parent.runtime().get(dimension)));
      }
    }
  }

  @Property(tries = 200)
  void resultsDoNotDependOnInputOrder(
      @ForAll long seed, @ForAll @IntRange(min = 1, max = 14) int groups) {
    final RandomClusters gen = new RandomClusters(seed, groups, true);
    final Random random = gen.random();
    final QuotaOptions options = IncrementalEqualsFullProperties.randomOptions(random);
    final ClusterInputs inputs = gen.cluster(groups, 30, 3);
    final List<QuotaGroup> groupList = new ArrayList<>(inputs.groups());
    final List<QuotaPod> podList = new ArrayList<>(inputs.pods());
    final List<QuotaNode> nodeList = new ArrayList<>(inputs.nodes());
    Collections.shuffle(groupList, random);
    Collections.shuffle(podList, random);
    Collections.shuffle(nodeList, random);
    assertThat(QuotaCalculator.compute(new ClusterInputs(groupList, podList, nodeList), options))
        .isEqualTo(QuotaCalculator.compute(inputs, options));
  }

  /**
   * Among first-level groups (whose parent, the root, distributes a fixed amount), one group's new
   * pod never raises a sibling's runtime beyond the integer split's rounding: one unit per sibling
   * at most (see docs/semantics.md, "rounding").
   */
  @Property(tries = 200)
  void raisingOneGroupsRequestNeverRaisesASiblingsRuntimeBeyondRounding(
      @ForAll long seed, @ForAll @IntRange(min = 2, max = 10) int groups) {
    final RandomClusters gen = new RandomClusters(seed, groups, false);
    final Random random = gen.random();
    final QuotaOptions options = IncrementalEqualsFullProperties.randomOptions(random);
    final ClusterInputs inputs = gen.cluster(groups, 25, 2);
    final TreeSnapshot before = QuotaCalculator.compute(inputs, options);
    final String target = gen.groupName(random.nextInt(groups));
    final List<QuotaPod> pods = new ArrayList<>(inputs.pods());
    pods.add(
        QuotaPod.builder("extra", "extra-pod")
            .quotaName(target)
            .request(
                ResourceList.of(
                    "cpu", (long) 1 + random.nextInt(40),
                    "memory", (long) random.nextInt(40),
                    "nvidia.com/gpu", (long) random.nextInt(40)))
            .build());
    final TreeSnapshot after =
        QuotaCalculator.compute(new ClusterInputs(inputs.groups(), pods, inputs.nodes()), options);
    final GroupStatus targetStatus = Fixtures.status(after, target);
    if (!targetStatus.valid()
        || targetStatus.parentGroup()
        || !targetStatus.parent().equals(SpecialGroups.ROOT)) {
      return;
    }
    final List<GroupStatus> siblings = new ArrayList<>();
    for (final GroupStatus status : after.groups()) {
      if (!status.name().equals(target)
          && status.parent().equals(SpecialGroups.ROOT)
          && status.valid()
          && !SpecialGroups.isSpecial(status.name())) {
        siblings.add(status);
      }
    }
    for (final GroupStatus sibling : siblings) {
      final GroupStatus old = Fixtures.status(before, sibling.name());
      for (final String dimension : sibling.runtime().names()) {
        assertThat(sibling.runtime().get(dimension))
            .as("sibling %s of %s in %s", sibling.name(), target, dimension)
            .isLessThanOrEqualTo(Arith.add(old.runtime().get(dimension), siblings.size()));
      }
    }
  }
}
