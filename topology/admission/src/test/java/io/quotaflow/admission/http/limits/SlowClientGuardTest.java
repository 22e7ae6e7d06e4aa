package io.quotaflow.admission.http.limits;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.EventListener;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.junit.jupiter.api.Test;

/** Which connections the guard closes, on a clock the test moves. */
class SlowClientGuardTest {

  private static final long SECOND = 1_000_000_000L;

  private final AtomicLong now = new AtomicLong();
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final SlowClientGuard guard =
      new SlowClientGuard(Duration.ofSeconds(5), registry, now::get, false);

  @Test
  void aConnectionWhoseFirstRequestDoesNotCompleteInTimeIsClosed() {
    final FakeConnection trickling = open();
    final FakeConnection quick = open();

    quick.messages = 1;
    quick.bytes = 500;
    at(2);
    trickling.bytes = 3;
    at(4);
    trickling.bytes = 4;
    at(6);

    assertThat(trickling.closed).isTrue();
    assertThat(quick.closed).isFalse();
    assertThat(registry.counter(SlowClientGuard.CLOSED, "reason", "slow").count()).isEqualTo(1);
  }

  @Test
  void aKeptAliveConnectionIsTimedFromTheFirstByteOfItsNextRequest() {
    final FakeConnection kept = open();
    kept.messages = 1;
    kept.bytes = 500;
    at(1);
    // Idle for a minute: the idle timeout's business, not the guard's.
    at(60);
    assertThat(kept.closed).isFalse();

    kept.bytes = 510;
    at(61);
    kept.bytes = 511;
    at(64);
    assertThat(kept.closed).as("4 s into its request").isFalse();
    at(67);
    assertThat(kept.closed).as("6 s into its request").isTrue();
  }

  @Test
  void aConnectionThatKeepsCompletingRequestsIsNeverClosed() {
    final FakeConnection busy = open();
    for (int second = 1; second <= 60; second++) {
      busy.messages++;
      busy.bytes += 1_000;
      at(second);
    }
    assertThat(busy.closed).isFalse();
  }

  @Test
  void aConnectionThatSendsNothingAtAllIsClosedAfterTheLimit() {
    final FakeConnection silent = open();
    at(4);
    assertThat(silent.closed).isFalse();
    at(6);
    assertThat(silent.closed).isTrue();
  }

  private FakeConnection open() {
    final FakeConnection connection = new FakeConnection();
    guard.onOpened(connection);
    return connection;
  }

  private void at(long seconds) {
    now.set(seconds * SECOND);
    guard.sweep();
  }

  /** A connection whose counters the test sets. */
  private static final class FakeConnection implements Connection {
    long messages;
    long bytes;
    boolean closed;

    @Override
    public void addEventListener(EventListener listener) {}

    @Override
    public void removeEventListener(EventListener listener) {}

    @Override
    public void onOpen() {}

    @Override
    public void onClose(Throwable cause) {}

    @Override
    public EndPoint getEndPoint() {
      return null;
    }

    @Override
    public void close() {
      closed = true;
    }

    @Override
    public boolean onIdleExpired(TimeoutException timeout) {
      return true;
    }

    @Override
    public long getMessagesIn() {
      return messages;
    }

    @Override
    public long getMessagesOut() {
      return messages;
    }

    @Override
    public long getBytesIn() {
      return bytes;
    }

    @Override
    public long getBytesOut() {
      return 0;
    }

    @Override
    public long getCreatedTimeStamp() {
      return 0;
    }
  }
}
