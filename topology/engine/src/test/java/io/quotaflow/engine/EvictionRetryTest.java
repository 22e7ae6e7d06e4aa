package io.quotaflow.engine;

import static io.quotaflow.engine.ReclaimScene.CHECK;
import static io.quotaflow.engine.ReclaimScene.DELAY;
import static io.quotaflow.engine.ReclaimScene.EAST;
import static io.quotaflow.engine.ReclaimScene.NS;
import static io.quotaflow.engine.ReclaimScene.teamABorrowsTheWholeCluster;
import static io.quotaflow.engine.ReclaimScene.teamBClaimsItsMin;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import io.quotaflow.engine.config.EngineSettings;
import io.quotaflow.engine.metrics.EngineMetrics;
import io.quotaflow.engine.reclaim.EvictionCommands;
import io.quotaflow.schemas.EvictionCommand;
import io.quotaflow.schemas.EvictionOutcome;
import io.quotaflow.schemas.EvictionResult;
import io.quotaflow.schemas.PodKey;
import io.quotaflow.topics.RejectedRecordHeaders;
import io.quotaflow.topics.RejectedRecordHeaders.Rejection;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The eviction loop closed: the executor's results come back on eviction-results.v1, and a pod
 * whose eviction did not happen is commanded again after the retry backoff, as the next attempt,
 * while its group stays over-used. The scene is {@link ReclaimScene}: team-a uses 8 cpu of a
 * runtime of 5, so a0 and a1 are its victims.
 */
class EvictionRetryTest {
  private static final Duration BACKOFF = Duration.ofSeconds(60);

  @AutoClose private EngineDriver engine;

  @Test
  void aPodBlockedByItsDisruptionBudgetIsCommandedAgainAfterTheBackoffAsAttemptTwo() {
    engine = new EngineDriver();
    final TestRecord<PodKey, EvictionCommand> first = firstCommandsAreIssued().get(0);
    assertThat(first.value().getAttempt()).isEqualTo(1);
    // Issue 32: amounts as a person writes them, not canonical units.
    assertThat(first.value().getReason()).contains("(used cpu 8; runtime cpu 5)");

    engine.answer(first, EvictionOutcome.BLOCKED_BY_BUDGET);
    engine.advance(BACKOFF.minus(CHECK));
    assertThat(engine.evictionRecords()).as("within the backoff").isEmpty();
    engine.advance(CHECK);

    final EvictionCommand retry = engine.evictionRecords().get(0).value();
    assertThat(engine.evictionRecords()).isEmpty();
    assertThat(retry.getAttempt()).isEqualTo(2);
    assertThat(retry.getPodUid()).isEqualTo("a0-uid");
    assertThat(retry.getId())
        .isEqualTo(EvictionCommands.commandId(EAST, NS, "a0", "a0-uid", 2))
        .isNotEqualTo(first.value().getId());
    assertThat(retry.getReason()).contains("attempt 2 of 5");
    assertThat(retry.getReasonCode()).isEqualTo("reclaimed-after-delay");
    assertThat(retry.getIssuedAt()).isEqualTo(engine.now());
    assertThat(counter(EngineMetrics.EVICTIONS_RETRIED)).isEqualTo(1.0);
    assertThat(counter(EngineMetrics.EVICTIONS)).isEqualTo(3.0);
    assertThat(
            engine
                .metrics()
                .registry()
                .get(EngineMetrics.EVICTIONS_RETRIED)
                .tags("cluster", EAST, "reason", "reclaimed-after-delay")
                .counter()
                .count())
        .as("retries carry the reason of the pod's eviction")
        .isEqualTo(1.0);

    // Attempt 2 is pending: nothing more until its own result.
    engine.advance(BACKOFF).advance(BACKOFF);
    assertThat(engine.evictionRecords()).isEmpty();
  }

  @ParameterizedTest
  @EnumSource(
      value = EvictionOutcome.class,
      names = {"FAILED", "EXPIRED"})
  void aFailedOrExpiredCommandIsRetriedToo(final EvictionOutcome outcome) {
    engine = new EngineDriver();
    final TestRecord<PodKey, EvictionCommand> first = firstCommandsAreIssued().get(0);

    engine.answer(first, outcome).advance(BACKOFF);

    assertThat(engine.evictionRecords())
        .singleElement()
        .satisfies(record -> assertThat(record.value().getAttempt()).isEqualTo(2));
  }

  @Test
  void anEvictedPodIsNeverCommandedAgain() {
    engine = new EngineDriver();
    final List<TestRecord<PodKey, EvictionCommand>> commands = firstCommandsAreIssued();

    commands.forEach(command -> engine.answer(command, EvictionOutcome.EVICTED));
    // The pods are slow to go: the group stays over-used, check after check.
    engine.advance(BACKOFF).advance(BACKOFF).advance(BACKOFF);

    assertThat(engine.evictionRecords()).isEmpty();
  }

