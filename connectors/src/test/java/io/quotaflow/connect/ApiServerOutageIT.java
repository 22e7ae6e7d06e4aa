package io.quotaflow.connect;

import static io.quotaflow.fixtures.KubeObjects.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.micrometer.core.instrument.Gauge;
import io.quotaflow.engine.Engine;
import io.quotaflow.engine.config.EngineSettings;
import io.quotaflow.engine.metrics.EngineMetrics;
import io.quotaflow.fixtures.ApiServerFaults;
import io.quotaflow.fixtures.BorrowingOrganisation;
import io.quotaflow.fixtures.ConnectorRig;
import io.quotaflow.fixtures.MockCluster;
import io.quotaflow.fixtures.Pipeline;
import io.quotaflow.fixtures.TestTopics;
import io.quotaflow.fixtures.TopicReader;
import io.quotaflow.fixtures.TrueState;
import io.quotaflow.kube.PodAdapter;
import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.schemas.EvictionCommand;
import io.quotaflow.schemas.PodKey;
import io.quotaflow.schemas.PodState;
import io.quotaflow.source.KubeSource;
import io.quotaflow.source.RecordMapping;
import io.quotaflow.source.SourceSettings;
import io.quotaflow.topics.ClusterPartitioner;
import io.quotaflow.tree.GroupStatus;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 26 with the API server at fault, end to end (connectors, broker, engine, executor): the
 * engine must never act on a picture of the cluster the connectors could not keep true, and must
 * converge to the cluster's true state, ghosts included, once they can. Timings are scaled down:
 * heartbeats every 500 ms, staleness bound 3 s, revoke delay 10 s.
 */
@Tag("fault")
class ApiServerOutageIT {

  private static final Duration WAIT = Duration.ofSeconds(60);
  // Longer than the revoke delay: an engine reclaiming on its stale picture would evict meanwhile.
  private static final Duration OUTAGE = Duration.ofSeconds(15);

  @RegisterExtension
  static final ConnectorRig rig = new ConnectorRig("api-outage").faultyMockPerTest();

  @TempDir Path stateDir;

  /**
   * team-a borrows, team-b claims its guarantee (team-a over-used, its clock toward the revoke
   * delay running); then the API server expires every watch (410 Gone) and is away for longer than
   * the revoke delay while team-b's claim and one of team-a's pods are deleted and a pod is
   * created. The engine keeps its stale picture but suspends reclaim; once the API server is back,
   * the informers' relist and snapshot bring it to the true state: no ghost, no eviction.
   */
  @Test
  void podsDeletedWhileTheApiServerIsAwayLeaveNoGhostAndNothingIsEvictedOnTheStalePicture()
      throws Exception {
    final MockCluster mock = rig.mock();
    final BorrowingOrganisation organisation = BorrowingOrganisation.create(mock, rig.namespace());
    try (Pipeline loop = fastFreshness(Pipeline.on(rig, stateDir)).start();
        TopicReader<PodKey, EvictionCommand> commands = rig.reader(rig.topics().evictions())) {
      final Engine engine = loop.engine();
      awaitTrueState(engine);
      await().atMost(WAIT).until(() -> reclaimSuspended() == 0);
      organisation.teamBClaimsItsGuarantee();
      await()
          .atMost(WAIT)
          .ignoreExceptionsInstanceOf(InvalidStateStoreException.class)
          .untilAsserted(
              () -> assertThat(runtime(engine, "team-a")).isEqualTo(ResourceList.of("cpu", 2_000)));

      final ApiServerFaults faults = mock.faults();
      faults.goDown();
      final long down = System.nanoTime();
      await().atMost(WAIT).until(() -> faults.openWatches() == 0);
      mock.client().pods().inNamespace(rig.namespace()).withName("b-1").delete();
      mock.client().pods().inNamespace(rig.namespace()).withName("a-1").delete();
      mock.client()
          .resource(pod(rig.namespace(), "b-2").quota("team-b").request("cpu", "1").build())
          .create();

      await().atMost(WAIT).until(() -> reclaimSuspended() == 1);
      assertThat(runtime(engine, "team-a"))
          .as("the engine's picture is the stale one: it saw none of the changes")
          .isEqualTo(ResourceList.of("cpu", 2_000));
      // The outage itself lasts OUTAGE: not a wait for a condition.
      Thread.sleep(Math.max(0, OUTAGE.minusNanos(System.nanoTime() - down).toMillis()));
      assertThat(reclaimSuspended()).as("still suspended at the end of the outage").isEqualTo(1);
      faults.comeBack();
      final long back = System.nanoTime();

      awaitTrueState(engine);
      System.out.printf(
          "ApiServerOutageIT: the engine equals the true state %d ms after the API server's"
              + " return (outage %d s)%n",
          Duration.ofNanos(System.nanoTime() - back).toMillis(), OUTAGE.toSeconds());
      assertThat(engine.queries().podsOf(mock.name(), "team-b"))
          .extracting(pod -> pod.ref().name())
          .containsExactly("b-2");
      assertThat(commands.read()).as("no eviction command on the stale picture").isEmpty();
      assertThat(organisation.hasPod("a-2")).isTrue();
      await().atMost(WAIT).until(() -> reclaimSuspended() == 0);
      assertThat(engine.streams().state()).isEqualTo(KafkaStreams.State.RUNNING);
      assertThat(watchDown("pods")).as("the connectors watch again").isZero();
    }
  }

