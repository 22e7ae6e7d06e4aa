package io.quotaflow.status;

import static io.quotaflow.fixtures.KubeObjects.quota;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quotaflow.broker.EmbeddedKafkaBroker;
import io.quotaflow.broker.EmbeddedKafkaExtension;
import io.quotaflow.cluster.Sleeper;
import io.quotaflow.fixtures.MockCluster;
import io.quotaflow.fixtures.TestTopics;
import io.quotaflow.schemas.GroupRuntime;
import io.quotaflow.schemas.QuotaKey;
import io.quotaflow.topics.TopicCatalogue;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(EmbeddedKafkaExtension.class)
class StatusWriterIT {

  private static final Duration WAIT = Duration.ofSeconds(20);
  private static MockCluster mock;

  private final EmbeddedKafkaBroker broker;
  private TopicCatalogue topics;
  private String namespace;
  private String group;
  private SimpleMeterRegistry registry;
  private StatusWriter writer;
  private StatusMode mode = StatusMode.KOORDINATOR;

  StatusWriterIT(final EmbeddedKafkaBroker broker) {
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
    namespace = MockCluster.uniqueNamespace("status");
    group = MockCluster.uniqueNamespace("team");
    registry = new SimpleMeterRegistry();
  }

  @AfterEach
  void stopWriter() {
    if (writer != null) {
      writer.close();
    }
  }