  @Test
  void aPodTheExecutorRefusesAsProtectedIsNeverCommandedAgain() {
    engine = new EngineDriver();
    final TestRecord<PodKey, EvictionCommand> first = firstCommandsAreIssued().get(0);

    engine.answer(first, EvictionOutcome.PROTECTED);
    engine.advance(BACKOFF).advance(BACKOFF).advance(BACKOFF);

    assertThat(engine.evictionRecords())
        .extracting(record -> record.key().getName())
        .doesNotContain(first.key().getName());
  }

  @Test
  void afterTheLastAllowedAttemptThePodIsNotCommandedAgainAndTheMetricCountsIt() {
    engine =
        new EngineDriver(
            EngineDriver.settings()
                .set(EngineSettings.REVOKE_MAX_ATTEMPTS.key(), "2")
                .set(EngineSettings.REVOKE_RETRY_BACKOFF.key(), "10s")
                .build());
    final TestRecord<PodKey, EvictionCommand> first = firstCommandsAreIssued().get(0);
    engine.answer(first, EvictionOutcome.BLOCKED_BY_BUDGET).advance(Duration.ofSeconds(10));
    final TestRecord<PodKey, EvictionCommand> second = engine.evictionRecords().get(0);
    assertThat(second.value().getAttempt()).isEqualTo(2);
    assertThat(second.value().getReason()).contains("attempt 2 of 2");

    engine.answer(second, EvictionOutcome.BLOCKED_BY_BUDGET);
    // The executor's answer arrives twice: the pod is counted once.
    engine.answer(second, EvictionOutcome.BLOCKED_BY_BUDGET);
    engine.advance(DELAY).advance(DELAY);

    assertThat(engine.evictionRecords()).isEmpty();
    assertThat(counter(EngineMetrics.EVICTIONS_EXHAUSTED)).isEqualTo(1.0);
  }

  /**
   * Issue 26, point 6: a member cluster's API outage does not use up a pod's attempts. With two
   * allowed, five commands that find the API server unreachable still leave the pod both; it is
   * commanded again after each backoff, each command with an id of its own.
   */
  @Test
  void commandsThatFindTheApiServerUnreachableDoNotUseUpThePodsAttempts() {
    engine =
        new EngineDriver(
            EngineDriver.settings()
                .set(EngineSettings.REVOKE_MAX_ATTEMPTS.key(), "2")
                .set(EngineSettings.REVOKE_RETRY_BACKOFF.key(), "10s")
                .build());
    TestRecord<PodKey, EvictionCommand> command = firstCommandsAreIssued().get(0);
    final java.util.Set<String> ids = new java.util.HashSet<>();
    ids.add(command.value().getId());
    for (int outage = 1; outage <= 5; outage++) {
      engine.answer(command, EvictionOutcome.UNREACHABLE).advance(Duration.ofSeconds(10));
      command = engine.evictionRecords().get(0);
      assertThat(command.value().getUnreachableRetries()).isEqualTo(outage);
      assertThat(ids.add(command.value().getId())).as("a command id of its own").isTrue();
    }
    assertThat(command.value().getReason()).contains("of 7)");
    assertThat(counter(EngineMetrics.EVICTIONS_UNREACHABLE)).isEqualTo(5.0);
    assertThat(counter(EngineMetrics.EVICTIONS_EXHAUSTED)).isZero();

    // The cluster is back: the pod's two attempts are both left.
    engine.answer(command, EvictionOutcome.BLOCKED_BY_BUDGET).advance(Duration.ofSeconds(10));
    final TestRecord<PodKey, EvictionCommand> last = engine.evictionRecords().get(0);
    engine.answer(last, EvictionOutcome.BLOCKED_BY_BUDGET);
    engine.advance(DELAY).advance(DELAY);

    assertThat(engine.evictionRecords()).as("two counted attempts: no third").isEmpty();
    assertThat(counter(EngineMetrics.EVICTIONS_EXHAUSTED)).isEqualTo(1.0);
  }

