package io.quotaflow.tree;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.QuotaPod;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * A cold start ({@link ClusterQuotaState#restore}, {@link QuotaCalculator#compute}) loads its
 * inputs in bulk, lays the tree out before any pod is charged, and builds statuses only when asked:
 * none of that may change a result. A restored state equals one fed the same inputs event by event,
 * now and after any later events (whose pod indexes it builds on first need); the snapshot a
 * computation hands out without emitting equals the one an emitting state gives.
 */
class ColdStartProperties {

  /**
   * Random options, with Koordinator's gates (parent pods, guaranteed usage) when {@code gates}.
   */
  private static QuotaOptions options(Random random, boolean gates) {
    return gates
        ? IncrementalEqualsFullProperties.randomOptionsWithGates(random)
        : IncrementalEqualsFullProperties.randomOptions(random);
  }

  @Property(tries = 200)
  void aRestoredStateBehavesLikeOneFedEventByEvent(
      @ForAll long seed, @ForAll @IntRange(min = 1, max = 12) int groups, @ForAll boolean gates) {
    final RandomClusters gen = new RandomClusters(seed, groups, true);
    final Random random = gen.random();
    final QuotaOptions options = options(random, gates);
    final ClusterInputs inputs = withRepeats(gen, random, groups);

    final ClusterQuotaState byEvents = new ClusterQuotaState(options);
    inputs.groups().forEach(byEvents::putGroup);
    inputs.pods().forEach(byEvents::putPod);
    inputs.nodes().forEach(byEvents::putNode);
    final ClusterQuotaState restored =
        ClusterQuotaState.restore(options, inputs, IncrementalEqualsFullProperties.emptySnapshot());

    TreeSnapshot previous = assertSameStep(byEvents, restored, options, emptySnapshot());
    for (int step = 0; step < 20; step++) {
      final long eventSeed = random.nextLong();
      final int events = 1 + random.nextInt(3);
      for (final ClusterQuotaState state : List.of(byEvents, restored)) {
        // The same events for both: one generator each, from the same seed.
        final RandomClusters events1 = new RandomClusters(eventSeed, groups, true);
        for (int e = 0; e < events; e++) {
          IncrementalEqualsFullProperties.randomEvent(events1, events1.random(), state, groups);
        }
      }
      previous = assertSameStep(byEvents, restored, options, previous);
    }
  }

  @Property(tries = 200)
  void aComputationsSnapshotEqualsTheOneAnEmittingStateGives(
      @ForAll long seed, @ForAll @IntRange(min = 1, max = 12) int groups, @ForAll boolean gates) {
    final RandomClusters gen = new RandomClusters(seed, groups, true);
    final Random random = gen.random();
    final QuotaOptions options = options(random, gates);
    // The previous result of other inputs: invalid groups keep runtimes from it, groups and pods
    // gone since are reported removed.
    final TreeSnapshot previous =
        QuotaCalculator.compute(withRepeats(gen, random, groups), options);
    final ClusterInputs inputs = withRepeats(gen, random, groups);

    final ClusterQuotaState emitting = ClusterQuotaState.restore(options, inputs, previous);
    final TreeDelta delta = emitting.recompute();
    final TreeSnapshot computed = QuotaCalculator.compute(inputs, options, previous);

    assertThat(computed.total()).isEqualTo(emitting.snapshot().total());
    assertThat(computed.groups()).containsExactlyElementsOf(emitting.snapshot().groups());
    assertThat(computed.pods()).containsExactlyElementsOf(emitting.snapshot().pods());
    assertThat(computed).isEqualTo(emitting.snapshot());
    IncrementalEqualsFullProperties.assertDeltaIsTheDifference(previous, computed, delta);
  }

  /**
   * Random inputs, shuffled, with some groups and pods given twice (the later one counts) and some
   * groups left out: their pods wait elsewhere (default group, namespace group) until an event
   * brings the group, which then has to find them.
   */
  private static ClusterInputs withRepeats(RandomClusters gen, Random random, int groups) {
    final ClusterInputs base = gen.cluster(groups, random.nextInt(25), 1 + random.nextInt(3));
    final List<QuotaGroup> groupList = new ArrayList<>(base.groups());
    groupList.removeIf(group -> random.nextInt(4) == 0);
    final List<QuotaPod> podList = new ArrayList<>(base.pods());
    Collections.shuffle(groupList, random);
    Collections.shuffle(podList, random);
    if (random.nextInt(3) == 0) {
      groupList.add(gen.group(gen.anyGroupName()));
    }
    if (!podList.isEmpty() && random.nextInt(3) == 0) {
      final QuotaPod again = podList.get(random.nextInt(podList.size()));
      podList.add(random.nextBoolean() ? again : gen.pod(again.ref().name()));
    }
    return new ClusterInputs(groupList, podList, base.nodes());
  }

  /**
   * Recomputes both states: the same delta, the same snapshot, and that snapshot is the full
   * computation of the inputs (with {@code previous}, the last one). Returns the snapshot.
   */
  private static TreeSnapshot assertSameStep(
      ClusterQuotaState expected,
      ClusterQuotaState actual,
      QuotaOptions options,
      TreeSnapshot previous) {
    final TreeDelta expectedDelta = expected.recompute();
    final TreeDelta actualDelta = actual.recompute();
    assertThat(actualDelta).isEqualTo(expectedDelta);
    assertThat(actual.snapshot()).isEqualTo(expected.snapshot());
    assertThat(actual.chargedGroups()).isEqualTo(expected.chargedGroups());
    final TreeSnapshot full = QuotaCalculator.compute(actual.inputs(), options, previous);
    assertThat(actual.snapshot()).isEqualTo(full);
    return full;
  }

  private static TreeSnapshot emptySnapshot() {
    return IncrementalEqualsFullProperties.emptySnapshot();
  }
}
