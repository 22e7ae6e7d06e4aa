package io.quotaflow.admission.http.peers;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * Whether to forward to one peer now (issue 40.10). Closed, every request is forwarded; after
 * {@code failuresToOpen} failures in a row it opens, and none is, so that a dead peer costs its
 * callers nothing but the fallback; {@code retryAfter} later it lets one request through (half
 * open): an answer closes it, a failure opens it again. A probe that never reports (its thread
 * lost) is replaced after another {@code retryAfter}. Thread-safe.
 */
public final class CircuitBreaker {

  /** The breaker's position. */
  public enum State {
    /** Forwarding. */
    CLOSED,
    /** One probe may be out; the others are not forwarded. */
    HALF_OPEN,
    /** Not forwarding until the retry time. */
    OPEN
  }

  private final int failuresToOpen;
  private final Duration retryAfter;
  private final Clock clock;
  private State state = State.CLOSED;
  private int failures;
  private Instant since = Instant.EPOCH;

  /**
   * @param failuresToOpen failures in a row that open it, at least 1
   * @param retryAfter how long it stays open before a probe, positive
   * @param clock the clock the retry time is measured with
   */
  public CircuitBreaker(int failuresToOpen, Duration retryAfter, Clock clock) {
    if (failuresToOpen < 1) {
      throw new IllegalArgumentException("failuresToOpen must be at least 1: " + failuresToOpen);
    }
    if (retryAfter.isZero() || retryAfter.isNegative()) {
      throw new IllegalArgumentException("retryAfter must be positive: " + retryAfter);
    }
    this.failuresToOpen = failuresToOpen;
    this.retryAfter = retryAfter;
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * Whether this request may be forwarded; when it may, the caller must report it with {@link
   * #succeeded} or {@link #failed}.
   */
  public synchronized boolean tryAcquire() {
    if (state == State.CLOSED) {
      return true;
    }
    final Instant now = clock.instant();
    if (now.isBefore(since.plus(retryAfter))) {
      return false;
    }
    // Open long enough, or a probe out for as long: this request probes.
    state = State.HALF_OPEN;
    since = now;
    return true;
  }

  /** The peer answered: forward again. */
  public synchronized void succeeded() {
    state = State.CLOSED;
    failures = 0;
  }

  /** The peer could not be asked or did not answer in time. */
  public synchronized void failed() {
    if (state == State.OPEN) {
      // A request sent before it opened: the retry time stands.
      return;
    }
    failures++;
    if (state == State.HALF_OPEN || failures >= failuresToOpen) {
      state = State.OPEN;
      since = clock.instant();
    }
  }

  /** The position now (an open breaker past its retry time reads open until a request probes). */
  public synchronized State state() {
    return state;
  }

  /** When it opened or its probe left; the epoch while closed since creation. */
  public synchronized Instant since() {
    return since;
  }

  /** Failures in a row so far. */
  public synchronized int failures() {
    return failures;
  }
}
