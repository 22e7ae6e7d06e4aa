package io.quotaflow.tree;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.fairshare.MemoryWeights;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecialGroups;
import java.math.BigInteger;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * Invariants of fair share with memory (docs/semantics.md section 24): only the split among
 * borrowers moves; mins, limited requests and the sum handed out are kept; without past use the
 * results are today's, bit for bit; more past use never brings more surplus.
 */
class FairShareMemoryProperties {

  /** A random decayed average borrowed: none, small, or close to the largest amounts. */
  private static long pastUse(Random random) {
    return switch (random.nextInt(4)) {
      case 0 -> 0L;
      case 1 -> random.nextInt(200);
      case 2 -> Long.MAX_VALUE / (1 + random.nextInt(8));
      default -> random.nextInt(20);
    };
  }

  private static long[][] runWith(WaterFillProperties.Case c, long[] weight) {
    final long[] scaled = new long[c.n()];
    final long[] runtime = new long[c.n()];
    new WaterFill()
        .distribute(
            c.available(),
            c.unbounded(),
            c.n(),
            c.request(),
            c.min(),
            weight,
            c.scaling(),
            scaled,
            runtime);
    return new long[][] {scaled, runtime};
  }

  private static long[] effectiveWeights(WaterFillProperties.Case c, long[] past) {
    final long[] weight = c.weight().clone();
    final long[] factor = new long[c.n()];
    for (int i = 0; i < c.n(); i++) {
      factor[i] = MemoryWeights.factor(c.available(), past[i]);
    }
    MemoryWeights.apply(c.n(), weight, factor);
    return weight;
  }

  private static long[] randomPast(Random random, int n) {
    final long[] past = new long[n];
    for (int i = 0; i < n; i++) {
      past[i] = pastUse(random);
    }
    return past;
  }

  @Property(tries = 500)
  void minsAreGuaranteedMaxesRespectedAndTheSumConservedInEverySplit(
      @ForAll long seed, @ForAll @IntRange(min = 1, max = 9) int n) {
    final WaterFillProperties.Case c = WaterFillProperties.randomCase(seed, n);
    final long[] past = randomPast(new Random(seed ^ 0x5DEECE66DL), n);
    final long[][] plain = WaterFillProperties.run(c);
    final long[][] remembered = runWith(c, effectiveWeights(c, past));
    assertThat(remembered[0]).as("scaled mins").containsExactly(plain[0]);
    BigInteger plainSum = BigInteger.ZERO;
    BigInteger rememberedSum = BigInteger.ZERO;
    for (int i = 0; i < n; i++) {
      assertThat(remembered[1][i])
          .as("runtime %d within [min(request, scaled min), request]", i)
          .isGreaterThanOrEqualTo(Math.min(c.request()[i], remembered[0][i]))
          .isLessThanOrEqualTo(Math.max(c.request()[i], Math.min(c.request()[i], plain[0][i])));
      plainSum = plainSum.add(BigInteger.valueOf(plain[1][i]));
      rememberedSum = rememberedSum.add(BigInteger.valueOf(remembered[1][i]));
    }
    assertThat(rememberedSum).as("what the parent hands out").isEqualTo(plainSum);
  }

  @Property(tries = 500)
  void withoutPastUseEverySplitIsTodays(
      @ForAll long seed, @ForAll @IntRange(min = 1, max = 9) int n) {
    final WaterFillProperties.Case c = WaterFillProperties.randomCase(seed, n);
    final long[][] plain = WaterFillProperties.run(c);
    final long[][] remembered = runWith(c, effectiveWeights(c, new long[n]));
    assertThat(remembered[0]).containsExactly(plain[0]);
    assertThat(remembered[1]).containsExactly(plain[1]);
  }

  /**
   * Two borrowers alike in everything but past use: the one with more never gets more than the
   * other beyond the largest-remainder rounding: one unit per round, and a split has at most one
   * round per borrower (each round but the last fills one), so one unit per sibling, the allowance
   * of section 6's caveat. (Equal weights break ties by name, so even without memory the earlier
   * name can lead by a unit per round.)
   */
  @Property(tries = 3000)
  void morePastUseNeverBringsMoreSurplusThanAnOtherwiseIdenticalSibling(
      @ForAll long seed, @ForAll @IntRange(min = 2, max = 9) int n) {
    final WaterFillProperties.Case random = WaterFillProperties.randomCase(seed, n);
    final Random pick = new Random(seed * 31 + n);
    final int a = pick.nextInt(n);
    int b = pick.nextInt(n - 1);
    b = b >= a ? b + 1 : b;
    final long[] request = random.request().clone();
    final long[] min = random.min().clone();
    final long[] weight = random.weight().clone();
    request[b] = request[a];
    min[b] = min[a];
    weight[b] = weight[a];
    final WaterFillProperties.Case c =
        new WaterFillProperties.Case(
            random.available(), random.unbounded(), request, min, weight, random.scaling());
    final long[] past = randomPast(pick, n);
    if (past[a] < past[b]) {
      final long swap = past[a];
      past[a] = past[b];
      past[b] = swap;
    }
    final long[][] remembered = runWith(c, effectiveWeights(c, past));
    assertThat(remembered[1][a])
        .as("%s with past use %d against %d", c, past[a], past[b])
        .isLessThanOrEqualTo(Arith.add(remembered[1][b], n));
  }