  /**
   * Issue 26: a command the executor refused because the inputs it was decided on may have missed
   * changes (STALE) is the cluster's fault too: it does not use up an attempt, and the pod is
   * commanded again once the backoff has passed.
   */
  @Test
  void commandsRefusedAsStaleDoNotUseUpThePodsAttempts() {
    engine =
        new EngineDriver(
            EngineDriver.settings()
                .set(EngineSettings.REVOKE_MAX_ATTEMPTS.key(), "1")
                .set(EngineSettings.REVOKE_RETRY_BACKOFF.key(), "10s")
                .build());
    final TestRecord<PodKey, EvictionCommand> first = firstCommandsAreIssued().get(0);
    engine.answer(first, EvictionOutcome.STALE).advance(Duration.ofSeconds(10));

    final TestRecord<PodKey, EvictionCommand> again = engine.evictionRecords().get(0);
    assertThat(again.key()).isEqualTo(first.key());
    assertThat(again.value().getUnreachableRetries()).isEqualTo(1);
    assertThat(again.value().getId()).isNotEqualTo(first.value().getId());
    assertThat(counter(EngineMetrics.EVICTIONS_STALE)).isEqualTo(1.0);
    assertThat(counter(EngineMetrics.EVICTIONS_UNREACHABLE)).isZero();
    assertThat(counter(EngineMetrics.EVICTIONS_EXHAUSTED)).isZero();

    // Its one counted attempt is still there: a refusal by a budget uses it up.
    engine.answer(again, EvictionOutcome.BLOCKED_BY_BUDGET);
    engine.advance(DELAY).advance(DELAY);
    assertThat(engine.evictionRecords()).isEmpty();
    assertThat(counter(EngineMetrics.EVICTIONS_EXHAUSTED)).isEqualTo(1.0);
  }

  /**
   * Issue 40, point 9: EXPIRED says the command waited too long before the executor read it (an
   * executor outage, a backlog), not that the pod refused: it does not use up an attempt.
   */
  @Test
  void commandsThatExpiredUnreadDoNotUseUpThePodsAttempts() {
    engine =
        new EngineDriver(
            EngineDriver.settings()
                .set(EngineSettings.REVOKE_MAX_ATTEMPTS.key(), "1")
                .set(EngineSettings.REVOKE_RETRY_BACKOFF.key(), "10s")
                .build());
    final TestRecord<PodKey, EvictionCommand> first = firstCommandsAreIssued().get(0);
    engine.answer(first, EvictionOutcome.EXPIRED).advance(Duration.ofSeconds(10));

    final TestRecord<PodKey, EvictionCommand> again = engine.evictionRecords().get(0);
    assertThat(again.key()).isEqualTo(first.key());
    assertThat(again.value().getUnreachableRetries()).isEqualTo(1);
    assertThat(counter(EngineMetrics.EVICTIONS_EXPIRED)).isEqualTo(1.0);
    assertThat(counter(EngineMetrics.EVICTIONS_EXHAUSTED)).isZero();
  }

  /**
   * Issue 40, point 8: a command that never gets a result (the connectors renamed, the results
   * lost, or the engine behind past their retention) expires on the engine's side after {@code
   * revoke.result.timeout}, without using an attempt, and the pod is decided again: before, its
   * ledger entry waited for a result for as long as the pod lived.
   */
  @Test
  void aCommandThatNeverGetsAResultExpiresAndThePodIsDecidedAgainWithoutUsingAnAttempt() {
    engine =
        new EngineDriver(
            EngineDriver.settings()
                .set(EngineSettings.REVOKE_MAX_ATTEMPTS.key(), "1")
                .set(EngineSettings.REVOKE_RESULT_TIMEOUT.key(), "15m")
                .build());
    final TestRecord<PodKey, EvictionCommand> first = firstCommandsAreIssued().get(0);
    engine.evictionRecords();

    engine.advance(Duration.ofMinutes(15).minus(CHECK));
    assertThat(engine.evictionRecords()).as("within the result timeout").isEmpty();
    engine.advance(CHECK);

    final List<TestRecord<PodKey, EvictionCommand>> again = engine.evictionRecords();
    assertThat(again).extracting(record -> record.key().getName()).containsExactly("a0", "a1");
    final EvictionCommand retry =
        again.stream()
            .filter(record -> record.key().equals(first.key()))
            .findFirst()
            .orElseThrow()
            .value();
    assertThat(retry.getAttempt()).isEqualTo(2);
    assertThat(retry.getUnreachableRetries()).as("not one of the pod's attempts").isEqualTo(1);
    assertThat(retry.getId()).isNotEqualTo(first.value().getId());
    assertThat(counter(EngineMetrics.EVICTIONS_UNANSWERED)).isEqualTo(2.0);
    assertThat(counter(EngineMetrics.EVICTIONS_EXHAUSTED)).isZero();

    // The late result of the lost command changes nothing; the new command's own result counts.
    engine.answer(first, EvictionOutcome.FAILED).advance(Duration.ofMinutes(2));
    assertThat(engine.evictionRecords()).isEmpty();
  }

