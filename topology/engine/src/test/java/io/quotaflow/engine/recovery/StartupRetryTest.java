package io.quotaflow.engine.recovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class StartupRetryTest {

  private final List<Duration> waits = new ArrayList<>();
  private final List<Optional<String>> problemsWhileWaiting = new ArrayList<>();
  private final ListAppender<ILoggingEvent> log = new ListAppender<>();
  private StartupRetry retry;

  @BeforeEach
  void captureLog() {
    log.start();
    ((Logger) LoggerFactory.getLogger(StartupRetry.class)).addAppender(log);
  }

  @AfterEach
  void releaseLog() {
    ((Logger) LoggerFactory.getLogger(StartupRetry.class)).detachAppender(log);
  }

  private StartupRetry retry(final int stopAfterWaits) {
    retry =
        new StartupRetry(
            "Creating the topics",
            Duration.ofSeconds(1),
            Duration.ofSeconds(30),
            wait -> {
              waits.add(wait);
              problemsWhileWaiting.add(retry.problem());
              return waits.size() < stopAfterWaits;
            },
            Clock.systemUTC());
    return retry;
  }

  @Test
  void aStepThatFailsWhileKafkaIsAwayIsTriedAgainWithADoublingCappedBackoffUntilItWorks()
      throws InterruptedException {
    final AtomicInteger calls = new AtomicInteger();

    final Optional<String> result =
        retry(100)
            .run(
                () -> {
                  if (calls.incrementAndGet() <= 7) {
                    throw new KafkaException(
                        "Call(describeTopics) timed out",
                        new TimeoutException("broker not available"));
                  }
                  return "created";
                });

    assertThat(result).contains("created");
    assertThat(calls).hasValue(8);
    assertThat(waits)
        .extracting(Duration::toSeconds)
        .containsExactly(1L, 2L, 4L, 8L, 16L, 30L, 30L);
    assertThat(problemsWhileWaiting)
        .allSatisfy(
            problem ->
                assertThat(problem)
                    .hasValueSatisfying(
                        reason ->
                            assertThat(reason)
                                .contains("Creating the topics", "broker not available")));
    assertThat(retry.problem()).as("not ready only while it retries").isEmpty();
    assertThat(log.list)
        .filteredOn(event -> event.getLevel() == Level.WARN)
        .as("one WARN per failed attempt, with its cause")
        .hasSize(7)
        .allSatisfy(
            event -> assertThat(event.getFormattedMessage()).contains("broker not available"));
  }

  @Test
  void aStopWhileWaitingEndsTheRetryingWithoutAResult() throws InterruptedException {
    final Optional<String> result =
        retry(3)
            .run(
                () -> {
                  throw new TimeoutException("no broker");
                });

    assertThat(result).isEmpty();
    assertThat(waits).hasSize(3);
    assertThat(problemsWhileWaiting).allSatisfy(problem -> assertThat(problem).isPresent());
    assertThat(retry.problem()).isEmpty();
  }

  @Test
  void itIsNotReadyFromTheFirstAttemptOn() throws InterruptedException {
    final List<Optional<String>> during = new ArrayList<>();
    final StartupRetry first = retry(100);

    first.run(
        () -> {
          during.add(first.problem());
          return "created";
        });

    assertThat(during).singleElement().satisfies(problem -> assertThat(problem).isPresent());
    assertThat(first.problem()).isEmpty();
  }

  @Test
  void aFailureThatIsNotKafkasFailsAtOnce() {
    final AtomicInteger calls = new AtomicInteger();

    assertThatThrownBy(
            () ->
                retry(100)
                    .run(
                        () -> {
                          calls.incrementAndGet();
                          throw new IllegalStateException("inputs need 6 partitions");
                        }))
        .isInstanceOf(IllegalStateException.class);
    assertThat(calls).hasValue(1);
    assertThat(waits).isEmpty();
  }

  @Test
  void kafkaErrorsAndTimeoutsAnywhereInTheCausesAreRetriable() {
    assertThat(StartupRetry.retriable(new TimeoutException("t"))).isTrue();
    assertThat(
            StartupRetry.retriable(
                new RuntimeException(new KafkaException("No resolvable bootstrap urls"))))
        .isTrue();
    assertThat(StartupRetry.retriable(new IllegalArgumentException("bad setting"))).isFalse();
  }
}
