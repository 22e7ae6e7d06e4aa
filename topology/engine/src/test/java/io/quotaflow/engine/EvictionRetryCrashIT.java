package io.quotaflow.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.quotaflow.broker.EmbeddedKafkaBroker;
import io.quotaflow.broker.EmbeddedKafkaExtension;
import io.quotaflow.engine.config.EngineSettings;
import io.quotaflow.engine.reclaim.EvictionCommands;
import io.quotaflow.schemas.EvictionCommand;
import io.quotaflow.schemas.EvictionOutcome;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A retry survives a crash exactly once: the instance dies (inside a transaction) while it takes in
 * a BLOCKED_BY_BUDGET result, and the instance started again on the same state directory reads the
 * result again and issues the pod's second attempt once, after the backoff; read_committed, no
 * command appears twice. The scene is EngineCrashRecoveryIT's ({@link DepartmentReclaimScene}): a0
 * and a1 of team-a are victims.
 */
@Tag("fault")
@ExtendWith(EmbeddedKafkaExtension.class)
class EvictionRetryCrashIT {
  private static final String EAST = "east";
  private static final String NS = DepartmentReclaimScene.NS;

  @Test
  void aResultTakenInAcrossACrashGivesExactlyOneRetry(final EmbeddedKafkaBroker broker) {
    final Map<String, String> settings =
        CrashInjector.installedIn(
            Map.of(
                EngineSettings.REVOKE_DELAY.key(),
                "1s",
                EngineSettings.REVOKE_CHECK_INTERVAL.key(),
                "200ms",
                EngineSettings.REVOKE_RETRY_BACKOFF.key(),
                "2s"));
    try (EngineInstances instances = new EngineInstances(broker.bootstrapServers(), settings)) {
      final Path stateDir = EngineInstances.stateDir();
      final Engine first = instances.start(stateDir, Map.of());
      try (KafkaInputs inputs = new KafkaInputs(broker.bootstrapServers(), instances.topics());
          KafkaOutputs outputs = new KafkaOutputs(broker.bootstrapServers(), instances.topics())) {
        DepartmentReclaimScene.put(inputs, EAST);
        DepartmentReclaimScene.teamBClaimsItsMin(inputs, EAST);
        inputs.flush();
        final String a0 = EvictionCommands.commandId(EAST, NS, "a0", "a0-uid");
        final EvictionCommand firstCommand =
            await()
                .atMost(EngineInstances.timeout())
                .until(
                    () ->
                        outputs.poll().evictions().stream()
                            .map(ConsumerRecord::value)
                            .filter(command -> command.getId().equals(a0))
                            .findFirst(),
                    found -> found.isPresent())
                .orElseThrow();

        // The executor's answer: a disruption budget refused it. The instance dies taking it in.
        CrashInjector.arm(instances.applicationId());
        inputs
            .putEvictionResult(
                EAST,
                NS,
                "a0",
                Inputs.result(firstCommand, EvictionOutcome.BLOCKED_BY_BUDGET, Instant.now()))
            .flush();
        await()
            .atMost(EngineInstances.timeout())
            .until(() -> first.streams().state() == KafkaStreams.State.ERROR);
        first.close();
        final Engine second = instances.start(stateDir, Map.of());

        final List<String> expected =
            List.of(
                a0,
                EvictionCommands.commandId(EAST, NS, "a1", "a1-uid"),
                EvictionCommands.commandId(EAST, NS, "a0", "a0-uid", 2));
        await()
            .atMost(EngineInstances.timeout())
            .untilAsserted(() -> assertThat(outputs.poll().evictionIds()).containsAll(expected));
        // None twice, now or at later checks of the group still over-used.
        await()
            .during(Duration.ofSeconds(3))
            .atMost(Duration.ofSeconds(10))
            .untilAsserted(
                () ->
                    assertThat(outputs.poll().evictionIds())
                        .containsExactlyInAnyOrderElementsOf(expected));
        assertThat(second.streams().state()).isEqualTo(KafkaStreams.State.RUNNING);
      }
    }
  }
}