  @Test
  void aResultForAnUnknownPodOrAnotherCommandHasNoEffect() {
    engine = new EngineDriver();
    final TestRecord<PodKey, EvictionCommand> first = firstCommandsAreIssued().get(0);
    final EvictionResult blocked =
        Inputs.result(first.value(), EvictionOutcome.BLOCKED_BY_BUDGET, engine.now());

    engine
        .putEvictionResult(EAST, NS, "ghost", blocked)
        .putEvictionResult("nowhere", NS, "a0", blocked)
        .putEvictionResult(
            EAST, NS, "a0", EvictionResult.newBuilder(blocked).setCommandId("other").build())
        .putEvictionResult(
            EAST, NS, "a0", EvictionResult.newBuilder(blocked).setPodUid("old-uid").build())
        .advance(BACKOFF)
        .advance(BACKOFF);

    assertThat(engine.evictionRecords()).isEmpty();
    assertThat(engine.rejectedRecords()).isEmpty();
    assertThat(engine.table(EAST)).isEqualTo(engine.expected(EAST));
  }

  @Test
  void aRepeatedResultDoesNotPutTheRetryOff() {
    engine = new EngineDriver();
    final TestRecord<PodKey, EvictionCommand> first = firstCommandsAreIssued().get(0);

    engine.answer(first, EvictionOutcome.BLOCKED_BY_BUDGET).advance(Duration.ofSeconds(30));
    engine.answer(first, EvictionOutcome.BLOCKED_BY_BUDGET).advance(Duration.ofSeconds(30));

    assertThat(engine.evictionRecords()).as("60 s after the first answer").hasSize(1);
  }

  @Test
  void aLateResultOfAnEarlierAttemptDoesNotReleaseThePodAgain() {
    engine = new EngineDriver();
    final TestRecord<PodKey, EvictionCommand> first = firstCommandsAreIssued().get(0);
    engine.answer(first, EvictionOutcome.BLOCKED_BY_BUDGET).advance(BACKOFF);
    assertThat(engine.evictionRecords()).hasSize(1);

    engine.answer(first, EvictionOutcome.FAILED).advance(BACKOFF).advance(BACKOFF);

    assertThat(engine.evictionRecords()).isEmpty();
  }

  @Test
  void aReleasedPodIsNotCommandedWhileItsGroupIsNoLongerOverUsed() {
    engine = new EngineDriver();
    final TestRecord<PodKey, EvictionCommand> first = firstCommandsAreIssued().get(0);
    engine.answer(first, EvictionOutcome.BLOCKED_BY_BUDGET);

    // a1 and a2 went (a1 evicted, a2 finished): team-a uses 4 of its runtime of 5.
    engine.deletePod(EAST, NS, "a1").deletePod(EAST, NS, "a2").advance(BACKOFF).advance(DELAY);

    assertThat(engine.evictionRecords()).isEmpty();
  }

  @Test
  void aMalformedResultIsRejectedWithTheReason() {
    engine = new EngineDriver();
    final TestRecord<PodKey, EvictionCommand> first = firstCommandsAreIssued().get(0);
    final EvictionResult noCommand =
        EvictionResult.newBuilder(
                Inputs.result(first.value(), EvictionOutcome.BLOCKED_BY_BUDGET, engine.now()))
            .setCommandId("")
            .build();

    engine.putEvictionResult(EAST, NS, "a0", noCommand).advance(BACKOFF);

    final List<TestRecord<byte[], byte[]>> rejected = engine.rejectedRecords();
    assertThat(rejected).hasSize(1);
    final Rejection rejection = RejectedRecordHeaders.read(rejected.get(0).headers()).orElseThrow();
    assertThat(rejection.sourceTopic()).isEqualTo(engine.topics().evictionResults().name());
    assertThat(rejection.message()).isEqualTo("empty eviction result command id");
    assertThat(engine.evictionRecords()).isEmpty();
  }

  /** Runs the scene up to the first commands, a0's first. */
  private List<TestRecord<PodKey, EvictionCommand>> firstCommandsAreIssued() {
    teamABorrowsTheWholeCluster(engine, false);
    teamBClaimsItsMin(engine);
    engine.advance(CHECK).advance(DELAY);
    final List<TestRecord<PodKey, EvictionCommand>> commands =
        engine.evictionRecords().stream()
            .sorted((a, b) -> a.key().getName().compareTo(b.key().getName()))
            .toList();
    assertThat(commands).extracting(record -> record.key().getName()).containsExactly("a0", "a1");
    return commands;
  }

  private double counter(final String name) {
    final Counter counter = engine.metrics().registry().find(name).tag("cluster", EAST).counter();
    return counter == null ? 0 : counter.count();
  }
}
