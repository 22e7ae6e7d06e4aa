package io.quotaflow.cluster;

import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * A token bucket that limits how often a connector calls one cluster's API server: up to {@code
 * burst} calls at once, then {@code perSecond} calls per second on average. {@link #acquire()}
 * waits for a token. Thread-safe; waiters are served in the order they reserved.
 */
public final class TokenBucket {

  private static final long NANOS_PER_SECOND = 1_000_000_000L;

  private final long nanosPerToken;
  private final long burstNanos;
  private final Clock clock;
  private final Sleeper sleeper;
  // The instant (in clock nanos) at which the bucket is empty again after every reservation so far.
  private long nextFreeNanos;

  /**
   * @param perSecond average calls per second, positive
   * @param burst calls allowed at once after a quiet period, at least 1
   * @param clock time source
   * @param sleeper waits for the next token
   */
  public TokenBucket(
      final double perSecond, final int burst, final Clock clock, final Sleeper sleeper) {
    if (!(perSecond > 0) || Double.isInfinite(perSecond)) {
      throw new IllegalArgumentException("rate must be positive and finite: " + perSecond);
    }
    if (burst < 1) {
      throw new IllegalArgumentException("burst must be at least 1: " + burst);
    }
    this.nanosPerToken = Math.max(1L, Math.round(NANOS_PER_SECOND / perSecond));
    this.burstNanos = nanosPerToken * burst;
    this.clock = Objects.requireNonNull(clock, "clock");
    this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
    this.nextFreeNanos = nanos() - burstNanos;
  }

  /**
   * Takes one token, waiting until one is available.
   *
   * @throws InterruptedException when interrupted while waiting
   */
  public void acquire() throws InterruptedException {
    final Duration wait = reserve();
    if (!wait.isZero()) {
      sleeper.sleep(wait);
    }
  }

  /**
   * Takes one token if one is available now, never waiting: for calls that are better dropped than
   * delayed (Events).
   *
   * @return whether a token was taken
   */
  public synchronized boolean tryAcquire() {
    final long now = nanos();
    final long start = Math.max(nextFreeNanos, now - burstNanos);
    if (start + nanosPerToken > now) {
      return false;
    }
    nextFreeNanos = start + nanosPerToken;
    return true;
  }

  /** Reserves the next token and says how long to wait before using it. */
  synchronized Duration reserve() {
    final long now = nanos();
    // Unused capacity accumulates up to the burst, no further.
    final long start = Math.max(nextFreeNanos, now - burstNanos);
    nextFreeNanos = start + nanosPerToken;
    final long wait = nextFreeNanos - now;
    return wait <= 0 ? Duration.ZERO : Duration.ofNanos(wait);
  }

  private long nanos() {
    final var instant = clock.instant();
    return instant.getEpochSecond() * NANOS_PER_SECOND + instant.getNano();
  }
}
