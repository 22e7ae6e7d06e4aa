package io.quotaflow.admission.machine.denials;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.reason.Reason;
import io.quotaflow.schemas.PodDenial;
import io.quotaflow.schemas.PodKey;
import io.quotaflow.topics.TopicCatalogue;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 39, point 12: a tenant whose pods are denied over and over (a controller retrying, the
 * scheduler asking the filter again, or on purpose) cannot crowd the other tenants' denials out of
 * denials.v1. While Kafka is slow the plugin's queue holds 10,000 records; without a limit one
 * tenant's flood fills it and everyone else's denials are lost from the history.
 */
class DenialFloodAttackTest {

  private static final Instant NOW = Instant.parse("2026-11-27T09:30:00Z");
  private static final TopicCatalogue TOPICS = TopicCatalogue.withDefaultPrefix();

  /** Kafka stalled: the first send waits until released, so the queue fills behind it. */
  private final CountDownLatch kafkaBack = new CountDownLatch(1);

  private final MockProducer<PodKey, PodDenial> producer =
      new MockProducer<>(
          true,
          null,
          TOPICS.denials().keySerde().serializer(),
          TOPICS.denials().valueSerde().serializer()) {
        @Override
        public synchronized Future<RecordMetadata> send(
            ProducerRecord<PodKey, PodDenial> record, Callback callback) {
          try {
            kafkaBack.await();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          return super.send(record, callback);
        }
      };

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);
  private final DenialLog log =
      new ThrottledDenialLog(
          new KafkaDenialLog(producer, TOPICS.denials(), registry, clock, "engine-0"),
          Duration.ofSeconds(60),
          100,
          clock,
          registry);

  @AfterEach
  void close() {
    kafkaBack.countDown();
    log.close();
  }

  private static DenialLog.Entry denial(String namespace, String pod, String group) {
    return new DenialLog.Entry(
        "east",
        new PodRef(namespace, pod),
        group,
        Reason.EXCEEDS_MAX,
        "quotaflow: pod " + namespace + "/" + pod + " does not fit quota group " + group,
        DenialLog.Endpoint.FILTER,
        ResourceList.of(ResourceList.CPU, 1_000));
  }

  @Test
  void oneTenantsFloodLeavesRoomForAnotherTenantsDenial() {
    // The same pod refused 15,000 times, then 15,000 pods refused once each.
    for (int i = 0; i < 15_000; i++) {
      log.write(denial("attacker", "retry-me", "team-a"));
    }
    for (int i = 0; i < 15_000; i++) {
      log.write(denial("attacker", "pod-" + i, "team-a"));
    }
    log.write(denial("victim", "train", "team-b"));
    kafkaBack.countDown();

    await()
        .atMost(Duration.ofSeconds(20))
        .untilAsserted(
            () ->
                assertThat(producer.history())
                    .extracting(ProducerRecord::key)
                    .contains(new PodKey("east", "victim", "train")));
    final long attackers =
        producer.history().stream()
            .filter(record -> record.key().getNamespace().equals("attacker"))
            .count();
    assertThat(attackers)
        .as("the attacker's records: its group's 100 of the window")
        .isEqualTo(100);
    assertThat(dropped("duplicate")).isEqualTo(14_999);
    assertThat(dropped("rate-limited")).isEqualTo(30_000 - 14_999 - 100);
    assertThat(registry.find(KafkaDenialLog.LOST).tags("why", "queue-full").counter().count())
        .isZero();
  }

  @Test
  void aPodDeniedAgainAfterTheWindowIsRecordedAgain() {
    final MutableClock moving = new MutableClock(NOW);
    final RecordingLog inner = new RecordingLog();
    final DenialLog throttled =
        new ThrottledDenialLog(inner, Duration.ofSeconds(60), 100, moving, registry);

    throttled.write(denial("alpha", "big", "team-a"));
    throttled.write(denial("alpha", "big", "team-a"));
    moving.advance(Duration.ofSeconds(61));
    throttled.write(denial("alpha", "big", "team-a"));

    assertThat(inner.written).hasSize(2);
    assertThat(dropped("duplicate")).isEqualTo(1);
  }

  private double dropped(String why) {
    final var counter = registry.find(ThrottledDenialLog.DROPPED).tags("why", why).counter();
    return counter == null ? 0 : counter.count();
  }

  /** Keeps what it is given. */
  private static final class RecordingLog implements DenialLog {
    final java.util.List<Entry> written = new java.util.ArrayList<>();

    @Override
    public void write(Entry entry) {
      written.add(entry);
    }
  }

  /** A clock the test moves. */
  private static final class MutableClock extends Clock {
    private Instant now;

    MutableClock(Instant now) {
      this.now = now;
    }

    void advance(Duration by) {
      now = now.plus(by);
    }

    @Override
    public java.time.ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }
}
