package io.quotaflow.source;

import static io.quotaflow.fixtures.KubeObjects.node;
import static io.quotaflow.fixtures.KubeObjects.pod;
import static io.quotaflow.fixtures.KubeObjects.quota;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quotaflow.broker.EmbeddedKafkaBroker;
import io.quotaflow.broker.EmbeddedKafkaExtension;
import io.quotaflow.fixtures.MockCluster;
import io.quotaflow.fixtures.TestTopics;
import io.quotaflow.fixtures.TopicReader;
import io.quotaflow.fixtures.TopicReader.Entry;
import io.quotaflow.kube.QuotaLabels;
import io.quotaflow.schemas.NodeKey;
import io.quotaflow.schemas.NodeState;
import io.quotaflow.schemas.PodKey;
import io.quotaflow.schemas.PodPhase;
import io.quotaflow.schemas.PodState;
import io.quotaflow.schemas.QuotaKey;
import io.quotaflow.schemas.QuotaSpec;
import io.quotaflow.topics.TopicCatalogue;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(EmbeddedKafkaExtension.class)
class KubeSourceIT {

  private static final Duration WAIT = Duration.ofSeconds(20);
  private static MockCluster mock;

  private final EmbeddedKafkaBroker broker;
  private TopicCatalogue topics;
  private String namespace;
  private SimpleMeterRegistry registry;
  private KubeSource source;

  KubeSourceIT(final EmbeddedKafkaBroker broker) {
    this.broker = broker;
  }

  @BeforeAll
  static void startCluster() {
    mock = MockCluster.start("east");
  }

  @AfterAll
  static void stopCluster() {
    mock.close();
  }

  @BeforeEach
  void freshTopicsAndNamespace() {
    topics = TestTopics.provision(broker);
    namespace = MockCluster.uniqueNamespace("source");
    registry = new SimpleMeterRegistry();
  }

  @AfterEach
  void stopSource() {
    if (source != null) {
      source.close();
    }
  }

  @Test
  void aPodBecomesARecordKeyedByClusterAndAnUpdateReplacesIt() {
    startSource();
    mock.client()
        .resource(
            pod(namespace, "web-1")
                .quota("team-a")
                .request("cpu", "500m")
                .request("memory", "1Gi")
                .priority(7)
                .build())
        .create();

    try (TopicReader<PodKey, PodState> pods = new TopicReader<>(broker, topics.pods())) {
      final PodKey key = podKey("web-1");
      final PodState first = awaitValue(pods, key, state -> true);
      assertThat(first.getQuotaName()).contains("team-a");
      assertThat(first.getRequests()).isEqualTo(Map.of("cpu", 500L, "memory", 1L << 30));
      assertThat(first.getPriority()).isEqualTo(7);
      assertThat(first.getPhase()).isEqualTo(PodPhase.PENDING);
      assertThat(first.getNodeName()).isEmpty();
      assertThat(first.getProblems()).isEmpty();

      mock.client().pods().inNamespace(namespace).withName("web-1").edit(p -> edited(p, "node-a"));

      final PodState second = awaitValue(pods, key, state -> state.getNodeName().isPresent());
      assertThat(second.getNodeName()).contains("node-a");
      assertThat(second.getPhase()).isEqualTo(PodPhase.RUNNING);
      assertThat(second.getUid()).isEqualTo(first.getUid());
    }
  }

  @Test
  void anUpdateOfSomethingQuotaflowDoesNotReadWritesNothing() {
    startSource();
    mock.client().resource(pod(namespace, "web-1").quota("team-a").build()).create();

    try (TopicReader<PodKey, PodState> pods = new TopicReader<>(broker, topics.pods())) {
      awaitValue(pods, podKey("web-1"), state -> true);
      final double unchangedBefore = unchanged("pods");

      mock.client()
          .pods()
          .inNamespace(namespace)
          .withName("web-1")
          .edit(p -> withLabel(p, "app.kubernetes.io/version", "2"));

      await().atMost(WAIT).until(() -> unchanged("pods") > unchangedBefore);
      assertThat(pods.read(podKey("web-1")::equals)).hasSize(1);
    }
  }

