package io.quotaflow.tree;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.explain.ExplanationText;
import io.quotaflow.explain.RuntimeExplanation;
import io.quotaflow.explain.RuntimeExplanation.Level;
import io.quotaflow.explain.RuntimeExplanation.Participant;
import io.quotaflow.explain.RuntimeExplanation.Round;
import io.quotaflow.explain.RuntimeExplanation.Share;
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

    for (final GroupStatus status : state.snapshot().groups()) {
      for (final String resource : status.trackedDimensions()) {
        final RuntimeExplanation explanation =
            explainer.explain(status.name(), resource).orElseThrow();
        assertThat(explanation.runtime()).isEqualTo(status.runtime().get(resource));
        assertThat(explanation.notes()).noneMatch(note -> note.contains("differs"));
        assertThat(ExplanationText.of(explanation)).isNotBlank();
        if (!status.valid() || SpecialGroups.isSpecial(status.name())) {
          assertThat(explanation.levels()).isEmpty();
          continue;
        }
        if (explanation.levels().isEmpty()) {
          continue;
        }
        assertThat(recompute(explanation, options))
            .as("%s %s", status.name(), resource)
            .isEqualTo(status.runtime().get(resource));
      }
    }
  }

  /** The runtime the explanation's numbers give, checking every step on the way. */
  private static long recompute(RuntimeExplanation explanation, QuotaOptions options) {
    long handedDown = -1;
    for (final Level level : explanation.levels()) {
      if (handedDown >= 0) {
        assertThat(level.available()).isEqualTo(handedDown);
      }
      long minSum = 0;
      long started = 0;
      for (final Participant p : level.participants()) {
        minSum += p.min();
      }
      for (final Participant p : level.participants()) {
        final long scaled =
            level.minsScaled()
                ? BigInteger.valueOf(level.available())
                    .multiply(BigInteger.valueOf(p.min()))
                    .divide(BigInteger.valueOf(minSum))
                    .longValueExact()
                : p.min();
        assertThat(p.scaledMin()).isEqualTo(scaled);
        final long floor = options.guaranteeUsage() ? Math.max(scaled, p.guaranteed()) : scaled;
        final long start = options.guaranteeUsage() ? floor : Math.min(p.limitedRequest(), floor);
        assertThat(p.start()).isEqualTo(start);
        assertThat(p.borrows()).isEqualTo(p.limitedRequest() > floor && p.weight() > 0);
        started += start;
      }
      assertThat(level.minsScaled())
          .isEqualTo(options.minScaling() && !level.unbounded() && minSum > level.available());
      final Map<String, Long> runtime = new HashMap<>();
      level.participants().forEach(p -> runtime.put(p.name(), p.start()));
      if (level.unbounded() || level.allFit()) {
        assertThat(level.rounds()).isEmpty();
        level.participants().stream()
            .filter(Participant::borrows)
            .forEach(p -> runtime.put(p.name(), p.limitedRequest()));
      } else {
        assertThat(level.surplus()).isEqualTo(Math.max(0L, level.available() - started));
        long left = level.surplus();
        for (final Round round : level.rounds()) {
          assertThat(round.left()).isEqualTo(left);
          long weights = 0;
          long shares = 0;
          long returned = 0;
          for (final Share share : round.shares()) {
            weights += share.weight();
          }
          for (final Share share : round.shares()) {
            final long quotient =
                BigInteger.valueOf(share.weight())
                    .multiply(BigInteger.valueOf(round.left()))
                    .divide(BigInteger.valueOf(weights))
                    .longValueExact();
            assertThat(share.quotient()).isEqualTo(quotient);
            assertThat(share.share() - share.quotient()).isBetween(0L, 1L);
            final Participant p = level.participant(share.name()).orElseThrow();
            final long before = runtime.get(share.name());
            final long given = Math.min(share.share(), p.limitedRequest() - before);
            assertThat(share.given()).isEqualTo(given);
            assertThat(share.capped()).isEqualTo(before + given >= p.limitedRequest());
            runtime.put(share.name(), before + given);
            shares += share.share();
            returned += share.share() - given;
          }
          assertThat(shares).isEqualTo(round.left());
          assertThat(round.handedBack()).isEqualTo(returned);
          left = returned;
        }
      }
      for (final Participant p : level.participants()) {
        assertThat(runtime.get(p.name())).as(p.name()).isEqualTo(p.runtime());
      }
      handedDown = runtime.get(level.member());
    }
    return handedDown;
  }
}
