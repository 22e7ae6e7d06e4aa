package io.quotaflow.source;

import static io.quotaflow.fixtures.KubeObjects.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quotaflow.broker.EmbeddedKafkaBroker;
import io.quotaflow.broker.EmbeddedKafkaExtension;
import io.quotaflow.fixtures.MockCluster;
import io.quotaflow.fixtures.TestTopics;
import io.quotaflow.fixtures.TopicReader;
import io.quotaflow.schemas.PodKey;
import io.quotaflow.schemas.PodState;
import io.quotaflow.topics.TopicCatalogue;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(EmbeddedKafkaExtension.class)
class TwoClustersSourceIT {

  private static final Duration WAIT = Duration.ofSeconds(20);
  private static MockCluster east;
  private static MockCluster west;

  @BeforeAll
  static void startClusters() {
    east = MockCluster.start("east");
    west = MockCluster.start("west");
  }

  @AfterAll
  static void stopClusters() {
    east.close();
    west.close();
    // Static fields outlive the class's tests: let the run collect the closed clusters.
    east = null;
    west = null;
  }

  @Test
  void podsWithTheSameNameInTwoClustersAreTwoRecordsTaggedWithTheirCluster(
      final EmbeddedKafkaBroker broker) {
    final TopicCatalogue topics = TestTopics.provision(broker);
    final String namespace = MockCluster.uniqueNamespace("shared");
    east.client().resource(pod(namespace, "web-1").quota("east-team").build()).create();
    west.client().resource(pod(namespace, "web-1").quota("west-team").build()).create();

    try (KubeSource source =
            new KubeSource(
                List.of(east.cluster(), west.cluster()),
                topics,
                TestTopics.kafka(broker),
                SourceSettings.defaults(),
                new SimpleMeterRegistry());
        TopicReader<PodKey, PodState> pods = new TopicReader<>(broker, topics.pods())) {
      source.start().orTimeout(WAIT.toSeconds(), TimeUnit.SECONDS).join();

      await()
          .atMost(WAIT)
          .untilAsserted(
              () ->
                  assertThat(pods.read(key -> key.getNamespace().equals(namespace)))
                      .extracting(
                          entry ->
                              entry.key().getCluster()
                                  + ":"
                                  + entry.value().orElseThrow().getQuotaName().orElseThrow())
                      .containsExactlyInAnyOrder("east:east-team", "west:west-team"));
    }
  }
}
