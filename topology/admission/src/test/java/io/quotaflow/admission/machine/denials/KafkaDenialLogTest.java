package io.quotaflow.admission.machine.denials;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.reason.Reason;
import io.quotaflow.schemas.DenialOccasion;
import io.quotaflow.schemas.PodDenial;
import io.quotaflow.schemas.PodKey;
import io.quotaflow.topics.TopicCatalogue;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.KafkaException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What {@link KafkaDenialLog} writes to denials.v1, and that a failed write is counted. */
class KafkaDenialLogTest {

  private static final Instant NOW = Instant.parse("2026-11-27T09:30:00Z");
  private static final TopicCatalogue TOPICS = TopicCatalogue.withDefaultPrefix();

  private final MockProducer<PodKey, PodDenial> producer =
      new MockProducer<>(
          false,
          null,
          TOPICS.denials().keySerde().serializer(),
          TOPICS.denials().valueSerde().serializer());
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final KafkaDenialLog log =
      new KafkaDenialLog(
          producer, TOPICS.denials(), registry, Clock.fixed(NOW, ZoneOffset.UTC), "engine-0");

  @AfterEach
  void close() {
    log.close();
  }

  private static DenialLog.Entry entry(String name) {
    return new DenialLog.Entry(
        "east",
        new PodRef("alpha", name),
        "team",
        Reason.EXCEEDS_RUNTIME,
        "quotaflow: pod alpha/" + name + " does not fit",
        DenialLog.Endpoint.FILTER,
        ResourceList.of(ResourceList.CPU, 2_000));
  }

  @Test
  void aDenialIsWrittenKeyedByItsPodWithItsFacts() {
    log.write(entry("big"));

    await().until(() -> producer.history().size() == 1);
    final var record = producer.history().get(0);
    assertThat(record.topic()).isEqualTo("quotaflow.denials.v1");
    assertThat(record.key()).isEqualTo(new PodKey("east", "alpha", "big"));
    final PodDenial denial = record.value();
    assertThat(denial.getGroup()).isEqualTo("team");
    assertThat(denial.getReasonCode()).isEqualTo("exceeds-runtime");
    assertThat(denial.getOccasion()).isEqualTo(DenialOccasion.FILTER);
    assertThat(denial.getPodRequest()).isEqualTo(Map.of("cpu", 2_000L));
    assertThat(denial.getAt()).isEqualTo(NOW);
    assertThat(denial.getSource()).isEqualTo("engine-0");
    assertThat(denial.getMessage()).contains("does not fit");
  }

  @Test
  void aWriteKafkaRefusesIsCountedAsUnrecorded() {
    log.write(entry("big"));
    await().until(() -> producer.history().size() == 1);

    producer.errorNext(new KafkaException("broker away"));

    assertThat(registry.find(KafkaDenialLog.LOST).tags("why", "send-failed").counter().count())
        .isEqualTo(1);
  }
}
