package io.quotaflow.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A start step that must not guess while its API server is away asks until it answers. */
class UntilAnsweredTest {

  private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();

  @AfterEach
  void stop() {
    scheduler.shutdownNow();
  }

  @Test
  void aCallThatFailsIsAskedAgainUntilItAnswers() {
    final AtomicInteger calls = new AtomicInteger();
    final List<RuntimeException> failures = new CopyOnWriteArrayList<>();

    final CompletableFuture<String> answer =
        UntilAnswered.call(
            () -> {
              if (calls.incrementAndGet() <= 3) {
                throw new KubernetesClientException("away " + calls.get());
              }
              return "served";
            },
            scheduler,
            Duration.ofMillis(1),
            Duration.ofMillis(2),
            failures::add);

    assertThat(answer.orTimeout(10, TimeUnit.SECONDS).join()).isEqualTo("served");
    assertThat(calls).hasValue(4);
    assertThat(failures)
        .extracting(Throwable::getMessage)
        .containsExactly("away 1", "away 2", "away 3");
  }

  @Test
  void aCallThatAnswersAtOnceIsAskedOnce() {
    final AtomicInteger calls = new AtomicInteger();

    final CompletableFuture<Integer> answer =
        UntilAnswered.call(
            calls::incrementAndGet,
            scheduler,
            Duration.ofMillis(1),
            Duration.ofMillis(1),
            error -> {});

    assertThat(answer.orTimeout(10, TimeUnit.SECONDS).join()).isEqualTo(1);
  }

  @Test
  void aStoppedSchedulerEndsTheAskingWithAFailure() {
    scheduler.shutdownNow();

    final CompletableFuture<String> answer =
        UntilAnswered.call(
            () -> "never", scheduler, Duration.ofMillis(1), Duration.ofMillis(1), e -> {});

    assertThatThrownBy(answer::join)
        .isInstanceOf(CompletionException.class)
        .hasCauseInstanceOf(RejectedExecutionException.class);
  }
}
