package io.quotaflow.engine.recovery;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.apache.kafka.common.KafkaException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Repeats a start-up step that needs Kafka (creating the topics, reading them once) until it works
 * or the process is stopped, waiting between attempts with an exponential backoff: {@code initial},
 * doubling after each failure, at most {@code max}. Each failed attempt is logged once at WARN with
 * its cause. While it waits, {@link #problem()} says why, for a readiness check; the process stays
 * alive meanwhile, so a broker that is away at start-up no longer turns into a crash loop.
 *
 * <p>Only failures {@link #retriable(Throwable)} accepts are retried: Kafka's errors (a broker that
 * is down, unreachable or whose name does not resolve yet). A setting that cannot work (an {@link
 * IllegalArgumentException} or {@link IllegalStateException} of quotaflow's own checks) fails at
 * once, as it would the next time too.
 */
public final class StartupRetry {
  private static final Logger LOG = LoggerFactory.getLogger(StartupRetry.class);

  /** Waits between attempts; false when the process is stopping and retrying should end. */
  @FunctionalInterface
  public interface Pause {
    /**
     * Waits for {@code duration}.
     *
     * @return true to try again, false when the process is stopping
     * @throws InterruptedException when the waiting thread is interrupted
     */
    boolean pause(Duration duration) throws InterruptedException;
  }

  private final String what;
  private final Duration initial;
  private final Duration max;
  private final Pause pause;
  private final Clock clock;
  private volatile String problem;
  private volatile int attempts;

  /**
   * @param what the step, for log lines and the readiness reason ("creating the topics")
   * @param initial the wait after the first failure
   * @param max the longest wait between two attempts
   * @param pause how to wait (a stop ends the wait early)
   */
  public StartupRetry(
      final String what,
      final Duration initial,
      final Duration max,
      final Pause pause,
      final Clock clock) {
    this.what = Objects.requireNonNull(what, "what");
    this.initial = Objects.requireNonNull(initial, "initial");
    this.max = Objects.requireNonNull(max, "max");
    this.pause = Objects.requireNonNull(pause, "pause");
    this.clock = Objects.requireNonNull(clock, "clock");
    if (initial.isNegative() || initial.isZero() || max.compareTo(initial) < 0) {
      throw new IllegalArgumentException("need 0 < initial <= max: " + initial + ", " + max);
    }
  }

  /**
   * Runs {@code step} until it returns.
   *
   * @return what it returned; empty when the process was stopped first
   * @throws RuntimeException the first failure that is not {@link #retriable}
   * @throws InterruptedException when the thread is interrupted while waiting
   */
  public <T> Optional<T> run(final Supplier<T> step) throws InterruptedException {
    return run(step, StartupRetry::retriable);
  }

  /** As {@link #run(Supplier)}, retrying the failures {@code retriable} accepts. */
  public <T> Optional<T> run(final Supplier<T> step, final Predicate<Throwable> retriable)
      throws InterruptedException {
    final Instant since = clock.instant();
    problem = what + " has not worked yet (first attempt since " + since + ")";
    while (true) {
      try {
        final T result = step.get();
        if (attempts > 0) {
          LOG.info("{} worked at attempt {}, after {}", what, attempts + 1, since(since));
        }
        problem = null;
        return Optional.ofNullable(result);
      } catch (RuntimeException e) {
        if (!retriable.test(e)) {
          problem = null;
          throw e;
        }
        attempts++;
        final Duration wait = backoffAfter(attempts);
        final String cause = describe(e);
        problem =
            what + " has failed since " + since + " (" + attempts + " attempts), last: " + cause;
        LOG.warn(
            "{} failed (attempt {}), trying again in {} ms: {}",
            what,
            attempts,
            wait.toMillis(),
            cause);
        if (!pause.pause(wait)) {
          problem = null;
          return Optional.empty();
        }
      }
    }
  }

  /** Why the step has not worked yet, while {@link #run} runs; empty before and after. */
  public Optional<String> problem() {
    return Optional.ofNullable(problem);
  }

  /** How many attempts have failed so far. */
  public int failures() {
    return attempts;
  }

  /** The wait after the {@code failure}-th failure (1-based): doubling from initial, capped. */
  public Duration backoffAfter(final int failure) {
    Duration wait = initial;
    for (int i = 1; i < failure && wait.compareTo(max) < 0; i++) {
      wait = wait.multipliedBy(2);
    }
    return wait.compareTo(max) > 0 ? max : wait;
  }

  /**
   * Whether a start-up failure may go away by itself: any Kafka error (a broker down, not
   * reachable, its name not resolvable yet, a request timed out). quotaflow's own checks of the
   * settings throw other exceptions, which are final.
   */
  public static boolean retriable(final Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof KafkaException
          || cause instanceof java.util.concurrent.TimeoutException) {
        return true;
      }
      if (cause.getCause() == cause) {
        break;
      }
    }
    return false;
  }

  private String since(final Instant since) {
    return Duration.between(since, clock.instant())
        .truncatedTo(java.time.temporal.ChronoUnit.MILLIS)
        .toString()
        .substring(2)
        .toLowerCase(java.util.Locale.ROOT);
  }

  /** The exception and its root cause, on one line. */
  static String describe(final Throwable failure) {
    Throwable root = failure;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    final String top = failure.getClass().getSimpleName() + ": " + failure.getMessage();
    return root == failure
        ? top
        : top + " (cause " + root.getClass().getSimpleName() + ": " + root.getMessage() + ")";
  }
}
