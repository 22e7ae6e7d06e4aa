package io.quotaflow.cluster;

import java.time.Duration;

/**
 * Waits for a while. The connectors wait through this so that tests can replace real time with a
 * clock they move themselves.
 */
@FunctionalInterface
public interface Sleeper {

  /** Real waiting on the current thread. */
  Sleeper SYSTEM =
      duration -> {
        if (!duration.isNegative() && !duration.isZero()) {
          Thread.sleep(duration.toMillis(), duration.toNanosPart() % 1_000_000);
        }
      };

  /**
   * Waits for {@code duration}.
   *
   * @throws InterruptedException when the thread is interrupted while waiting
   */
  void sleep(Duration duration) throws InterruptedException;
}
