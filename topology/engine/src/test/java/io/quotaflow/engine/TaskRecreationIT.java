package io.quotaflow.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.quotaflow.broker.EmbeddedKafkaBroker;
import io.quotaflow.broker.EmbeddedKafkaExtension;
import io.quotaflow.engine.config.EngineConfig;
import io.quotaflow.engine.history.HistoryConfig;
import io.quotaflow.engine.history.HistoryQueries;
import io.quotaflow.engine.metrics.EngineMetrics;
import io.quotaflow.history.HistoryTiers;
import io.quotaflow.schemas.DenialOccasion;
import io.quotaflow.schemas.PodDenial;
import io.quotaflow.schemas.PodKey;
import io.quotaflow.topics.Topic;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A task that Kafka Streams closes dirty and re-creates (a TaskCorruptedException: a commit that
 * timed out, a fenced producer) comes back holding every cluster it held, as a clean restart does,
 * and goes on computing them.
 */
@ExtendWith(EmbeddedKafkaExtension.class)
class TaskRecreationIT {
  private static final List<String> CLUSTERS = List.of("east", "west", "north");
  // One cluster: the other tasks have nothing to read, so the consumer's poll after the failure
  // waits for the rebalance Kafka Streams enforces, which then completes before the revived task is
  // initialised (the defect's window).
  private static final List<String> ONE_CLUSTER = List.of("east");
  private static final String EAST = "east";
  private static final int DENIALS = 100;
  private static final HistoryTiers TIERS =
      HistoryConfig.tiers(EngineConfig.defaults()).orElseThrow();

  @Test
  void aCorruptedTaskIsRecreatedHoldingItsClusters(final EmbeddedKafkaBroker broker) {
    try (EngineInstances instances =
            new EngineInstances(broker.bootstrapServers(), CrashInjector.installedIn(Map.of()));
        KafkaInputs inputs = new KafkaInputs(broker.bootstrapServers(), instances.topics())) {
      final Engine engine = instances.start(EngineInstances.stateDir(), Map.of());
      final Workload churn = new Workload(5, CLUSTERS);
      churn.send(inputs, 300);
      inputs.flush();
      await()
          .atMost(EngineInstances.timeout())
          .untilAsserted(() -> HeldState.assertQueriesMatch(engine, inputs.model(), CLUSTERS));

      final long initialised = HeldState.rebuilds(engine);
      CrashInjector.corruptNextTask(instances.applicationId());
      churn.send(inputs, 100);
      inputs.flush();
      await()
          .atMost(EngineInstances.timeout())
          .untilAsserted(() -> assertThat(HeldState.rebuilds(engine)).isGreaterThan(initialised));

      // Recreated, it holds every cluster and computes the inputs that arrive after.
      churn.send(inputs, 100);
      inputs.flush();
      await()
          .atMost(EngineInstances.timeout())
          .untilAsserted(() -> HeldState.assertQueriesMatch(engine, inputs.model(), CLUSTERS));
    }
  }

