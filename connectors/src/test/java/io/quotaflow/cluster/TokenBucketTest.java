package io.quotaflow.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotaflow.fixtures.ManualClock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class TokenBucketTest {

  private final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));

  @Test
  void aFullBucketLetsABurstThroughWithoutWaiting() {
    final TokenBucket bucket = new TokenBucket(2.0, 3, clock, clock.sleeper());

    assertThat(bucket.reserve()).isZero();
    assertThat(bucket.reserve()).isZero();
    assertThat(bucket.reserve()).isZero();
    assertThat(bucket.reserve()).isEqualTo(Duration.ofMillis(500));
  }

  @Test
  void afterTheBurstCallsAreSpacedByTheRate() throws InterruptedException {
    final TokenBucket bucket = new TokenBucket(4.0, 1, clock, clock.sleeper());
    final Instant start = clock.instant();

    for (int i = 0; i < 5; i++) {
      bucket.acquire();
    }

    assertThat(Duration.between(start, clock.instant())).isEqualTo(Duration.ofSeconds(1));
  }

  @Test
  void quietTimeRefillsTheBucketUpToTheBurstOnly() {
    final TokenBucket bucket = new TokenBucket(1.0, 2, clock, clock.sleeper());
    bucket.reserve();
    bucket.reserve();

    clock.advance(Duration.ofMinutes(5));

    assertThat(bucket.reserve()).isZero();
    assertThat(bucket.reserve()).isZero();
    assertThat(bucket.reserve()).isEqualTo(Duration.ofSeconds(1));
  }

  @Test
  void aRateOrBurstThatIsNotPositiveIsRejected() {
    assertThatThrownBy(() -> new TokenBucket(0, 1, clock, clock.sleeper()))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new TokenBucket(1, 0, clock, clock.sleeper()))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void tryAcquireTakesOnlyATokenThatIsThereAndNeverReservesAhead() {
    final TokenBucket bucket = new TokenBucket(1.0, 2, clock, clock.sleeper());

    assertThat(bucket.tryAcquire()).isTrue();
    assertThat(bucket.tryAcquire()).isTrue();
    assertThat(bucket.tryAcquire()).isFalse();
    assertThat(bucket.tryAcquire()).isFalse();

    clock.advance(Duration.ofSeconds(1));

    assertThat(bucket.tryAcquire()).as("refused calls took nothing").isTrue();
    assertThat(bucket.tryAcquire()).isFalse();
  }
}