  @Test
  void aDeletedPodBecomesATombstone() {
    startSource();
    mock.client().resource(pod(namespace, "batch-1").build()).create();

    try (TopicReader<PodKey, PodState> pods = new TopicReader<>(broker, topics.pods())) {
      awaitValue(pods, podKey("batch-1"), state -> true);

      mock.client().pods().inNamespace(namespace).withName("batch-1").delete();

      await()
          .atMost(WAIT)
          .untilAsserted(
              () -> assertThat(pods.last(podKey("batch-1"))).get().matches(Entry::isTombstone));
    }
  }

  @Test
  void anElasticQuotaBecomesAGroupSpecAndItsDeleteATombstone() {
    startSource();
    final String name = MockCluster.uniqueNamespace("team");
    mock.quotas()
        .resource(
            quota(namespace, name)
                .min("cpu", "10")
                .max("cpu", "20")
                .max("memory", "40Gi")
                .parent("dept-a")
                .annotation(QuotaLabels.NAMESPACES, "[\"" + namespace + "\"]")
                .annotation(QuotaLabels.SHARED_WEIGHT, "{\"cpu\":\"3\"}")
                .build())
        .create();

    try (TopicReader<QuotaKey, QuotaSpec> quotas = new TopicReader<>(broker, topics.quotas())) {
      final QuotaKey key = QuotaKey.newBuilder().setCluster("east").setName(name).build();
      final QuotaSpec spec = awaitValue(quotas, key, s -> true);
      assertThat(spec.getMin()).isEqualTo(Map.of("cpu", 10_000L));
      assertThat(spec.getMax()).isEqualTo(Map.of("cpu", 20_000L, "memory", 40L << 30));
      assertThat(spec.getParent()).contains("dept-a");
      assertThat(spec.getSharedWeight()).contains(Map.of("cpu", 3_000L));
      assertThat(spec.getNamespaces()).containsExactly(namespace);
      assertThat(spec.getAllowLent()).isTrue();
      assertThat(spec.getProblems()).isEmpty();

      mock.quotas().inNamespace(namespace).withName(name).delete();

      await()
          .atMost(WAIT)
          .untilAsserted(() -> assertThat(quotas.last(key)).get().matches(Entry::isTombstone));
    }
  }

  @Test
  void aMalformedElasticQuotaIsPublishedWithItsProblemsMarked() {
    startSource();
    final String name = MockCluster.uniqueNamespace("broken");
    mock.quotas()
        .resource(
            quota(namespace, name)
                .min("cpu", "ten")
                .max("cpu", "20")
                .annotation(QuotaLabels.SHARED_WEIGHT, "{not json")
                .build())
        .create();

    try (TopicReader<QuotaKey, QuotaSpec> quotas = new TopicReader<>(broker, topics.quotas())) {
      final QuotaKey key = QuotaKey.newBuilder().setCluster("east").setName(name).build();
      final QuotaSpec spec = awaitValue(quotas, key, s -> true);

      assertThat(spec.getMax()).isEqualTo(Map.of("cpu", 20_000L));
      assertThat(spec.getMin()).isEmpty();
      assertThat(spec.getSharedWeight()).isEmpty();
      assertThat(spec.getProblems())
          .extracting(problem -> problem.getField())
          .containsExactlyInAnyOrder(
              "spec.min[cpu]", "metadata.annotations[" + QuotaLabels.SHARED_WEIGHT + "]");
      assertThat(registry.get(SourceMetrics.MALFORMED).tag("kind", "quotas").counter().count())
          .isGreaterThanOrEqualTo(1.0);
    }
  }