  /**
   * Issue 40.7: the task fails at the first record of a batch its consumer has fetched whole. Kafka
   * Streams 4.3.1 replaces the revived task by a new one that reads on from the consumer's fetch
   * position, past the rest of the batch (docs/upstream/kafka-streams-revived-task-skips-fetched-
   * records.md); nothing is sent after, so a record skipped is lost for good. The engine finds the
   * gap at the new task's first record, its stream thread rejoins, and reads from the committed
   * offset.
   */
  @Test
  void aTaskCorruptedWithABatchFetchedReadsTheWholeBatchAfterItsRecreation(
      final EmbeddedKafkaBroker broker) {
    try (EngineInstances instances =
            new EngineInstances(broker.bootstrapServers(), CrashInjector.installedIn(Map.of()));
        KafkaInputs inputs = new KafkaInputs(broker.bootstrapServers(), instances.topics())) {
      final Engine engine = instances.start(EngineInstances.stateDir(), Map.of());
      final Workload churn = new Workload(7, ONE_CLUSTER);
      churn.send(inputs, 200);
      inputs.flush();
      await()
          .atMost(EngineInstances.timeout())
          .untilAsserted(() -> HeldState.assertQueriesMatch(engine, inputs.model(), ONE_CLUSTER));

      final long initialised = HeldState.rebuilds(engine);
      CrashInjector.corruptNextTask(instances.applicationId());
      final int sent = churn.send(inputs, 200);
      inputs.flush();
      final long corrupted = System.nanoTime();
      await()
          .atMost(EngineInstances.timeout())
          .untilAsserted(() -> assertThat(HeldState.rebuilds(engine)).isGreaterThan(initialised));

      await()
          .atMost(EngineInstances.timeout())
          .untilAsserted(() -> HeldState.assertQueriesMatch(engine, inputs.model(), ONE_CLUSTER));
      System.out.printf(
          "%d events after the corruption; trees matched after %d ms; inputs.skipped: %.0f%n",
          sent,
          Duration.ofNanos(System.nanoTime() - corrupted).toMillis(),
          engine.metrics().registry().get(EngineMetrics.INPUTS_SKIPPED).counter().count());
    }
  }

  /**
   * Issue 40.7 for denials, which nobody writes again: the task is corrupted at the first of 100
   * denials its consumer fetched together; every one must be counted in the group's history.
   */
  @Test
  void aTaskCorruptedWithDenialsFetchedCountsEveryDenial(final EmbeddedKafkaBroker broker)
      throws Exception {
    try (EngineInstances instances =
            new EngineInstances(broker.bootstrapServers(), CrashInjector.installedIn(Map.of()));
        KafkaInputs inputs = new KafkaInputs(broker.bootstrapServers(), instances.topics())) {
      final Engine engine = instances.start(EngineInstances.stateDir(), Map.of());
      inputs
          .putNode(EAST, "n1", Inputs.node(10_000))
          .putQuota(EAST, "team-a", Inputs.quota().min(Inputs.cpu(5_000)).build());
      inputs.flush();
      // Queries fail while the instance starts or rejoins: asked again.
      await()
          .atMost(EngineInstances.timeout())
          .ignoreExceptions()
          .until(() -> engine.queries().group(EAST, "team-a").isPresent());

      final Instant at = Instant.now().truncatedTo(ChronoUnit.MINUTES);
      final Topic<PodKey, PodDenial> denials = instances.topics().denials();
      CrashInjector.corruptNextTask(instances.applicationId());
      for (int i = 0; i < DENIALS; i++) {
        inputs.raw(
            denials.name(),
            denials.keySerializer().serialize(denials.name(), new PodKey(EAST, "apps", "p" + i)),
            denials
                .valueSerializer()
                .serialize(
                    denials.name(),
                    PodDenial.newBuilder()
                        .setGroup("team-a")
                        .setReasonCode("exceeds-max")
                        .setOccasion(DenialOccasion.WEBHOOK)
                        .setAt(at)
                        .build()));
      }
      inputs.flush();
      final long corrupted = System.nanoTime();

      await()
          .atMost(EngineInstances.timeout())
          .ignoreExceptions()
          .untilAsserted(
              () ->
                  assertThat(
                          HistoryQueries.of(engine.streams(), TIERS)
                              .totals(
                                  EAST,
                                  List.of("team-a"),
                                  at,
                                  at.plus(Duration.ofMinutes(2)),
                                  Instant.now())
                              .get("team-a")
                              .denials())
                      .isEqualTo(Map.of("exceeds-max", (long) DENIALS)));
      System.out.printf(
          "%d denials counted %d ms after the corruption; inputs.skipped: %.0f%n",
          DENIALS,
          Duration.ofNanos(System.nanoTime() - corrupted).toMillis(),
          engine.metrics().registry().get(EngineMetrics.INPUTS_SKIPPED).counter().count());
    }
  }
}
