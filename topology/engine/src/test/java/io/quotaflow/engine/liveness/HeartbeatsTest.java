package io.quotaflow.engine.liveness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class HeartbeatsTest {

  /** A clock moved by the test. */
  static final class FakeClock extends Clock {
    final AtomicReference<Instant> now =
        new AtomicReference<>(Instant.parse("2026-01-01T00:00:00Z"));

    void advance(Duration by) {
      now.updateAndGet(at -> at.plus(by));
    }

    @Override
    public ZoneOffset getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now.get();
    }
  }

  private final FakeClock clock = new FakeClock();
  private final Heartbeats heartbeats = new Heartbeats(clock);

  @Test
  void aLoopThatBeatsIsNeverSilent() {
    final Heartbeats.Beat loop = heartbeats.register("executor", Duration.ofSeconds(10));
    for (int round = 0; round < 5; round++) {
      clock.advance(Duration.ofSeconds(9));
      loop.beat();
      assertThat(heartbeats.silent()).isEmpty();
    }
  }

  @Test
  void aLoopSilentLongerThanAllowedIsNamed() {
    heartbeats.register("executor", Duration.ofSeconds(10));
    final Heartbeats.Beat other = heartbeats.register("source", Duration.ofSeconds(60));
    clock.advance(Duration.ofSeconds(10));
    assertThat(heartbeats.silent()).as("exactly the allowed silence is fine").isEmpty();
    clock.advance(Duration.ofSeconds(5));
    other.beat();
    assertThat(heartbeats.silent()).containsExactly("executor silent for 15 s (allowed 10 s)");
  }

  @Test
  void aClosedLoopIsNoLongerWatchedButItsSuccessorIs() {
    final Heartbeats.Beat first = heartbeats.register("stream task 0_1", Duration.ofSeconds(10));
    final Heartbeats.Beat second = heartbeats.register("stream task 0_1", Duration.ofSeconds(10));
    first.close();
    first.beat();
    assertThat(heartbeats.names()).containsExactly("stream task 0_1");
    clock.advance(Duration.ofSeconds(11));
    assertThat(heartbeats.silent()).hasSize(1);
    second.close();
    assertThat(heartbeats.names()).isEmpty();
    assertThat(heartbeats.silent()).isEmpty();
  }

  @Test
  void excusedLoopsCountTheirSilenceFromTheExcuse() {
    heartbeats.register("stream task 0_0", Duration.ofSeconds(10));
    clock.advance(Duration.ofSeconds(30));
    heartbeats.excuseAll();
    assertThat(heartbeats.silent()).isEmpty();
    clock.advance(Duration.ofSeconds(11));
    assertThat(heartbeats.silent())
        .containsExactly("stream task 0_0 silent for 11 s (allowed 10 s)");
  }

  @Test
  void anAllowedSilenceMustBePositive() {
    assertThatThrownBy(() -> heartbeats.register("loop", Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
