package io.quotaflow.admission.http.peers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotaflow.admission.state.MutableClock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class CircuitBreakerTest {

  private final MutableClock clock = new MutableClock(Instant.parse("2026-03-01T12:00:00Z"));
  private final CircuitBreaker breaker = new CircuitBreaker(3, Duration.ofSeconds(1), clock);

  @Test
  void itOpensAfterTheFailuresInARowAndOnlyThen() {
    for (int i = 0; i < 2; i++) {
      assertThat(breaker.tryAcquire()).isTrue();
      breaker.failed();
    }
    assertThat(breaker.state()).isEqualTo(CircuitBreaker.State.CLOSED);
    assertThat(breaker.tryAcquire()).isTrue();
    breaker.succeeded();
    assertThat(breaker.failures()).as("an answer ends the run").isZero();

    for (int i = 0; i < 3; i++) {
      assertThat(breaker.tryAcquire()).isTrue();
      breaker.failed();
    }

    assertThat(breaker.state()).isEqualTo(CircuitBreaker.State.OPEN);
    assertThat(breaker.tryAcquire()).isFalse();
    clock.advance(Duration.ofMillis(999));
    assertThat(breaker.tryAcquire()).isFalse();
  }

  @Test
  void afterTheRetryDelayOneRequestProbesAndItsAnswerCloses() {
    open();
    clock.advance(Duration.ofSeconds(1));

    assertThat(breaker.tryAcquire()).as("the probe").isTrue();
    assertThat(breaker.state()).isEqualTo(CircuitBreaker.State.HALF_OPEN);
    assertThat(breaker.tryAcquire()).as("a second request while the probe is out").isFalse();
    breaker.succeeded();

    assertThat(breaker.state()).isEqualTo(CircuitBreaker.State.CLOSED);
    assertThat(breaker.tryAcquire()).isTrue();
  }

  @Test
  void aFailedProbeOpensItAgainForAnotherDelay() {
    open();
    clock.advance(Duration.ofSeconds(1));
    assertThat(breaker.tryAcquire()).isTrue();

    breaker.failed();

    assertThat(breaker.state()).isEqualTo(CircuitBreaker.State.OPEN);
    assertThat(breaker.tryAcquire()).isFalse();
    clock.advance(Duration.ofSeconds(1));
    assertThat(breaker.tryAcquire()).isTrue();
  }

  @Test
  void aProbeThatNeverReportsIsReplacedAfterAnotherDelay() {
    open();
    clock.advance(Duration.ofSeconds(1));
    assertThat(breaker.tryAcquire()).isTrue();

    clock.advance(Duration.ofSeconds(1));

    assertThat(breaker.tryAcquire()).isTrue();
  }

  @Test
  void aLateFailureOfARequestSentBeforeItOpenedDoesNotPushTheRetryBack() {
    open();
    clock.advance(Duration.ofMillis(900));
    breaker.failed();
    clock.advance(Duration.ofMillis(100));

    assertThat(breaker.tryAcquire()).isTrue();
  }

  @Test
  void nonsenseSettingsAreRefused() {
    assertThatThrownBy(() -> new CircuitBreaker(0, Duration.ofSeconds(1), clock))
        .hasMessageContaining("failuresToOpen");
    assertThatThrownBy(() -> new CircuitBreaker(1, Duration.ZERO, clock))
        .hasMessageContaining("retryAfter");
  }

  private void open() {
    for (int i = 0; i < 3; i++) {
      breaker.tryAcquire();
      breaker.failed();
    }
    assertThat(breaker.state()).isEqualTo(CircuitBreaker.State.OPEN);
  }
}