  @Test
  void aNodeBecomesItsAllocatableAndReadinessAndCordoningIsSeen() {
    startSource();
    final String name = MockCluster.uniqueNamespace("node");
    mock.client()
        .resource(node(name).allocatable("cpu", "8").allocatable("memory", "32Gi").build())
        .create();

    try (TopicReader<NodeKey, NodeState> nodes = new TopicReader<>(broker, topics.nodes())) {
      final NodeKey key = NodeKey.newBuilder().setCluster("east").setName(name).build();
      final NodeState state = awaitValue(nodes, key, s -> true);
      assertThat(state.getAllocatable()).isEqualTo(Map.of("cpu", 8_000L, "memory", 32L << 30));
      assertThat(state.getReady()).isTrue();
      assertThat(state.getSchedulable()).isTrue();

      mock.client().nodes().withName(name).edit(n -> cordoned(n));

      assertThat(awaitValue(nodes, key, s -> !s.getSchedulable()).getSchedulable()).isFalse();

      mock.client().nodes().withName(name).delete();
      await()
          .atMost(WAIT)
          .untilAsserted(() -> assertThat(nodes.last(key)).get().matches(Entry::isTombstone));
    }
  }

  @Test
  void aPodDeletedWhileTheSourceWasStoppedGetsItsTombstoneOnRestart() {
    startSource();
    mock.client().resource(pod(namespace, "stays").build()).create();
    mock.client().resource(pod(namespace, "goes").build()).create();

    try (TopicReader<PodKey, PodState> pods = new TopicReader<>(broker, topics.pods())) {
      awaitValue(pods, podKey("stays"), state -> true);
      awaitValue(pods, podKey("goes"), state -> true);
      source.close();

      mock.client().pods().inNamespace(namespace).withName("goes").delete();
      startSource();

      await()
          .atMost(WAIT)
          .untilAsserted(
              () -> assertThat(pods.last(podKey("goes"))).get().matches(Entry::isTombstone));
      assertThat(pods.read(podKey("stays")::equals))
          .as("an unchanged pod is not written again after a restart")
          .hasSize(1);
    }
  }

  @Test
  void aKeyTheClusterNoLongerHasIsTombstonedByReconciliation() {
    startSource();
    mock.client().resource(pod(namespace, "kept").build()).create();

    try (TopicReader<PodKey, PodState> pods = new TopicReader<>(broker, topics.pods())) {
      final PodState kept = awaitValue(pods, podKey("kept"), state -> true);
      // A record the source never saw deleted, as if written before a watch broke.
      writeStray(podKey("ghost"), kept);
      source.close();
      startSource();

      await()
          .atMost(WAIT)
          .untilAsserted(
              () -> assertThat(pods.last(podKey("ghost"))).get().matches(Entry::isTombstone));
    }
  }

  private void startSource() {
    source =
        new KubeSource(
            List.of(mock.cluster()),
            topics,
            TestTopics.kafka(broker),
            new SourceSettings(Duration.ofMinutes(10), Duration.ofMinutes(10), WAIT),
            registry);
    source.start().orTimeout(WAIT.toSeconds(), TimeUnit.SECONDS).join();
  }

  private void writeStray(final PodKey key, final PodState value) {
    try (KafkaProducer<PodKey, PodState> producer =
        new KafkaProducer<>(
            TestTopics.kafka(broker),
            topics.pods().keySerializer(),
            topics.pods().valueSerializer())) {
      producer.send(new ProducerRecord<>(topics.pods().name(), key, value));
    }
  }

  private PodKey podKey(final String name) {
    return PodKey.newBuilder().setCluster("east").setNamespace(namespace).setName(name).build();
  }

  private double unchanged(final String kind) {
    return registry.get(SourceMetrics.UNCHANGED).tag("kind", kind).counter().count();
  }

  private static <K, V> V awaitValue(
      final TopicReader<K, V> reader, final K key, final Predicate<V> condition) {
    return await()
        .atMost(WAIT)
        .until(() -> reader.last(key).flatMap(Entry::value).filter(condition), Optional::isPresent)
        .orElseThrow();
  }

  private static Pod edited(final Pod pod, final String node) {
    pod.getSpec().setNodeName(node);
    pod.getStatus().setPhase("Running");
    return pod;
  }

  private static Pod withLabel(final Pod pod, final String key, final String value) {
    pod.getMetadata().getLabels().put(key, value);
    return pod;
  }

  private static Node cordoned(final Node node) {
    node.getSpec().setUnschedulable(true);
    return node;
  }
}
