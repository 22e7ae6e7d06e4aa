package io.quotaflow.status;

import static io.quotaflow.fixtures.KubeObjects.quota;
import static io.quotaflow.status.WrittenStatus.used;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.micrometer.core.instrument.Counter;
import io.quotaflow.events.EventSettings;
import io.quotaflow.fixtures.ConnectorRig;
import io.quotaflow.fixtures.Keys;
import io.quotaflow.fixtures.StatusWriters;
import io.quotaflow.schemas.GroupRuntime;
import io.quotaflow.schemas.QuotaKey;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class StatusWriterIT {

  @RegisterExtension static final ConnectorRig rig = new ConnectorRig("status");

  private String group;
  private StatusMode mode = StatusMode.KOORDINATOR;

  @BeforeEach
  void thisTestsGroup() {
    group = rig.group();
  }

  @Test
  void theRuntimeAndRequestAnnotationsAndStatusUsedAreWrittenAsKoordinatorWritesThem() {
    rig.mock().quotas().resource(quota(rig.namespace(), group).min("cpu", "10").build()).create();
    start();

    send(
        runtime(
            Map.of("cpu", 10_000L, "memory", 20L << 30),
            Map.of("cpu", 12_500L),
            Map.of("cpu", 5_000L)));

    await()
        .atMost(ConnectorRig.WAIT)
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
    rig.mock()
        .quotas()
        .resource(
            quota(rig.namespace(), group)
                .annotation(QuotaStatus.RUNTIME_ANNOTATION, "{\"cpu\":\"7\"}")
                .build())
        .create();
    mode = StatusMode.SHADOW;
    start();

    send(runtime(Map.of("cpu", 10_000L), Map.of("cpu", 12_500L), Map.of("cpu", 5_000L)));

    await()
        .atMost(ConnectorRig.WAIT)
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
    rig.mock().quotas().resource(quota(rig.namespace(), group).build()).create();
    start();

    try (KafkaProducer<QuotaKey, GroupRuntime> producer = producer()) {
      for (long cpu = 1; cpu <= 20; cpu++) {
        producer.send(record(runtime(Map.of("cpu", cpu * 1000), Map.of(), Map.of())));
      }
    }

    await()
        .atMost(ConnectorRig.WAIT)
        .untilAsserted(
            () ->
                assertThat(object().getMetadata().getAnnotations())
                    .containsEntry(QuotaStatus.RUNTIME_ANNOTATION, "{\"cpu\":\"20\"}"));
    // One flush normally takes the whole burst; one straddling a flush boundary takes two.
    assertThat(patches("annotations")).isBetween(1.0, 2.0);
  }

  @Test
  void aRuntimeTheObjectAlreadyShowsIsNotWrittenAgain() {
    rig.mock().quotas().resource(quota(rig.namespace(), group).build()).create();
    start();
    final GroupRuntime value =
        runtime(Map.of("cpu", 4_000L), Map.of("cpu", 4_000L), Map.of("cpu", 1_000L));
    send(value);
    await().atMost(ConnectorRig.WAIT).until(() -> patches("status") == 1.0);

    send(value);

    await().atMost(ConnectorRig.WAIT).until(() -> skipped("unchanged") >= 1.0);
    assertThat(patches("annotations")).isEqualTo(1.0);
    assertThat(patches("status")).isEqualTo(1.0);
  }

  @Test
  void aGroupWithoutAnObjectIsSkippedAndWrittenOnceTheObjectAppears() {
    start();
    send(runtime(Map.of("cpu", 2_000L), Map.of(), Map.of()));
    await().atMost(ConnectorRig.WAIT).until(() -> skipped("missing") >= 1.0);

    rig.mock().quotas().resource(quota(rig.namespace(), group).build()).create();

    await()
        .atMost(ConnectorRig.WAIT)
        .untilAsserted(
            () ->
                assertThat(object().getMetadata().getAnnotations())
                    .containsEntry(QuotaStatus.RUNTIME_ANNOTATION, "{\"cpu\":\"2\"}"));
  }

  @Test
  void aResourceNoLongerUsedIsRemovedFromStatusUsed() {
    rig.mock().quotas().resource(quota(rig.namespace(), group).build()).create();
    start();
    send(runtime(Map.of(), Map.of(), Map.of("cpu", 1_000L, "memory", 1L << 30)));
    await()
        .atMost(ConnectorRig.WAIT)
        .untilAsserted(() -> assertThat(used(object()).get("memory")).isEqualTo("1Gi"));

    send(runtime(Map.of(), Map.of(), Map.of("cpu", 2_000L)));

    await()
        .atMost(ConnectorRig.WAIT)
        .untilAsserted(
            () -> {
              final Map<?, ?> used = used(object());
              assertThat(used.get("cpu")).isEqualTo("2");
              assertThat(used.get("memory")).isNull();
            });
  }

  /** Issue 39.5: a special group's status goes only to its object in the special namespaces. */
  @Test
  void aTenantsQuotaNamedLikeASpecialGroupGetsNoStatus() {
    final String special = "koordinator-system-quota";
    rig.mock().quotas().resource(quota(rig.namespace(), special).build()).create();
    rig.mock().quotas().resource(quota(rig.namespace(), group).build()).create();
    start();

    try (KafkaProducer<QuotaKey, GroupRuntime> producer = producer()) {
      producer.send(
          new ProducerRecord<>(
              rig.topics().runtime().name(),
              Keys.quota(special),
              runtime(Map.of("cpu", 96_000L), Map.of(), Map.of())));
      producer.send(record(runtime(Map.of("cpu", 3_000L), Map.of(), Map.of())));
    }

    // The tenant's group is written after the special one: by then the special one was decided.
    await()
        .atMost(ConnectorRig.WAIT)
        .untilAsserted(
            () ->
                assertThat(object().getMetadata().getAnnotations())
                    .containsEntry(QuotaStatus.RUNTIME_ANNOTATION, "{\"cpu\":\"3\"}"));
    final GenericKubernetesResource namesake =
        rig.mock().quotas().inNamespace(rig.namespace()).withName(special).get();
    assertThat(namesake.getMetadata().getAnnotations())
        .as("the special group's runtime is not written on a tenant's namesake")
        .doesNotContainKey(QuotaStatus.RUNTIME_ANNOTATION);
  }

  private void start() {
    rig.closeAfterTest(
            StatusWriters.writer(
                rig, StatusWriters.settings(Duration.ofMillis(300), mode), EventSettings.off()))
        .start();
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
    return rig.producer(rig.topics().runtime());
  }

  private ProducerRecord<QuotaKey, GroupRuntime> record(final GroupRuntime value) {
    return new ProducerRecord<>(rig.topics().runtime().name(), Keys.quota(group), value);
  }

  private GenericKubernetesResource object() {
    return rig.mock().quotas().inNamespace(rig.namespace()).withName(group).get();
  }

  private double patches(final String part) {
    return rig.registry().find("quotaflow.status.patches").tag("part", part).counters().stream()
        .mapToDouble(Counter::count)
        .sum();
  }

  private double skipped(final String reason) {
    return rig.registry().find("quotaflow.status.skipped").tag("reason", reason).counters().stream()
        .mapToDouble(Counter::count)
        .sum();
  }
}
