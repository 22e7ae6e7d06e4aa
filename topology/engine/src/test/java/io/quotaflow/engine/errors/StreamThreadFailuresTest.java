package io.quotaflow.engine.errors;

import static org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.REPLACE_THREAD;
import static org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quotaflow.engine.metrics.EngineMetrics;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.FencedInstanceIdException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.streams.errors.StreamsException;
import org.junit.jupiter.api.Test;

class StreamThreadFailuresTest {

  private final MovingClock clock = new MovingClock(Instant.parse("2026-03-01T12:00:00Z"));
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final StreamThreadFailures failures =
      new StreamThreadFailures(10, Duration.ofMinutes(10), clock, new EngineMetrics(registry));

  @Test
  void aTransientFailureReplacesTheThreadAndIsCounted() {
    assertThat(failures.handle(new StreamsException(new IllegalStateException("a bug"))))
        .isEqualTo(REPLACE_THREAD);
    assertThat(replaced()).isEqualTo(1.0);
  }

  @Test
  void errorsOfTheJvmAndSettingsThatCannotWorkShutTheInstanceDown() {
    assertThat(failures.handle(new OutOfMemoryError("Java heap space"))).isEqualTo(SHUTDOWN_CLIENT);
    assertThat(failures.handle(new StreamsException(new StackOverflowError())))
        .isEqualTo(SHUTDOWN_CLIENT);
    assertThat(failures.handle(new StreamsException(new ConfigException("bad"))))
        .isEqualTo(SHUTDOWN_CLIENT);
    assertThat(failures.handle(new StreamsException(new TopicAuthorizationException("denied"))))
        .isEqualTo(SHUTDOWN_CLIENT);
    assertThat(failures.handle(new FencedInstanceIdException("instance id in use")))
        .isEqualTo(SHUTDOWN_CLIENT);
    assertThat(replaced()).isZero();
  }

  @Test
  void moreReplacementsThanAllowedWithinTheWindowAreACrashLoopThatShutsDown() {
    for (int i = 0; i < 10; i++) {
      assertThat(failures.handle(new RuntimeException("flaky " + i))).isEqualTo(REPLACE_THREAD);
      clock.advance(Duration.ofSeconds(30));
    }

    assertThat(failures.handle(new RuntimeException("once more"))).isEqualTo(SHUTDOWN_CLIENT);
    assertThat(replaced()).isEqualTo(10.0);
  }

  @Test
  void replacementsOlderThanTheWindowNoLongerCount() {
    for (int i = 0; i < 10; i++) {
      failures.handle(new RuntimeException("flaky " + i));
    }
    clock.advance(Duration.ofMinutes(10).plusSeconds(1));

    assertThat(failures.handle(new RuntimeException("later"))).isEqualTo(REPLACE_THREAD);
  }

  private double replaced() {
    return registry.get(EngineMetrics.THREADS_REPLACED).counter().count();
  }

  /** A clock the test moves. */
  private static final class MovingClock extends Clock {
    private Instant now;

    MovingClock(final Instant start) {
      this.now = start;
    }

    void advance(final Duration duration) {
      now = now.plus(duration);
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(final ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }
}