  /**
   * Stands for an engine offline past the tombstone retention: a pod's record whose tombstone the
   * engine never read (here written straight into the pods topic, on the cluster's partition, as a
   * lost delete leaves it). The engine counts the ghost until the connectors' next snapshot, here
   * the one after a relist (the API server expiring the watches), which does not re-send it.
   */
  @Test
  void aGhostWhoseTombstoneWasNeverReadIsDroppedByTheNextSnapshot() throws Exception {
    final MockCluster mock = rig.mock();
    BorrowingOrganisation.create(mock, rig.namespace());
    try (Pipeline loop = fastFreshness(Pipeline.on(rig, stateDir)).start()) {
      final Engine engine = loop.engine();
      awaitTrueState(engine);
      final Pod ghost = pod(rig.namespace(), "ghost").quota("team-a").request("cpu", "3").build();
      ghost.getMetadata().setUid(UUID.randomUUID().toString());
      writeToTheClustersPartition(PodAdapter.toQuotaPod(ghost));
      await()
          .atMost(WAIT)
          .ignoreExceptionsInstanceOf(InvalidStateStoreException.class)
          .untilAsserted(
              () ->
                  assertThat(engine.queries().podsOf(mock.name(), "team-a"))
                      .extracting(pod -> pod.ref())
                      .contains(new PodRef(rig.namespace(), "ghost")));
      assertThat(engine.queries().group(mock.name(), "team-a").map(GroupStatus::request))
          .as("the ghost is counted")
          .contains(ResourceList.of("cpu", 9_000));
      final double droppedBefore = dropped();

      final long relist = System.nanoTime();
      mock.faults().expireWatches();
      awaitTrueState(engine);
      System.out.printf(
          "ApiServerOutageIT: the ghost is gone %d ms after the watches expired%n",
          Duration.ofNanos(System.nanoTime() - relist).toMillis());
      assertThat(dropped()).as("dropped by the snapshot").isGreaterThan(droppedBefore);
      assertThat(engine.streams().state()).isEqualTo(KafkaStreams.State.RUNNING);
    }
  }

  private static Pipeline fastFreshness(final Pipeline pipeline) {
    return pipeline
        .sourceSettings(SourceSettings.defaults().withHeartbeatInterval(Duration.ofMillis(500)))
        .engineSetting(EngineSettings.INPUTS_MAX_STALENESS.key(), "3s")
        .engineSetting(EngineSettings.REVOKE_DELAY.key(), "10s");
  }

  private static void awaitTrueState(final Engine engine) {
    await()
        .atMost(WAIT)
        .ignoreExceptionsInstanceOf(InvalidStateStoreException.class)
        .untilAsserted(() -> TrueState.assertEngineMatches(engine, rig.mock()));
  }

  /** Writes {@code pod}'s record as the connectors would, but nothing will ever delete it. */
  private static void writeToTheClustersPartition(final QuotaPod pod) {
    final String cluster = rig.mock().name();
    try (KafkaProducer<PodKey, PodState> producer = rig.producer(rig.topics().pods())) {
      producer.send(
          new ProducerRecord<>(
              rig.topics().pods().name(),
              ClusterPartitioner.partitionOf(cluster, TestTopics.PARTITIONS),
              RecordMapping.podKey(cluster, pod),
              RecordMapping.podState(pod)));
    }
  }

  private static ResourceList runtime(final Engine engine, final String group) {
    return engine
        .queries()
        .group(rig.mock().name(), group)
        .map(GroupStatus::runtime)
        .orElse(ResourceList.empty());
  }

  /** The engine's suspension gauge of the cluster; -1 until the engine publishes it. */
  private static double reclaimSuspended() {
    final Gauge gauge =
        rig.registry()
            .find(EngineMetrics.RECLAIM_SUSPENDED)
            .tag("cluster", rig.mock().name())
            .gauge();
    return gauge == null ? -1 : gauge.value();
  }

  private static double dropped() {
    return rig.registry().find(EngineMetrics.SNAPSHOT_DROPPED).counters().stream()
        .mapToDouble(counter -> counter.count())
        .sum();
  }

  private static double watchDown(final String kind) {
    return rig.registry()
        .get(KubeSource.WATCH_DOWN)
        .tag("cluster", rig.mock().name())
        .tag("kind", kind)
        .gauge()
        .value();
  }
}