  @Property(tries = 200)
  void zeroPastUseGivesTodaysTreeBitForBit(
      @ForAll long seed, @ForAll @IntRange(min = 1, max = 14) int groups) {
    final RandomClusters gen = new RandomClusters(seed, groups, true);
    final QuotaOptions options = IncrementalEqualsFullProperties.randomOptions(gen.random());
    final ClusterInputs inputs = gen.cluster(groups, 30, 2);
    final TreeSnapshot today = QuotaCalculator.compute(inputs, options);
    final ClusterQuotaState state = stateOf(inputs, options);
    final Map<String, ResourceList> past = randomPast(gen, inputs);
    past.forEach(state::putPastUsage);
    state.recompute();
    // Every group's past use falls back to zero: the tree is today's again, bit for bit.
    past.keySet().forEach(group -> state.putPastUsage(group, zeros(past.get(group))));
    state.recompute();
    assertThat(state.snapshot()).isEqualTo(today);
  }

  @Property(tries = 200)
  void pastUseGivenLaterEqualsPastUseGivenFromTheStart(
      @ForAll long seed, @ForAll @IntRange(min = 1, max = 14) int groups) {
    final RandomClusters gen = new RandomClusters(seed, groups, true);
    final QuotaOptions options = IncrementalEqualsFullProperties.randomOptions(gen.random());
    final ClusterInputs inputs = gen.cluster(groups, 30, 2);
    final Map<String, ResourceList> past = randomPast(gen, inputs);
    final ClusterQuotaState later = stateOf(inputs, options);
    past.forEach(later::putPastUsage);
    later.recompute();
    final ClusterQuotaState fromStart =
        ClusterQuotaState.restore(
            options,
            inputs,
            new TreeSnapshot(ResourceList.empty(), java.util.List.of(), java.util.List.of()));
    past.forEach(fromStart::putPastUsage);
    fromStart.recompute();
    assertThat(later.snapshot()).isEqualTo(fromStart.snapshot());
    assertThat(later.recomputeAll().isEmpty()).as("nothing left to recompute").isTrue();
  }

  @Property(tries = 200)
  void inWholeTreesNoRuntimeExceedsTheLimitedRequestAndTheRootHandsOutTheSame(
      @ForAll long seed, @ForAll @IntRange(min = 1, max = 14) int groups) {
    final RandomClusters gen = new RandomClusters(seed, groups, true);
    final QuotaOptions options = IncrementalEqualsFullProperties.randomOptions(gen.random());
    final ClusterInputs inputs = gen.cluster(groups, 30, 2);
    final TreeSnapshot today = QuotaCalculator.compute(inputs, options);
    final ClusterQuotaState state = stateOf(inputs, options);
    randomPast(gen, inputs).forEach(state::putPastUsage);
    state.recompute();
    final TreeSnapshot remembered = state.snapshot();
    for (final GroupStatus status : remembered.groups()) {
      if (!status.valid() || SpecialGroups.isSpecial(status.name())) {
        continue;
      }
      for (final String dimension : status.runtime().names()) {
        assertThat(status.runtime().get(dimension))
            .as("%s %s", status.name(), dimension)
            .isLessThanOrEqualTo(status.limitedRequest().get(dimension));
        if (status.parent().equals(SpecialGroups.ROOT) && options.minScaling()) {
          assertThat(status.runtime().get(dimension))
              .as("%s %s keeps its scaled min", status.name(), dimension)
              .isGreaterThanOrEqualTo(
                  Math.min(
                      status.scaledMin().get(dimension), status.limitedRequest().get(dimension)));
        }
      }
    }
    for (final String dimension : RandomClusters.DIMS) {
      assertThat(firstLevelSum(remembered, dimension))
          .as("the root's children in %s", dimension)
          .isEqualTo(firstLevelSum(today, dimension));
    }
  }

  private static BigInteger firstLevelSum(TreeSnapshot snapshot, String dimension) {
    BigInteger sum = BigInteger.ZERO;
    for (final GroupStatus status : snapshot.groups()) {
      if (status.valid()
          && status.parent().equals(SpecialGroups.ROOT)
          && !SpecialGroups.isSpecial(status.name())
          && status.trackedDimensions().contains(dimension)) {
        sum = sum.add(BigInteger.valueOf(status.runtime().get(dimension)));
      }
    }
    return sum;
  }

  private static ClusterQuotaState stateOf(ClusterInputs inputs, QuotaOptions options) {
    final ClusterQuotaState state =
        ClusterQuotaState.restore(
            options,
            inputs,
            new TreeSnapshot(ResourceList.empty(), java.util.List.of(), java.util.List.of()));
    state.recompute();
    return state;
  }

  private static Map<String, ResourceList> randomPast(RandomClusters gen, ClusterInputs inputs) {
    final Map<String, ResourceList> past = new HashMap<>();
    for (final QuotaGroup group : inputs.groups()) {
      final ResourceList.Builder builder = ResourceList.builder();
      for (final String dimension : RandomClusters.DIMS) {
        if (gen.random().nextBoolean()) {
          builder.put(dimension, pastUse(gen.random()));
        }
      }
      past.put(group.name(), builder.build());
    }
    return past;
  }

  private static ResourceList zeros(ResourceList list) {
    final ResourceList.Builder builder = ResourceList.builder();
    list.names().forEach(name -> builder.put(name, 0L));
    return builder.build();
  }
}
