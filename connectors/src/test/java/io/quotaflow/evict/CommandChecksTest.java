package io.quotaflow.evict;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.schemas.EvictionCommand;
import io.quotaflow.schemas.EvictionOutcome;
import io.quotaflow.schemas.PodKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The executor's {@code STALE} check judges a command's decision by the broker's time. */
class CommandChecksTest {
  private static final Instant BROKER = Instant.parse("2026-03-01T12:00:00Z");
  // The relist that healed the cluster's last gap started here, by the broker's clock.
  private static final Instant RELIST = BROKER.plusSeconds(5);
  private static final PodKey KEY = new PodKey("east", "team-a", "worker-0");

  private final CommandChecks checks =
      new CommandChecks(Duration.ofHours(2), Clock.fixed(BROKER.plusSeconds(10), ZoneOffset.UTC));

  {
    checks.checkInputsWith(
        (cluster, decidedAt) ->
            decidedAt.isBefore(RELIST)
                ? Optional.of("decided at " + decidedAt + ", before the relist at " + RELIST)
                : Optional.empty());
  }

  @Test
  void anEngineClockAheadDoesNotPlaceADecisionBeforeTheRelistAfterIt() {
    // Stamped by an engine clock ten minutes ahead, appended by the broker before the relist.
    final EvictionCommand command = issuedAt(BROKER.plus(Duration.ofMinutes(10)));

    assertThat(checks.refusal(KEY, command, BROKER.plusSeconds(1).toEpochMilli()))
        .hasValueSatisfying(
            verdict -> assertThat(verdict.outcome()).isEqualTo(EvictionOutcome.STALE));
  }

  @Test
  void aCommandAppendedAfterTheRelistIsCarriedOut() {
    final EvictionCommand command = issuedAt(RELIST.plusSeconds(1));

    assertThat(checks.refusal(KEY, command, RELIST.plusSeconds(2).toEpochMilli())).isEmpty();
  }

  @Test
  void withoutTheBrokersTimeTheStampDecides() {
    assertThat(checks.refusal(KEY, issuedAt(RELIST.minusSeconds(1)), -1L)).isPresent();
    assertThat(checks.refusal(KEY, issuedAt(RELIST.plusSeconds(1)), -1L)).isEmpty();
  }

  private static EvictionCommand issuedAt(final Instant at) {
    return EvictionCommand.newBuilder()
        .setId("team-a/worker-0/uid-0")
        .setPodUid("uid-0")
        .setGroup("team-a")
        .setIssuedAt(at)
        .build();
  }
}
