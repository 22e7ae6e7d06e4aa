package io.quotaflow.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.quotaflow.cluster.PodGroups;
import io.quotaflow.schemas.PodGang;
import io.quotaflow.schemas.PodKey;
import io.quotaflow.schemas.PodState;
import io.quotaflow.topics.Topic;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * Issue 28: {@code quotaflow local}'s connectors watch the PodGroups of its demo cluster (which
 * serves both PodGroup APIs), so a Volcano gang's pods reach the engine's input with their
 * PodGroup's minMember, and again with a new one when it changes.
 */
class LocalPodGroupsIT {

  private static final Duration WAIT = Duration.ofSeconds(60);

  @Test
  void aVolcanoGangsPodsCarryTheirPodGroupsMinMemberThroughLocalsConnectors() {
    final LocalRun run =
        LocalRun.start(
            LocalSettings.demo(PlayedScenarios.LOCAL.resolve("examples"), 0),
            new PrintWriter(new StringWriter(), true));
    try {
      final DemoCluster demo = run.demo().orElseThrow();
      demo.create(volcanoPodGroup("gangs", "job", 3));
      demo.create(
          new PodBuilder()
              .withNewMetadata()
              .withNamespace("gangs")
              .withName("job-0")
              .withAnnotations(Map.of("scheduling.k8s.io/group-name", "job"))
              .endMetadata()
              .withNewSpec()
              .endSpec()
              .build());
      final Topic<PodKey, PodState> pods = run.engineConfig().topics().pods();

      try (KafkaConsumer<PodKey, PodState> consumer = consumer(run, pods)) {
        assertThat(awaitMinMember(consumer, "job-0", Optional.of(3)).getConvention())
            .isEqualTo("volcano");

        demo.client()
            .genericKubernetesResources(PodGroups.VOLCANO)
            .inNamespace("gangs")
            .withName("job")
            .edit(
                podGroup -> {
                  podGroup.setAdditionalProperty("spec", Map.of("minMember", 5));
                  return podGroup;
                });

        awaitMinMember(consumer, "job-0", Optional.of(5));
      }
    } finally {
      run.close();
    }
  }

  private static GenericKubernetesResource volcanoPodGroup(
      final String namespace, final String name, final int minMember) {
    return new GenericKubernetesResourceBuilder()
        .withApiVersion("scheduling.volcano.sh/v1beta1")
        .withKind("PodGroup")
        .withNewMetadata()
        .withNamespace(namespace)
        .withName(name)
        .endMetadata()
        .withAdditionalProperties(Map.of("spec", Map.of("minMember", minMember)))
        .build();
  }

  private static KafkaConsumer<PodKey, PodState> consumer(
      final LocalRun run, final Topic<PodKey, PodState> pods) {
    final KafkaConsumer<PodKey, PodState> consumer =
        new KafkaConsumer<>(
            Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                run.bootstrapServers(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                "earliest",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                false),
            pods.keyDeserializer(),
            pods.valueDeserializer());
    // No group: every partition, from the start.
    final List<TopicPartition> partitions =
        consumer.partitionsFor(pods.name()).stream()
            .map(info -> new TopicPartition(info.topic(), info.partition()))
            .toList();
    consumer.assign(partitions);
    consumer.seekToBeginning(partitions);
    return consumer;
  }

  /** The pod's gang as last read from the pods topic, once its minMember is {@code minMember}. */
  private static PodGang awaitMinMember(
      final KafkaConsumer<PodKey, PodState> consumer,
      final String name,
      final Optional<Integer> minMember) {
    final AtomicReference<PodGang> last = new AtomicReference<>();
    await()
        .atMost(WAIT)
        .until(
            () -> {
              for (final ConsumerRecord<PodKey, PodState> record :
                  consumer.poll(Duration.ofMillis(200))) {
                if (record.key() != null
                    && record.value() != null
                    && "gangs".equals(record.key().getNamespace())
                    && name.equals(record.key().getName())) {
                  last.set(record.value().getGang().orElse(null));
                }
              }
              return last.get() != null && last.get().getMinMember().equals(minMember);
            });
    return last.get();
  }
}
