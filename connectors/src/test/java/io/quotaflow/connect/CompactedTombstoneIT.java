package io.quotaflow.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.quotaflow.engine.Engine;
import io.quotaflow.engine.config.EngineSettings;
import io.quotaflow.engine.metrics.EngineMetrics;
import io.quotaflow.fixtures.BorrowingOrganisation;
import io.quotaflow.fixtures.ConnectorRig;
import io.quotaflow.fixtures.Keys;
import io.quotaflow.fixtures.MockCluster;
import io.quotaflow.fixtures.Pipeline;
import io.quotaflow.fixtures.TopicReader;
import io.quotaflow.fixtures.TrueState;
import io.quotaflow.quota.PodRef;
import io.quotaflow.schemas.PodKey;
import io.quotaflow.schemas.PodState;
import io.quotaflow.source.SourceSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.storage.internals.log.CleanerConfig;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 26, an engine offline past the tombstone retention, for real: while the engine is stopped a
 * pod is deleted, and the log cleaner removes both its record and its tombstone from the pods topic
 * before the engine is back. The restarted engine resumes after its last commit and can never read
 * the delete: it holds a ghost until the connectors' next snapshot, which does not re-send the pod.
 * The broker's cleaner runs every 100 ms and the pods topic is made to compact at once (new
 * segments every 100 ms, tombstones kept 0 ms) only while the engine is stopped.
 */
class CompactedTombstoneIT {

  private static final Duration WAIT = Duration.ofSeconds(60);

  @RegisterExtension
  static final ConnectorRig rig =
      new ConnectorRig("compacted")
          .faultyMockPerTest()
          .ownBroker(Map.of(CleanerConfig.LOG_CLEANER_BACKOFF_MS_PROP, "100"));

  private static final Map<String, String> AT_ONCE =
      Map.of(
          TopicConfig.SEGMENT_MS_CONFIG, "100",
          TopicConfig.MIN_COMPACTION_LAG_MS_CONFIG, "0",
          TopicConfig.DELETE_RETENTION_MS_CONFIG, "0",
          TopicConfig.MIN_CLEANABLE_DIRTY_RATIO_CONFIG, "0.01");

  @TempDir Path stateDir;

  @Test
  void aPodWhoseTombstoneWasCompactedAwayWhileTheEngineWasStoppedIsDroppedByTheNextSnapshot()
      throws Exception {
    final MockCluster mock = rig.mock();
    BorrowingOrganisation.create(mock, rig.namespace());
    final PodKey gone = Keys.pod(rig.namespace(), "a-1");
    try (Pipeline loop =
        Pipeline.on(rig, stateDir)
            .sourceSettings(SourceSettings.defaults().withHeartbeatInterval(Duration.ofMillis(500)))
            .engineSetting(EngineSettings.INPUTS_MAX_STALENESS.key(), "3s")
            .start()) {
      awaitTrueState(loop.engine());

      loop.restartEngine(
          () -> {
            final Map<String, String> configs = uncheck(CompactedTombstoneIT::compactAtOnce);
            mock.client().pods().inNamespace(rig.namespace()).withName("a-1").delete();
            await()
                .atMost(WAIT)
                .untilAsserted(
                    () -> {
                      try (TopicReader<PodKey, PodState> pods = rig.reader(rig.topics().pods())) {
                        assertThat(pods.read(gone::equals))
                            .as("a-1's records, its tombstone included, compacted away")
                            .isEmpty();
                      }
                    });
            uncheck(() -> restoreConfigs(configs));
          });
      final Engine engine = loop.engine();
      await()
          .atMost(WAIT)
          .ignoreExceptionsInstanceOf(InvalidStateStoreException.class)
          .untilAsserted(
              () ->
                  assertThat(engine.queries().podsOf(mock.name(), "team-a"))
                      .as("the restarted engine never read a-1's delete")
                      .extracting(pod -> pod.ref())
                      .contains(new PodRef(rig.namespace(), "a-1")));
      final double droppedBefore = dropped();

      // The connectors' next snapshot: the one after a relist (it would come within
      // source.snapshot.interval otherwise).
      final long relist = System.nanoTime();
      mock.faults().expireWatches();
      awaitTrueState(engine);
      System.out.printf(
          "CompactedTombstoneIT: the ghost is gone %d ms after the watches expired%n",
          Duration.ofNanos(System.nanoTime() - relist).toMillis());
      assertThat(dropped()).as("dropped by the snapshot").isGreaterThan(droppedBefore);
      assertThat(engine.streams().state()).isEqualTo(KafkaStreams.State.RUNNING);
    }
  }

  /**
   * Sets the pods topic's configs, and returns what they were: a new segment every 100 ms, no
   * compaction lag and a tombstone kept 0 ms make the cleaner remove a delete within a second.
   */
  private static Map<String, String> compactAtOnce() throws Exception {
    final ConfigResource pods =
        new ConfigResource(ConfigResource.Type.TOPIC, rig.topics().pods().name());
    try (Admin admin = Admin.create(rig.kafka())) {
      final Config config = admin.describeConfigs(List.of(pods)).all().get().get(pods);
      final Map<String, String> before = new HashMap<>();
      for (final String name : AT_ONCE.keySet()) {
        before.put(name, config.get(name).value());
      }
      setConfigs(admin, pods, AT_ONCE);
      return before;
    }
  }

  private static void restoreConfigs(final Map<String, String> configs) throws Exception {
    final ConfigResource pods =
        new ConfigResource(ConfigResource.Type.TOPIC, rig.topics().pods().name());
    try (Admin admin = Admin.create(rig.kafka())) {
      setConfigs(admin, pods, configs);
    }
  }

  private static void setConfigs(
      final Admin admin, final ConfigResource topic, final Map<String, String> configs)
      throws Exception {
    final List<AlterConfigOp> ops =
        configs.entrySet().stream()
            .map(
                entry ->
                    new AlterConfigOp(
                        new ConfigEntry(entry.getKey(), entry.getValue()),
                        AlterConfigOp.OpType.SET))
            .toList();
    admin.incrementalAlterConfigs(Map.of(topic, ops)).all().get();
  }

  private static <T> T uncheck(final Callable<T> action) {
    try {
      return action.call();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static void uncheck(final ThrowingRunnable action) {
    uncheck(
        () -> {
          action.run();
          return null;
        });
  }

  private interface ThrowingRunnable {
    void run() throws Exception;
  }

  private static void awaitTrueState(final Engine engine) {
    await()
        .atMost(WAIT)
        .ignoreExceptionsInstanceOf(InvalidStateStoreException.class)
        .untilAsserted(() -> TrueState.assertEngineMatches(engine, rig.mock()));
  }

  private static double dropped() {
    return rig.registry().find(EngineMetrics.SNAPSHOT_DROPPED).counters().stream()
        .mapToDouble(counter -> counter.count())
        .sum();
  }
}
