package io.quotaflow.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ProgressTickerTest {

  private final AtomicLong now = new AtomicLong(1_000);
  private final ProgressTicker ticker = new ProgressTicker(Duration.ofNanos(100), now::get);

  @Test
  void workFinishedWithinAnIntervalPrintsNoProgress() {
    now.addAndGet(99);

    assertThat(ticker.due()).isFalse();
  }

  @Test
  void aLineIsDueOncePerInterval() {
    now.addAndGet(100);
    assertThat(ticker.due()).isTrue();
    assertThat(ticker.due()).isFalse();

    now.addAndGet(99);
    assertThat(ticker.due()).isFalse();
    now.addAndGet(1);
    assertThat(ticker.due()).isTrue();
  }
}
