package io.quotaflow.source;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Calls an API server until it answers: a failed call is tried again after a delay that doubles up
 * to a ceiling, as the informers retry a failed list. Used where a start step must not guess when
 * the API server is away (PodGroup discovery).
 */
final class UntilAnswered {

  /** The first delay, and its ceiling, in the source's normal use. */
  static final Duration FIRST_DELAY = Duration.ofSeconds(1);

  static final Duration LONGEST_DELAY = Duration.ofSeconds(30);

  private UntilAnswered() {}

  /**
   * The answer of {@code call}, run on {@code scheduler} until it returns without throwing; the
   * future fails only if the scheduler stops taking work (the source closed).
   *
   * @param failed told of each failure, before the call is tried again
   */
  static <T> CompletableFuture<T> call(
      final Supplier<T> call,
      final ScheduledExecutorService scheduler,
      final Duration firstDelay,
      final Duration longestDelay,
      final Consumer<RuntimeException> failed) {
    Objects.requireNonNull(call, "call");
    final CompletableFuture<T> answer = new CompletableFuture<>();
    attempt(call, scheduler, Duration.ZERO, firstDelay, longestDelay, failed, answer);
    return answer;
  }

  private static <T> void attempt(
      final Supplier<T> call,
      final ScheduledExecutorService scheduler,
      final Duration delay,
      final Duration nextDelay,
      final Duration longestDelay,
      final Consumer<RuntimeException> failed,
      final CompletableFuture<T> answer) {
    final Runnable once =
        () -> {
          if (answer.isDone()) {
            return;
          }
          try {
            answer.complete(call.get());
          } catch (RuntimeException e) {
            failed.accept(e);
            final Duration after = min(nextDelay.multipliedBy(2), longestDelay);
            attempt(call, scheduler, nextDelay, after, longestDelay, failed, answer);
          }
        };
    try {
      scheduler.schedule(once, delay.toMillis(), TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException stopped) {
      answer.completeExceptionally(stopped);
    }
  }

  private static Duration min(final Duration a, final Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }
}
