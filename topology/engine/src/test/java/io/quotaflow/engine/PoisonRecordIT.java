package io.quotaflow.engine;

import static io.quotaflow.engine.Inputs.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.quotaflow.broker.EmbeddedKafkaBroker;
import io.quotaflow.broker.EmbeddedKafkaExtension;
import io.quotaflow.engine.config.EngineSettings;
import io.quotaflow.engine.errors.ClusterQuarantine;
import io.quotaflow.engine.metrics.EngineMetrics;
import io.quotaflow.schemas.internal.ClusterEventKind;
import io.quotaflow.topics.RejectedRecordHeaders;
import io.quotaflow.topics.RejectedRecordHeaders.Rejection;
import io.quotaflow.tree.GroupStatus;
import io.quotaflow.tree.QuotaOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 26 on a real broker: a readable record that breaks the engine (a poison record) costs its
 * own cluster, not the instance. The record goes to rejected.v1 with its reason, its cluster is
 * quarantined (neither recomputed nor reclaimed, its last results stay), no stream thread dies, and
 * the other clusters' later inputs are computed and reclaimed as the core says. Once the object is
 * removed, a restart releases the cluster and computes it from its stores.
 *
 * <p>The poison is injected ({@link CrashInjector#poison}): a pod of east whose processing throws
 * after it was applied, as a bug would. A failed stream thread would shut the instance down here
 * ({@code stream.thread.max.replacements=0}), so a RUNNING instance shows none failed.
 */
@ExtendWith(EmbeddedKafkaExtension.class)
class PoisonRecordIT {
  private static final String POISONED = "east";
  private static final List<String> HEALTHY = List.of("west", "north");
  private static final List<String> CLUSTERS = List.of(POISONED, "west", "north");
  private static final String PILL = "poison-pill";

  @Test
  void aPoisonRecordQuarantinesItsClusterWhileTheOthersGoOnAndARestartReleasesIt(
      final EmbeddedKafkaBroker broker) {
    final Map<String, String> settings =
        CrashInjector.installedIn(
            Map.of(
                EngineSettings.STREAM_THREAD_MAX_REPLACEMENTS.key(), "0",
                EngineSettings.REVOKE_DELAY.key(), "1s",
                EngineSettings.REVOKE_CHECK_INTERVAL.key(), "200ms"));
    try (EngineInstances instances = new EngineInstances(broker.bootstrapServers(), settings)) {
      CrashInjector.poison(
          instances.applicationId(),
          event ->
              event.getKind() == ClusterEventKind.POD
                  && event.getCluster().equals(POISONED)
                  && event.getName().equals(PILL)
                  && event.getValue().isPresent());
      final Path stateDir = EngineInstances.stateDir();
      final Engine first = instances.start(stateDir, Map.of());
      try (KafkaInputs inputs = new KafkaInputs(broker.bootstrapServers(), instances.topics());
          KafkaOutputs outputs = new KafkaOutputs(broker.bootstrapServers(), instances.topics())) {
        final Workload churn = new Workload(13, CLUSTERS);
        CLUSTERS.forEach(cluster -> DepartmentReclaimScene.put(inputs, cluster));
        churn.send(inputs, 100);
        await()
            .atMost(EngineInstances.timeout())
            .untilAsserted(() -> outputs.poll().assertTablesMatch(inputs.model(), CLUSTERS));
        final Map<String, GroupStatus> lastComputed = outputs.table(POISONED);

        final long sent = System.nanoTime();
        inputs
            .putPod(POISONED, DepartmentReclaimScene.NS, pod(PILL).group("team-a").cpu(1_000))
            .flush();
        await()
            .atMost(EngineInstances.timeout())
            .untilAsserted(() -> assertThat(outputs.poll().rejected()).hasSize(1));
        final long quarantinedAfter = Duration.ofNanos(System.nanoTime() - sent).toMillis();
        final Rejection rejection =
            RejectedRecordHeaders.read(outputs.rejected().get(0).headers()).orElseThrow();
        assertThat(rejection.sourceTopic()).isEqualTo(instances.topics().pods().name());
        assertThat(rejection.exceptionClass()).isEqualTo(IllegalStateException.class.getName());
        assertThat(rejection.message()).contains(PILL);
        assertThat(first.metrics().quarantine().reason(POISONED))
            .hasValueSatisfying(
                reason -> assertThat(reason).contains(instances.topics().pods().name()));
        assertThat(quarantined(first)).isEqualTo(1.0);

        // Later changes everywhere, and a reclaim in every cluster (team-a over-used).
        CLUSTERS.forEach(cluster -> DepartmentReclaimScene.teamBClaimsItsMin(inputs, cluster));
        churn.send(inputs, 100);
        inputs.flush();
        await()
            .atMost(EngineInstances.timeout())
            .untilAsserted(
                () -> {
                  outputs.poll().assertTablesMatch(inputs.model(), HEALTHY);
                  assertThat(outputs.evictionIds()).containsAll(victimIds(HEALTHY));
                });
        // The healthy clusters were recomputed and reclaimed past the revoke delay; east was not.
        assertThat(inputs.model().expected(POISONED, QuotaOptions.DEFAULTS))
            .as("east's inputs changed")
            .isNotEqualTo(lastComputed);
        assertThat(outputs.poll().table(POISONED))
            .as("east's last results stay")
            .isEqualTo(lastComputed);
        assertThat(outputs.evictionIds())
            .as("east not reclaimed")
            .doesNotContainAnyElementsOf(DepartmentReclaimScene.victimCommandIds(POISONED));
        assertThat(first.streams().state()).isEqualTo(KafkaStreams.State.RUNNING);
        assertThat(threadsReplaced(first)).isZero();
        assertThat(quarantined(first)).as("still quarantined").isEqualTo(1.0);

        // The object is removed (as its fix), then the engine restarts on its state directory.
        inputs.deletePod(POISONED, DepartmentReclaimScene.NS, PILL).flush();
        first.close();
        final long restarted = System.nanoTime();
        final Engine second = instances.start(stateDir, Map.of());
        await()
            .atMost(EngineInstances.timeout())
            .untilAsserted(
                () -> {
                  outputs.poll().assertTablesMatch(inputs.model(), CLUSTERS);
                  assertThat(outputs.evictionIds()).containsAll(victimIds(CLUSTERS));
                });
        final long recomputedAfter = Duration.ofNanos(System.nanoTime() - restarted).toMillis();
        assertThat(quarantined(second)).isZero();
        assertThat(second.streams().state()).isEqualTo(KafkaStreams.State.RUNNING);
        assertThat(outputs.rejected()).as("nothing else rejected").hasSize(1);
        System.out.printf(
            "PoisonRecordIT: poison dead-lettered %d ms after it was sent; east recomputed and"
                + " reclaimed %d ms after the restart%n",
            quarantinedAfter, recomputedAfter);
      }
    }
  }

  private static List<String> victimIds(final List<String> clusters) {
    return clusters.stream()
        .flatMap(cluster -> DepartmentReclaimScene.victimCommandIds(cluster).stream())
        .toList();
  }

  private static double quarantined(final Engine engine) {
    return engine.metrics().registry().get(ClusterQuarantine.QUARANTINED).gauge().value();
  }

  private static double threadsReplaced(final Engine engine) {
    return engine.metrics().registry().get(EngineMetrics.THREADS_REPLACED).counter().count();
  }
}
