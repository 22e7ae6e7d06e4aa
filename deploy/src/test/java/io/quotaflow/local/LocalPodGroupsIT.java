package io.quotaflow.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.GroupVersionKind;
import io.fabric8.kubernetes.api.model.GroupVersionResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReviewBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.quotaflow.cluster.PodGroups;
import io.quotaflow.schemas.PodGang;
import io.quotaflow.schemas.PodKey;
import io.quotaflow.schemas.PodState;
import io.quotaflow.topics.Topic;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 28: {@code quotaflow local}'s connectors watch the PodGroups of its demo cluster (which
 * serves both PodGroup APIs), so a Volcano gang's pods reach the engine's input with their
 * PodGroup's minMember, and again with a new one when it changes; the PodGroups reach the engine
 * (podgroups.v1) too, so the webhook judges such a gang's first member whole.
 */
@Tag("system")
class LocalPodGroupsIT {

  @RegisterExtension final LocalRunExtension local = LocalRunExtension.demo();

  private static final Duration WAIT = Duration.ofSeconds(60);

  @Test
  void aVolcanoGangsPodsCarryTheirPodGroupsMinMemberThroughLocalsConnectors() {
    final LocalRun run = local.run();
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
  }

  /**
   * docs/semantics.md 21.2: the pod webhook of a running local judges the first member of a
   * PodGroup gang whole, its minMember read from podgroups.v1 through the engine (the pod does not
   * carry it): a pod that fits alone is denied as the first of a Volcano gang, and of a
   * scheduler-plugins gang, of 8 that cannot fit whole.
   */
  @Test
  void theWebhookDeniesTheFirstMemberOfAPodGroupGangThatCannotFitWhole() throws Exception {
    final LocalRun run = local.run();
    final DemoCluster demo = run.demo().orElseThrow();
    demo.create(podGroup("scheduling.volcano.sh/v1beta1", "ml", "train", 8));
    demo.create(podGroup("scheduling.x-k8s.io/v1alpha1", "ml", "mpi", 8));
    final String url = run.adminUrl().orElseThrow() + "/clusters/" + DemoCluster.NAME;
    final HttpClient http = HttpClient.newHttpClient();
    // The most cpu one pod of ml may ask alone (dry runs hold nothing): 8 of it never fit.
    final long alone = largestAdmitted(http, url);
    assertThat(alone).isPositive();
    final Pod volcano =
        pod("train-0", alone, Map.of(), Map.of("scheduling.k8s.io/group-name", "train"));
    final Pod plugins =
        pod("mpi-0", alone, Map.of("scheduling.x-k8s.io/pod-group", "mpi"), Map.of());

    // Denied once the engine has read the PodGroups (the pods alone fit).
    for (final Pod first : List.of(volcano, plugins)) {
      await().atMost(WAIT).until(() -> !review(http, url, first, true).get("allowed").asBoolean());
      final JsonNode denied = review(http, url, first, false);
      assertThat(denied.get("allowed").asBoolean()).isFalse();
      assertThat(denied.get("status").get("code").asInt()).isEqualTo(403);
      assertThat(denied.get("status").get("message").asText())
          .contains("gang " + first.getMetadata().getName().replace("-0", "") + " needs 8 pods");
    }
    assertThat(
            review(http, url, pod("solo", alone, Map.of(), Map.of()), true)
                .get("allowed")
                .asBoolean())
        .as("the same pod without a gang fits")
        .isTrue();
  }

  /** The largest cpu request (milli-cores) the webhook admits for a pod of ml without a gang. */
  private static long largestAdmitted(final HttpClient http, final String url) throws Exception {
    long fits = 0;
    long fails = 1_000_000_000L;
    while (fails - fits > 1) {
      final long mid = fits + (fails - fits) / 2;
      if (review(http, url, pod("probe", mid, Map.of(), Map.of()), true)
          .get("allowed")
          .asBoolean()) {
        fits = mid;
      } else {
        fails = mid;
      }
    }
    return fits;
  }

  private static Pod pod(
      final String name,
      final long milliCpu,
      final Map<String, String> labels,
      final Map<String, String> annotations) {
    return new PodBuilder()
        .withNewMetadata()
        .withNamespace("ml")
        .withName(name)
        .withLabels(labels)
        .withAnnotations(annotations)
        .endMetadata()
        .withNewSpec()
        .addNewContainer()
        .withName("main")
        .withImage("busybox")
        .withNewResources()
        .withRequests(Map.of("cpu", new Quantity(milliCpu + "m")))
        .endResources()
        .endContainer()
        .endSpec()
        .build();
  }

  /** The webhook's response to the pod's creation, as the API server would ask. */
  private static JsonNode review(
      final HttpClient http, final String url, final Pod pod, final boolean dryRun)
      throws Exception {
    final AdmissionReview review =
        new AdmissionReviewBuilder()
            .withNewRequest()
            .withUid(UUID.randomUUID().toString())
            .withKind(new GroupVersionKind("", "Pod", "v1"))
            .withResource(new GroupVersionResource("", "pods", "v1"))
            .withOperation("CREATE")
            .withDryRun(dryRun)
            .withNamespace(pod.getMetadata().getNamespace())
            .withName(pod.getMetadata().getName())
            .withObject(pod)
            .endRequest()
            .build();
    final HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(URI.create(url + "/admission/pods"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(Serialization.asJson(review)))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return new ObjectMapper().readTree(response.body()).get("response");
  }

  private static GenericKubernetesResource podGroup(
      final String apiVersion, final String namespace, final String name, final int minMember) {
    return new GenericKubernetesResourceBuilder()
        .withApiVersion(apiVersion)
        .withKind("PodGroup")
        .withNewMetadata()
        .withNamespace(namespace)
        .withName(name)
        .endMetadata()
        .withAdditionalProperties(Map.of("spec", Map.of("minMember", minMember)))
        .build();
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
