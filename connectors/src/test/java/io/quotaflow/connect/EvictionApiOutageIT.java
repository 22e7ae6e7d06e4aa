package io.quotaflow.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.Counter;
import io.quotaflow.engine.config.EngineSettings;
import io.quotaflow.engine.metrics.EngineMetrics;
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
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 26: a member cluster whose API server cannot evict for a long time does not use up the
 * victim's attempts; reclaim resumes when it answers again. The engine, the executor and the mock
 * API server run the whole loop on the run's broker; the eviction endpoint answers 503 to every
 * request of five times as many commands as {@code revoke.max.attempts} allows, then accepts.
 *
 * <p>Time is compressed: two attempts per pod, a retry backoff of 500 ms, two requests per command
 * 50 ms apart. With the defaults (5 attempts, 60 s backoff, 6 requests over 31 s) the same ten
 * commands stand for an outage of about 15 minutes.
 */
@Tag("fault")
class EvictionApiOutageIT {
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final int MAX_ATTEMPTS = 2;
  private static final int REQUESTS_PER_COMMAND = 2;
  private static final int OUTAGE_COMMANDS = 5 * MAX_ATTEMPTS;

  @RegisterExtension static final ConnectorRig rig = new ConnectorRig("outage");

  @TempDir Path stateDir;

  @Test
  void aLongApiOutageDoesNotUseUpTheVictimsAttemptsAndTheEvictionHappensWhenItEnds()
      throws Exception {
    // team-a borrows team-b's idle guarantee: 6 of 10 cpu in use, a-2 the less important pod.
    final BorrowingOrganisation organisation =
        BorrowingOrganisation.create(rig.mock(), rig.namespace());
    final EvictionEndpoint eviction =
        EvictionEndpoint.of(rig.mock(), rig.namespace(), "a-2")
            .unavailable(OUTAGE_COMMANDS * REQUESTS_PER_COMMAND)
            .accepts();

    try (Pipeline loop =
            Pipeline.on(rig, stateDir)
                .engineSetting(EngineSettings.REVOKE_MAX_ATTEMPTS.key(), "" + MAX_ATTEMPTS)
                .engineSetting(EngineSettings.REVOKE_RETRY_BACKOFF.key(), "500ms")
                .evictionSettings(
                    new EvictionSettings(
                        false,
                        REQUESTS_PER_COMMAND,
                        Duration.ofMillis(50),
                        Duration.ofMillis(50),
                        50.0,
                        50,
                        EvictionSettings.DEFAULT_GROUP_ID,
                        Duration.ofMinutes(10)))
                .start();
        TopicReader<PodKey, EvictionCommand> commands = rig.reader(rig.topics().evictions());
        TopicReader<PodKey, EvictionResult> results = rig.reader(rig.topics().evictionResults())) {
      final long started = System.nanoTime();
      // team-b wants its guarantee back: team-a's runtime falls to 2, below its 6 in use.
      organisation.teamBClaimsItsGuarantee();

      await()
          .atMost(WAIT)
          .untilAsserted(
              () ->
                  assertThat(organisation.hasPod("a-2"))
                      .as("a-2 still there after the outcomes %s", outcomes(results))
                      .isFalse());
      final long evictedAfter = Duration.ofNanos(System.nanoTime() - started).toMillis();
      final List<EvictionOutcome> expected =
          new ArrayList<>(Collections.nCopies(OUTAGE_COMMANDS, EvictionOutcome.UNREACHABLE));
      expected.add(EvictionOutcome.EVICTED);
      await().atMost(WAIT).untilAsserted(() -> assertThat(outcomes(results)).isEqualTo(expected));

      final List<EvictionCommand> issued =
          commands.read().stream().flatMap(entry -> entry.value().stream()).toList();
      assertThat(issued)
          .as("one command per outcome, all for a-2")
          .extracting(EvictionCommand::getAttempt)
          .containsExactlyElementsOf(
              IntStream.rangeClosed(1, OUTAGE_COMMANDS + 1).boxed().toList());
      assertThat(issued).extracting(EvictionCommand::getId).doesNotHaveDuplicates();
      final EvictionCommand last = issued.get(issued.size() - 1);
      assertThat(last.getUnreachableRetries()).as("none counted").isEqualTo(OUTAGE_COMMANDS);
      assertThat(last.getReason())
          .contains(
              "attempt " + (OUTAGE_COMMANDS + 1) + " of " + (OUTAGE_COMMANDS + MAX_ATTEMPTS) + ")");
      assertThat(eviction.requests()).hasSize(OUTAGE_COMMANDS * REQUESTS_PER_COMMAND + 1);
      assertThat(organisation.pod("a-1")).as("the more important pod stays").isNotNull();
      assertThat(counter(EngineMetrics.EVICTIONS_UNREACHABLE)).isEqualTo(OUTAGE_COMMANDS);
      assertThat(counter(EngineMetrics.EVICTIONS_EXHAUSTED)).as("no pod gave up").isZero();
      final Duration outage = Duration.between(issued.get(0).getIssuedAt(), last.getIssuedAt());
      System.out.printf(
          "EvictionApiOutageIT: %d commands found the API server unavailable over %d ms"
              + " (revoke.max.attempts=%d); a-2 evicted %d ms after team-b's claim%n",
          OUTAGE_COMMANDS, outage.toMillis(), MAX_ATTEMPTS, evictedAfter);
    }
  }

  private static List<EvictionOutcome> outcomes(final TopicReader<PodKey, EvictionResult> results) {
    return results.read().stream()
        .flatMap(entry -> entry.value().stream())
        .map(EvictionResult::getOutcome)
        .toList();
  }

  /** A counter of the cluster; 0 when it was never incremented (meters are made on first use). */
  private static double counter(final String name) {
    final Counter counter = rig.registry().find(name).tag("cluster", "east").counter();
    return counter == null ? 0 : counter.count();
  }
}
