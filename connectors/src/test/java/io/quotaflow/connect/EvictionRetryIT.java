package io.quotaflow.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import io.quotaflow.engine.config.EngineSettings;
import io.quotaflow.evict.EvictionSettings;
import io.quotaflow.fixtures.BorrowingOrganisation;
import io.quotaflow.fixtures.ConnectorRig;
import io.quotaflow.fixtures.EvictionEndpoint;
import io.quotaflow.fixtures.Pipeline;
import io.quotaflow.fixtures.TopicReader;
import io.quotaflow.schemas.EvictionCommand;
import io.quotaflow.schemas.EvictionOutcome;
import io.quotaflow.schemas.EvictionResult;
import io.quotaflow.schemas.PodKey;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A disruption budget refuses a pod's first eviction (the mock API server answers 429, as a real
 * one does under a PodDisruptionBudget); the executor reports BLOCKED_BY_BUDGET, the engine reads
 * the result back and, after its retry backoff, commands the pod again as attempt 2, which the API
 * server accepts. The engine is restarted on its state directory while the pod waits for its retry:
 * still exactly one command per attempt.
 */
class EvictionRetryIT {

  private static final Duration WAIT = Duration.ofSeconds(60);

  @RegisterExtension static final ConnectorRig rig = new ConnectorRig("retry");

  @TempDir Path stateDir;

  @Test
  void anEvictionBlockedByADisruptionBudgetIsRetriedAfterTheBackoffAndThenSucceeds()
      throws Exception {
    // team-a borrows team-b's idle guarantee: 6 of 10 cpu in use, a-2 the less important pod.
    final BorrowingOrganisation organisation =
        BorrowingOrganisation.create(rig.mock(), rig.namespace());
    final EvictionEndpoint eviction =
        EvictionEndpoint.of(rig.mock(), rig.namespace(), "a-2").refuses(1).accepts();

    try (Pipeline loop =
            Pipeline.on(rig, stateDir)
                .engineSetting(EngineSettings.REVOKE_RETRY_BACKOFF.key(), "5s")
                // One request per command: the 429 is the command's result.
                .evictionSettings(
                    new EvictionSettings(
                        false,
                        1,
                        Duration.ZERO,
                        Duration.ZERO,
                        5.0,
                        10,
                        EvictionSettings.DEFAULT_GROUP_ID,
                        Duration.ofMinutes(10)))
                .start();
        TopicReader<PodKey, EvictionCommand> commands = rig.reader(rig.topics().evictions());
        TopicReader<PodKey, EvictionResult> results = rig.reader(rig.topics().evictionResults())) {
      // team-b wants its guarantee back: team-a's runtime falls to 2, below its 6 in use.
      organisation.teamBClaimsItsGuarantee();

      await()
          .atMost(WAIT)
          .until(() -> outcomes(results).contains(EvictionOutcome.BLOCKED_BY_BUDGET));
      assertThat(organisation.pod("a-2")).as("refused by the budget").isNotNull();
      // Restarted while a-2 waits out its backoff (5 s).
      loop.restartEngine();

      await().atMost(WAIT).until(() -> !organisation.hasPod("a-2"));
      await()
          .atMost(WAIT)
          .until(
              () ->
                  outcomes(results)
                      .equals(List.of(EvictionOutcome.BLOCKED_BY_BUDGET, EvictionOutcome.EVICTED)));
      final List<EvictionCommand> issued =
          commands.read().stream().flatMap(entry -> entry.value().stream()).toList();
      assertThat(issued)
          .extracting(EvictionCommand::getAttempt)
          .as("one command per attempt")
          .containsExactly(1, 2);
      assertThat(issued).extracting(EvictionCommand::getId).doesNotHaveDuplicates();
      assertThat(issued)
          .extracting(EvictionCommand::getReasonCode)
          .as("issue 27: each attempt carries the reason code")
          .containsExactly("reclaimed-after-delay", "reclaimed-after-delay");
      assertThat(Duration.between(issued.get(0).getIssuedAt(), issued.get(1).getIssuedAt()))
          .as("the second attempt waited out the backoff")
          .isGreaterThanOrEqualTo(Duration.ofSeconds(5));
      assertThat(eviction.requests()).hasSize(2);
      assertThat(organisation.pod("a-1")).as("the more important pod stays").isNotNull();
      assertThat(
              rig.registry()
                  .get("quotaflow.engine.evictions.retried")
                  .tag("cluster", "east")
                  .counter()
                  .count())
          .isEqualTo(1.0);
      // The executor counts a result just after committing it.
      await()
          .atMost(WAIT)
          .untilAsserted(
              () ->
                  assertThat(rig.registry().find("quotaflow.evictions.results").counters())
                      .extracting(
                          counter -> counter.getId().getTag("outcome"),
                          counter -> counter.getId().getTag("reason"),
                          counter -> counter.count())
                      .as("the executor's results by reason")
                      .containsExactlyInAnyOrder(
                          tuple("BLOCKED_BY_BUDGET", "blocked-by-budget", 1.0),
                          tuple("EVICTED", "reclaimed-after-delay", 1.0)));
    }
  }

  private static List<EvictionOutcome> outcomes(final TopicReader<PodKey, EvictionResult> results) {
    return results.read().stream()
        .flatMap(entry -> entry.value().stream())
        .map(EvictionResult::getOutcome)
        .toList();
  }
}
