package io.quotaflow.connect;

import static io.quotaflow.connect.ConnectProcess.FIRST_START;
import static io.quotaflow.connect.ConnectProcess.NEXT_EVICTION;
import static io.quotaflow.fixtures.Evictions.awaitResult;
import static io.quotaflow.fixtures.Evictions.sendOfTeamA;
import static io.quotaflow.fixtures.KubeObjects.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.quotaflow.broker.EmbeddedKafkaBroker;
import io.quotaflow.fixtures.ConnectorRig;
import io.quotaflow.fixtures.EvictionEndpoint;
import io.quotaflow.fixtures.MockCluster;
import io.quotaflow.schemas.EvictionCommand;
import io.quotaflow.schemas.EvictionOutcome;
import io.quotaflow.topics.TopicCatalogue;
import io.quotaflow.topics.WriterHeaders;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two replicas of {@code quotaflow connect} against one cluster and one Kafka: one leads, the other
 * waits. The leader lost hard (kill -9: no lease release, no group leave) is replaced within the
 * lease duration, and the new leader carries out the next eviction command; a leader stopped by
 * SIGTERM releases the lease, and the other takes over at its next try.
 */
@Tag("fault")
class LeaderHandOverIT {

  private static final Duration LEASE = Duration.ofSeconds(4);
  private static final Duration RETRY = Duration.ofMillis(500);

  @RegisterExtension static final ConnectorRig rig = new ConnectorRig("handover");

  @TempDir Path dir;

  @Test
  void theFollowerTakesOverWithinTheLeaseWhenTheLeaderIsLostAndAtOnceWhenItStops()
      throws Exception {
    final MockCluster mock = rig.mock();
    final EmbeddedKafkaBroker broker = rig.broker();
    final TopicCatalogue topics = rig.topics();
    final String namespace = rig.namespace();
    final String lease = MockCluster.uniqueNamespace("lease");
    final Map<String, String> settings =
        ConnectProcess.settings(
            topics,
            lease,
            Map.of(
                "QUOTAFLOW_LEADER_ELECTION_LEASE_DURATION",
                LEASE.toMillis() + "ms",
                "QUOTAFLOW_LEADER_ELECTION_RENEW_DEADLINE",
                "3s",
                "QUOTAFLOW_LEADER_ELECTION_RETRY_PERIOD",
                RETRY.toMillis() + "ms"));
    final Path kubeconfig = ConnectProcess.kubeconfig(mock, dir);

    try (ConnectProcess a = ConnectProcess.start("connectors-a", broker, kubeconfig, settings)) {
      await()
          .atMost(FIRST_START)
          .untilAsserted(() -> assertThat(a.leads(mock, lease)).as(a.log()).isTrue());
      final Pod first = createPod(namespace, "batch-1");
      EvictionEndpoint.of(mock, namespace, "batch-1").accepts();
      assertThat(awaitResult(broker, topics, sendOfTeamA(rig, first), FIRST_START).getOutcome())
          .as(a.log())
          .isEqualTo(EvictionOutcome.EVICTED);
      // Every record the leader's source writes names the cluster and the leader's term.
      final long firstTerm = newestWriter(topics).orElseThrow().epoch();
      assertThat(newestWriter(topics).orElseThrow().clusterUid()).contains(mock.kubeSystemUid());

      try (ConnectProcess b = ConnectProcess.start("connectors-b", broker, kubeconfig, settings)) {
        await().atMost(FIRST_START).until(() -> b.log().contains("connectors-b follows"));

        // The leader's node is lost.
        a.kill();
        final Pod second = createPod(namespace, "batch-2");
        EvictionEndpoint.of(mock, namespace, "batch-2").accepts();
        final EvictionCommand command = sendOfTeamA(rig, second);

        await()
            .atMost(LEASE.plus(RETRY).plusSeconds(1))
            .pollInterval(Duration.ofMillis(100))
            .untilAsserted(() -> assertThat(b.leads(mock, lease)).as(b.log()).isTrue());
        assertThat(awaitResult(broker, topics, command, NEXT_EVICTION).getOutcome())
            .as(b.log())
            .isEqualTo(EvictionOutcome.EVICTED);
        // The new leader's records carry a higher epoch: the engine drops the old one's from now
        // on (issue 40.12).
        await()
            .atMost(NEXT_EVICTION)
            .untilAsserted(
                () ->
                    assertThat(newestWriter(topics).orElseThrow().epoch())
                        .as(b.log())
                        .isGreaterThan(firstTerm));

        // A replaces itself as a follower; B is stopped as Kubernetes stops a pod.
        try (ConnectProcess again =
            ConnectProcess.start("connectors-a", broker, kubeconfig, settings)) {
          await().atMost(FIRST_START).until(() -> again.log().contains("connectors-a follows"));
          b.terminate();
          assertThat(b.awaitExit(Duration.ofSeconds(5))).as(b.log()).isTrue();
          // Released: taken at the next try, well within the lease duration.
          await()
              .atMost(RETRY.multipliedBy(2).plusSeconds(1))
              .pollInterval(Duration.ofMillis(100))
              .untilAsserted(() -> assertThat(again.leads(mock, lease)).as(again.log()).isTrue());
          final Pod third = createPod(namespace, "batch-3");
          EvictionEndpoint.of(mock, namespace, "batch-3").accepts();
          assertThat(
                  awaitResult(broker, topics, sendOfTeamA(rig, third), NEXT_EVICTION.plus(LEASE))
                      .getOutcome())
              .as(again.log())
              .isEqualTo(EvictionOutcome.EVICTED);
        }
      }
    }
  }

  /** The writer named by the newest record's headers on pods.v1 (heartbeats come every 10 s). */
  private static Optional<WriterHeaders.Writer> newestWriter(final TopicCatalogue topics) {
    final String topic = topics.pods().name();
    try (KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(
            Map.<String, Object>of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, rig.broker().bootstrapServers()),
            new ByteArrayDeserializer(),
            new ByteArrayDeserializer())) {
      final List<TopicPartition> partitions =
          consumer.partitionsFor(topic).stream()
              .map(info -> new TopicPartition(topic, info.partition()))
              .toList();
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      final Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
      ConsumerRecord<byte[], byte[]> newest = null;
      while (partitions.stream().anyMatch(p -> consumer.position(p) < ends.get(p))) {
        for (final ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
          if (newest == null || record.timestamp() >= newest.timestamp()) {
            newest = record;
          }
        }
      }
      return newest == null ? Optional.empty() : WriterHeaders.read(newest.headers());
    }
  }

  private static Pod createPod(final String namespace, final String name) {
    return rig.mock().create(pod(namespace, name).running("node-a").build());
  }
}
