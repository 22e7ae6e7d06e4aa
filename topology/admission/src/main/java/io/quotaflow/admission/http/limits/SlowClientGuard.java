package io.quotaflow.admission.http.limits;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.eclipse.jetty.io.Connection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Closes connections that send a request too slowly (issue 25): a client that trickles a byte every
 * few seconds keeps an idle timeout from ever firing, so on its own a connection is free to take a
 * request forever. Each HTTP connection of the connector this listens to must complete its first
 * request within {@code limit} of being opened, and each later request within {@code limit} of its
 * first byte; one that does not is closed. Idle connections are left to the idle timeout.
 *
 * <p>Progress is read from Jetty's counters every {@code limit / 4}: a request is complete once the
 * connection counts it as a message and no more bytes arrive for it (a body still arriving counts
 * as slow too). Closed connections are counted in {@code
 * quotaflow.admission.connections.closed{reason=slow}}.
 */
public final class SlowClientGuard implements Connection.Listener, AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(SlowClientGuard.class);

  /** Counter of connections closed by the guard, tag {@code reason}. */
  public static final String CLOSED = "quotaflow.admission.connections.closed";

  private final long limitNanos;
  private final LongSupplier nanoClock;
  private final Counter closed;
  private final Map<Connection, Progress> watched = new ConcurrentHashMap<>();
  private final ScheduledExecutorService sweeper;

  /** What was last seen of one connection. */
  private static final class Progress {
    long messages;
    long bytes;
    // When the bytes of an unfinished request were first seen (the opening, for the first one);
    // -1 while no request is under way.
    long partialSince;

    Progress(long openedAt) {
      this.partialSince = openedAt;
    }
  }

  public SlowClientGuard(Duration limit, MeterRegistry registry) {
    this(limit, registry, System::nanoTime, true);
  }

  /**
   * @param sweeping whether a thread sweeps on its own; tests call {@link #sweep} themselves
   */
  public SlowClientGuard(
      Duration limit, MeterRegistry registry, LongSupplier nanoClock, boolean sweeping) {
    this.limitNanos = limit.toNanos();
    this.nanoClock = nanoClock;
    this.closed =
        Counter.builder(CLOSED)
            .description("Connections the admission plugin closed, by reason")
            .tag("reason", "slow")
            .register(registry);
    if (sweeping) {
      sweeper =
          Executors.newSingleThreadScheduledExecutor(
              runnable -> {
                final Thread thread = new Thread(runnable, "quotaflow-admission-slow-clients");
                thread.setDaemon(true);
                return thread;
              });
      final long every = Math.max(1, limit.toMillis() / 4);
      sweeper.scheduleWithFixedDelay(this::sweepQuietly, every, every, TimeUnit.MILLISECONDS);
    } else {
      sweeper = null;
    }
  }

  @Override
  public void onOpened(Connection connection) {
    // Only connections that count requests: a TLS connection under them is closed with them.
    if (connection.getMessagesIn() >= 0 && !isTls(connection)) {
      watched.put(connection, new Progress(nanoClock.getAsLong()));
    }
  }

  @Override
  public void onClosed(Connection connection) {
    watched.remove(connection);
  }

  /** How many connections are watched. */
  int watched() {
    return watched.size();
  }

  /** Closes the connections whose request has taken longer than the limit; returns how many. */
  public int sweep() {
    final long now = nanoClock.getAsLong();
    int slow = 0;
    for (final Map.Entry<Connection, Progress> entry : watched.entrySet()) {
      final Connection connection = entry.getKey();
      final Progress progress = entry.getValue();
      final long messages = connection.getMessagesIn();
      final long bytes = connection.getBytesIn();
      if (messages != progress.messages) {
        // A request arrived since the last look: it is the next one's turn to be timed.
        progress.messages = messages;
        progress.bytes = bytes;
        progress.partialSince = -1;
        continue;
      }
      if (bytes != progress.bytes && progress.partialSince < 0) {
        progress.bytes = bytes;
        progress.partialSince = now;
        continue;
      }
      progress.bytes = bytes;
      if (progress.partialSince >= 0 && now - progress.partialSince > limitNanos) {
        slow++;
        closed.increment();
        watched.remove(connection);
        LOG.debug(
            "closing {}: a request took longer than {} ms", connection, limitNanos / 1_000_000);
        connection.close();
      }
    }
    return slow;
  }

  private void sweepQuietly() {
    try {
      sweep();
    } catch (RuntimeException e) {
      LOG.warn("the slow-client sweep failed", e);
    }
  }

  private static boolean isTls(Connection connection) {
    return connection.getClass().getSimpleName().equals("SslConnection");
  }

  @Override
  public void close() {
    if (sweeper != null) {
      sweeper.shutdownNow();
    }
  }
}