  @Test
  void theRuntimeAndRequestAnnotationsAndStatusUsedAreWrittenAsKoordinatorWritesThem() {
    mock.quotas().resource(quota(namespace, group).min("cpu", "10").build()).create();
    start();

    send(
        runtime(
            Map.of("cpu", 10_000L, "memory", 20L << 30),
            Map.of("cpu", 12_500L),
            Map.of("cpu", 5_000L)));

    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              final GenericKubernetesResource quota = object();
              assertThat(quota.getMetadata().getAnnotations())
                  .containsEntry(
                      QuotaStatus.RUNTIME_ANNOTATION, "{\"cpu\":\"10\",\"memory\":\"20Gi\"}")
                  .containsEntry(QuotaStatus.REQUEST_ANNOTATION, "{\"cpu\":\"12500m\"}");
              assertThat(used(quota)).isEqualTo(Map.of("cpu", "5"));
            });
    assertThat(object().getAdditionalProperties().get("spec"))
        .as("the spec is left alone")
        .isEqualTo(Map.of("min", Map.of("cpu", "10"), "max", Map.of()));
  }

  @Test
  void inShadowModeOnlyQuotaflowsAnnotationsAreWrittenAndKoordinatorsAreLeftAlone() {
    mock.quotas()
        .resource(
            quota(namespace, group)
                .annotation(QuotaStatus.RUNTIME_ANNOTATION, "{\"cpu\":\"7\"}")
                .build())
        .create();
    mode = StatusMode.SHADOW;
    start();

    send(runtime(Map.of("cpu", 10_000L), Map.of("cpu", 12_500L), Map.of("cpu", 5_000L)));

    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertThat(object().getMetadata().getAnnotations())
                    .containsEntry("quotaflow.io/runtime", "{\"cpu\":\"10\"}")
                    .containsEntry("quotaflow.io/request", "{\"cpu\":\"12500m\"}"));
    assertThat(object().getMetadata().getAnnotations())
        .containsEntry(QuotaStatus.RUNTIME_ANNOTATION, "{\"cpu\":\"7\"}")
        .doesNotContainKey(QuotaStatus.REQUEST_ANNOTATION);
    assertThat(used(object())).isEmpty();
    assertThat(patches("status")).isZero();
  }

  @Test
  void aBurstOfRuntimesForOneGroupIsWrittenOnceWithTheLatest() {
    mock.quotas().resource(quota(namespace, group).build()).create();
    start();

    try (KafkaProducer<QuotaKey, GroupRuntime> producer = producer()) {
      for (long cpu = 1; cpu <= 20; cpu++) {
        producer.send(record(runtime(Map.of("cpu", cpu * 1000), Map.of(), Map.of())));
      }
    }

    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertThat(object().getMetadata().getAnnotations())
                    .containsEntry(QuotaStatus.RUNTIME_ANNOTATION, "{\"cpu\":\"20\"}"));
    // One flush normally takes the whole burst; one straddling a flush boundary takes two.
    assertThat(patches("annotations")).isBetween(1.0, 2.0);
  }

  @Test
  void aRuntimeTheObjectAlreadyShowsIsNotWrittenAgain() {
    mock.quotas().resource(quota(namespace, group).build()).create();
    start();
    final GroupRuntime value =
        runtime(Map.of("cpu", 4_000L), Map.of("cpu", 4_000L), Map.of("cpu", 1_000L));
    send(value);
    await().atMost(WAIT).until(() -> patches("status") == 1.0);

    send(value);

    await().atMost(WAIT).until(() -> skipped("unchanged") >= 1.0);
    assertThat(patches("annotations")).isEqualTo(1.0);
    assertThat(patches("status")).isEqualTo(1.0);
  }

  @Test
  void aGroupWithoutAnObjectIsSkippedAndWrittenOnceTheObjectAppears() {
    start();
    send(runtime(Map.of("cpu", 2_000L), Map.of(), Map.of()));
    await().atMost(WAIT).until(() -> skipped("missing") >= 1.0);

    mock.quotas().resource(quota(namespace, group).build()).create();

    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertThat(object().getMetadata().getAnnotations())
                    .containsEntry(QuotaStatus.RUNTIME_ANNOTATION, "{\"cpu\":\"2\"}"));
  }

  @Test
  void aResourceNoLongerUsedIsRemovedFromStatusUsed() {
    mock.quotas().resource(quota(namespace, group).build()).create();
    start();
    send(runtime(Map.of(), Map.of(), Map.of("cpu", 1_000L, "memory", 1L << 30)));
    await()
        .atMost(WAIT)
        .untilAsserted(() -> assertThat(used(object()).get("memory")).isEqualTo("1Gi"));

    send(runtime(Map.of(), Map.of(), Map.of("cpu", 2_000L)));

    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              final Map<?, ?> used = used(object());
              assertThat(used.get("cpu")).isEqualTo("2");
              assertThat(used.get("memory")).isNull();
            });
  }

  private void start() {
    writer =
        new StatusWriter(
            List.of(mock.cluster()),
            topics,
            TestTopics.kafka(broker),
            new StatusSettings(
                Duration.ofMillis(300),
                100,
                100,
                Duration.ofHours(1),
                "status-" + UUID.randomUUID(),
                mode),
            Clock.systemUTC(),
            Sleeper.SYSTEM,
            registry);
    writer.start();
  }

  private GroupRuntime runtime(
      final Map<String, Long> runtime,
      final Map<String, Long> request,
      final Map<String, Long> used) {
    return GroupRuntime.newBuilder()
        .setRuntime(runtime)
        .setRequest(request)
        .setUsed(used)
        .setComputedAt(Instant.parse("2026-03-01T12:00:00Z"))
        .build();
  }

  private void send(final GroupRuntime value) {
    try (KafkaProducer<QuotaKey, GroupRuntime> producer = producer()) {
      producer.send(record(value));
    }
  }

  private KafkaProducer<QuotaKey, GroupRuntime> producer() {
    return new KafkaProducer<>(
        TestTopics.kafka(broker),
        topics.runtime().keySerializer(),
        topics.runtime().valueSerializer());
  }

  private ProducerRecord<QuotaKey, GroupRuntime> record(final GroupRuntime value) {
    return new ProducerRecord<>(
        topics.runtime().name(),
        QuotaKey.newBuilder().setCluster("east").setName(group).build(),
        value);
  }

  private GenericKubernetesResource object() {
    return mock.quotas().inNamespace(namespace).withName(group).get();
  }

  private static Map<?, ?> used(final GenericKubernetesResource quota) {
    if (quota.getAdditionalProperties().get("status") instanceof Map<?, ?> status
        && status.get("used") instanceof Map<?, ?> used) {
      return used;
    }
    return Map.of();
  }

  private double patches(final String part) {
    return registry.find("quotaflow.status.patches").tag("part", part).counters().stream()
        .mapToDouble(Counter::count)
        .sum();
  }

  private double skipped(final String reason) {
    return registry.find("quotaflow.status.skipped").tag("reason", reason).counters().stream()
        .mapToDouble(Counter::count)
        .sum();
  }
}
