package io.quotaflow.engine.errors;

import io.quotaflow.engine.metrics.EngineMetrics;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Objects;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.FencedInstanceIdException;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.apache.kafka.streams.errors.MissingSourceTopicException;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.apache.kafka.streams.errors.TopologyException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the engine does when a stream thread dies of an exception no other handler took (bad records
 * go to the dead-letter topic before this): a transient failure replaces the thread, which takes
 * the same tasks back from their last commit; a fatal one, or too many replacements in a window (a
 * crash loop), shuts the instance down (the process then exits 1 and is restarted, which is
 * visible).
 *
 * <p>Fatal, in the exception or any of its causes:
 *
 * <ul>
 *   <li>an {@link Error} ({@link OutOfMemoryError}, {@link StackOverflowError}, {@link
 *       LinkageError}, ...): the JVM itself can no longer be trusted;
 *   <li>a setting that cannot work and would fail every new thread the same way: {@link
 *       ConfigException}, {@link AuthenticationException}, {@link AuthorizationException}, {@link
 *       UnsupportedVersionException}, {@link TopologyException}, {@link
 *       MissingSourceTopicException};
 *   <li>{@link FencedInstanceIdException}: another instance runs with this instance's {@code
 *       group.instance.id}, and a new thread would be fenced too.
 * </ul>
 *
 * <p>Every other exception replaces the thread, counted in {@link EngineMetrics#THREADS_REPLACED},
 * unless {@code maxReplacements} replacements already happened within {@code window}: then the
 * instance shuts down.
 */
public final class StreamThreadFailures implements StreamsUncaughtExceptionHandler {
  private static final Logger LOG = LoggerFactory.getLogger(StreamThreadFailures.class);

  private final int maxReplacements;
  private final Duration window;
  private final Clock clock;
  private final EngineMetrics metrics;
  private final Deque<Instant> replacements = new ArrayDeque<>();

  /**
   * @param maxReplacements how many replacements {@code window} may hold; one more shuts down
   * @param window how far back replacements count
   */
  public StreamThreadFailures(
      final int maxReplacements,
      final Duration window,
      final Clock clock,
      final EngineMetrics metrics) {
    if (maxReplacements < 0) {
      throw new IllegalArgumentException(
          "maxReplacements must not be negative: " + maxReplacements);
    }
    this.maxReplacements = maxReplacements;
    this.window = Objects.requireNonNull(window, "window");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
  }

  @Override
  public synchronized StreamThreadExceptionResponse handle(final Throwable exception) {
    final String fatal = fatalReason(exception);
    if (fatal != null) {
      LOG.error("Stream thread failed ({}); shutting the engine down", fatal, exception);
      return StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
    }
    final Instant now = clock.instant();
    while (!replacements.isEmpty() && !replacements.peekFirst().isAfter(now.minus(window))) {
      replacements.removeFirst();
    }
    if (replacements.size() >= maxReplacements) {
      LOG.error(
          "Stream thread failed; {} threads were already replaced in the last {}: a crash loop,"
              + " shutting the engine down",
          replacements.size(),
          window,
          exception);
      return StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
    }
    replacements.addLast(now);
    metrics.threadReplaced();
    LOG.error(
        "Stream thread failed; replacing it ({} of at most {} in {}): it resumes its tasks from"
            + " their last commit",
        replacements.size(),
        maxReplacements,
        window,
        exception);
    return StreamThreadExceptionResponse.REPLACE_THREAD;
  }

  /** Why {@code exception} is fatal; null when replacing the thread may help. */
  static String fatalReason(final Throwable exception) {
    for (Throwable cause = exception; cause != null; cause = cause.getCause()) {
      if (cause instanceof Error) {
        return "an error of the JVM: " + cause;
      }
      if (cause instanceof ConfigException
          || cause instanceof AuthenticationException
          || cause instanceof AuthorizationException
          || cause instanceof UnsupportedVersionException
          || cause instanceof TopologyException
          || cause instanceof MissingSourceTopicException) {
        return "a setting or permission that every new thread would trip over: " + cause;
      }
      if (cause instanceof FencedInstanceIdException) {
        return "another instance uses this group.instance.id: " + cause;
      }
      if (cause.getCause() == cause) {
        break;
      }
    }
    return null;
  }
}
