package io.quotaflow.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.quotaflow.broker.EmbeddedKafkaBroker;
import io.quotaflow.broker.EmbeddedKafkaExtension;
import io.quotaflow.engine.config.EngineSettings;
import io.quotaflow.engine.metrics.EngineMetrics;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * An instance that dies mid-stream (its stream thread crashes inside a transaction) and is started
 * again on the same state directory ends in the same state as one that never crashed, and the
 * eviction commands, read with read_committed, hold every command exactly once.
 *
 * <p>Each cluster has a reclaim scene ({@link DepartmentReclaimScene}): dept (min = max = 10 cpu,
 * lending off) holds team-a (min 5, four 2-cpu pods borrowed) and team-b (min 5), which then asks
 * for its min; team-a's runtime drops to 5 while it uses 8, so after the revoke delay a0 and a1 are
 * evicted. Other groups churn around it.
 */
@Tag("fault")
@ExtendWith(EmbeddedKafkaExtension.class)
class EngineCrashRecoveryIT {
  private static final List<String> CLUSTERS = List.of("east", "west", "north");

  @Test
  void aCrashedInstanceRestartedEndsInTheSameStateWithEveryEvictionExactlyOnce(
      final EmbeddedKafkaBroker broker) {
    final Map<String, String> settings =
        CrashInjector.installedIn(
            Map.of(
                EngineSettings.REVOKE_DELAY.key(),
                "2s",
                EngineSettings.REVOKE_CHECK_INTERVAL.key(),
                "200ms"));
    try (EngineInstances instances = new EngineInstances(broker.bootstrapServers(), settings)) {
      final Path stateDir = EngineInstances.stateDir();
      final Engine first = instances.start(stateDir, Map.of());
      try (KafkaInputs inputs = new KafkaInputs(broker.bootstrapServers(), instances.topics());
          KafkaOutputs outputs = new KafkaOutputs(broker.bootstrapServers(), instances.topics())) {
        final Workload churn = new Workload(7, CLUSTERS);
        CLUSTERS.forEach(cluster -> DepartmentReclaimScene.put(inputs, cluster));
        churn.send(inputs, 200);
        CLUSTERS.forEach(cluster -> DepartmentReclaimScene.teamBClaimsItsMin(inputs, cluster));
        inputs.flush();

        // Some commands are committed; then the instance dies in the middle of more input.
        await()
            .atMost(EngineInstances.timeout())
            .until(() -> !outputs.poll().evictions().isEmpty());
        CrashInjector.arm(instances.applicationId());
        churn.send(inputs, 200);
        await()
            .atMost(EngineInstances.timeout())
            .until(() -> first.streams().state() == KafkaStreams.State.ERROR);
        first.close();

        final Engine second = instances.start(stateDir, Map.of());
        churn.send(inputs, 200);

        await()
            .atMost(EngineInstances.timeout())
            .untilAsserted(
                () -> {
                  outputs.poll().assertTablesMatch(inputs.model(), CLUSTERS);
                  // None lost: the reclaim scenes' victims, each commanded.
                  assertThat(outputs.evictionIds()).containsAll(reclaimCommandIds());
                });
        // None twice, now or at later checks of the groups still over-used. (The churning groups
        // may be over-used too, and get commands of their own.)
        await()
            .during(Duration.ofSeconds(2))
            .atMost(Duration.ofSeconds(10))
            .untilAsserted(
                () -> {
                  assertThat(outputs.poll().evictionIds()).doesNotHaveDuplicates();
                  assertThat(
                          outputs.evictions().stream()
                              .filter(record -> record.value().getGroup().equals("team-a"))
                              .map(record -> record.value().getId()))
                      .containsExactlyInAnyOrderElementsOf(reclaimCommandIds());
                });
        assertThat(second.streams().state()).isEqualTo(KafkaStreams.State.RUNNING);
      }
    }
  }

  /**
   * Issue 26 (survive, don't exit): a stream thread that dies of a transient error is replaced; the
   * instance keeps running, resumes the thread's tasks from their last commit and ends in the same
   * state, each eviction command once.
   */
  @Test
  void aCrashedStreamThreadIsReplacedAndTheInstanceKeepsComputing(
      final EmbeddedKafkaBroker broker) {
    final Map<String, String> settings =
        CrashInjector.installedIn(
            Map.of(
                EngineSettings.STREAM_THREAD_MAX_REPLACEMENTS.key(), "10",
                EngineSettings.REVOKE_DELAY.key(), "2s",
                EngineSettings.REVOKE_CHECK_INTERVAL.key(), "200ms"));
    try (EngineInstances instances = new EngineInstances(broker.bootstrapServers(), settings)) {
      final Engine engine = instances.start(EngineInstances.stateDir(), Map.of());
      try (KafkaInputs inputs = new KafkaInputs(broker.bootstrapServers(), instances.topics());
          KafkaOutputs outputs = new KafkaOutputs(broker.bootstrapServers(), instances.topics())) {
        final Workload churn = new Workload(11, CLUSTERS);
        CLUSTERS.forEach(cluster -> DepartmentReclaimScene.put(inputs, cluster));
        churn.send(inputs, 100);
        CLUSTERS.forEach(cluster -> DepartmentReclaimScene.teamBClaimsItsMin(inputs, cluster));
        inputs.flush();
        await()
            .atMost(EngineInstances.timeout())
            .until(() -> !outputs.poll().evictions().isEmpty());

        CrashInjector.arm(instances.applicationId());
        churn.send(inputs, 100);
        inputs.flush();

        await()
            .atMost(EngineInstances.timeout())
            .until(
                () ->
                    engine
                            .metrics()
                            .registry()
                            .get(EngineMetrics.THREADS_REPLACED)
                            .counter()
                            .count()
                        == 1.0);
        churn.send(inputs, 100);
        inputs.flush();
        await()
            .atMost(EngineInstances.timeout())
            .untilAsserted(
                () -> {
                  outputs.poll().assertTablesMatch(inputs.model(), CLUSTERS);
                  assertThat(outputs.evictionIds()).containsAll(reclaimCommandIds());
                });
        assertThat(outputs.evictionIds()).doesNotHaveDuplicates();
        assertThat(engine.streams().state()).isEqualTo(KafkaStreams.State.RUNNING);
      }
    }
  }

  private static List<String> reclaimCommandIds() {
    final List<String> ids = new ArrayList<>();
    for (final String cluster : CLUSTERS) {
      ids.addAll(DepartmentReclaimScene.victimCommandIds(cluster));
    }
    return ids;
  }
}
