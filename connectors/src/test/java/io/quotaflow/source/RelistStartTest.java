package io.quotaflow.source;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * The relist a command is compared with before the executor carries it out ({@code STALE}) is timed
 * by the broker, not by the connectors' clock (issue 40.5).
 */
class RelistStartTest {
  private static final Instant BROKER = Instant.parse("2026-03-01T12:00:00Z");
  private static final Duration HOUR = Duration.ofHours(1);

  private final RelistStart relist = new RelistStart();

  @Test
  void aConnectorClockFarAheadDoesNotRefuseEveryLaterCommand() {
    relist.healed(BROKER.plus(HOUR), Optional.of(appendedAt(BROKER)));

    assertThat(relist.after(BROKER.plusSeconds(60)))
        .as("decided a minute after the relist was appended")
        .isEmpty();
    assertThat(relist.after(BROKER.minusSeconds(60))).contains(BROKER);
  }

  @Test
  void aConnectorClockSteppedBackDoesNotTrustACommandDecidedBeforeTheRelist() {
    relist.healed(BROKER.minus(HOUR), Optional.of(appendedAt(BROKER)));

    assertThat(relist.after(BROKER.minusSeconds(60)))
        .as("decided a minute before the relist, on inputs that missed changes")
        .contains(BROKER);
    assertThat(relist.after(BROKER.plusSeconds(60))).isEmpty();
  }

  @Test
  void withoutTheBrokersTimeTheStartStampIsUsed() {
    // The start marker written before the informer's first list: not part of the snapshot's writes.
    relist.healed(BROKER, Optional.empty());
    assertThat(relist.after(BROKER.minusMillis(1))).contains(BROKER);

    final RelistStart failed = new RelistStart();
    failed.healed(BROKER, Optional.of(CompletableFuture.failedFuture(new IllegalStateException())));
    assertThat(failed.after(BROKER.minusMillis(1))).contains(BROKER);
  }

  @Test
  void noRelistRefusesNothing() {
    assertThat(relist.after(Instant.EPOCH)).isEmpty();
  }

  private static Future<RecordMetadata> appendedAt(final Instant at) {
    return CompletableFuture.completedFuture(
        new RecordMetadata(
            new TopicPartition("quotaflow.pods.v1", 0), 0, 0, at.toEpochMilli(), 1, 0));
  }
}
