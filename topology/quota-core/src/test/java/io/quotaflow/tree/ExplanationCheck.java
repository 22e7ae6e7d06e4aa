package io.quotaflow.tree;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.explain.ExplanationText;
import io.quotaflow.explain.RuntimeExplanation;
import io.quotaflow.explain.RuntimeExplanation.Level;
import io.quotaflow.explain.RuntimeExplanation.Participant;
import io.quotaflow.explain.RuntimeExplanation.Round;
import io.quotaflow.explain.RuntimeExplanation.Share;
import io.quotaflow.quota.SpecialGroups;
import java.math.BigInteger;
import java.util.HashMap;
import java.util.Map;

/**
 * Checks that explanations recompute the runtimes (issue 27): every step recomputed from the
 * explanation's own numbers, without the core's code.
 */
final class ExplanationCheck {

  private ExplanationCheck() {}

  /** Every group and resource of {@code state}'s last result is explained to its runtime. */
  static void verifyAll(ClusterQuotaState state) {
    verifyAll(state.snapshot(), state.explainer(), state.options());
  }

  static void verifyAll(TreeSnapshot snapshot, RuntimeExplainer explainer, QuotaOptions options) {
    for (final GroupStatus status : snapshot.groups()) {
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
        assertThat(ExplanationCheck.recompute(explanation, options))
            .as("%s %s", status.name(), resource)
            .isEqualTo(status.runtime().get(resource));
      }
    }
  }

  /** The runtime the explanation's numbers give, checking every step on the way. */
  static long recompute(RuntimeExplanation explanation, QuotaOptions options) {
    long handedDown = -1;
    for (final Level level : explanation.levels()) {
      if (handedDown >= 0) {
        assertThat(level.available()).isEqualTo(handedDown);
      }
      // In BigInteger: the specification's tables include amounts whose sums overflow a long.
      BigInteger minSum = BigInteger.ZERO;
      BigInteger started = BigInteger.ZERO;
      for (final Participant p : level.participants()) {
        minSum = minSum.add(BigInteger.valueOf(p.min()));
      }
      for (final Participant p : level.participants()) {
        final long scaled =
            level.minsScaled()
                ? BigInteger.valueOf(level.available())
                    .multiply(BigInteger.valueOf(p.min()))
                    .divide(minSum)
                    .longValueExact()
                : p.min();
        assertThat(p.scaledMin()).isEqualTo(scaled);
        final long floor = options.guaranteeUsage() ? Math.max(scaled, p.guaranteed()) : scaled;
        final long start = options.guaranteeUsage() ? floor : Math.min(p.limitedRequest(), floor);
        assertThat(p.start()).isEqualTo(start);
        assertThat(p.borrows()).isEqualTo(p.limitedRequest() > floor && p.weight() > 0);
        started = started.add(BigInteger.valueOf(start));
      }
      assertThat(level.minsScaled())
          .isEqualTo(
              options.minScaling()
                  && !level.unbounded()
                  && minSum.compareTo(BigInteger.valueOf(level.available())) > 0);
      final Map<String, Long> runtime = new HashMap<>();
      level.participants().forEach(p -> runtime.put(p.name(), p.start()));
      if (level.unbounded() || level.allFit()) {
        assertThat(level.rounds()).isEmpty();
        level.participants().stream()
            .filter(Participant::borrows)
            .forEach(p -> runtime.put(p.name(), p.limitedRequest()));
      } else {
        assertThat(BigInteger.valueOf(level.surplus()))
            .isEqualTo(
                BigInteger.valueOf(level.available()).subtract(started).max(BigInteger.ZERO));
        long left = level.surplus();
        for (final Round round : level.rounds()) {
          assertThat(round.left()).isEqualTo(left);
          BigInteger weights = BigInteger.ZERO;
          long shares = 0;
          long returned = 0;
          for (final Share share : round.shares()) {
            weights = weights.add(BigInteger.valueOf(share.weight()));
          }
          for (final Share share : round.shares()) {
            final long quotient =
                BigInteger.valueOf(share.weight())
                    .multiply(BigInteger.valueOf(round.left()))
                    .divide(weights)
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
