package io.quotaflow.cluster;

import io.quotaflow.engine.liveness.Heartbeats;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A connector's work loop on its own thread, over clients it owns: started once, closed once from
 * any thread (idempotent), with a future that completes when the loop has ended and its clients are
 * closed; exceptionally when an error ended it. A wake-up or interrupt caused by {@link #close()}
 * ends it normally.
 */
public abstract class ClientLoop implements AutoCloseable {
  /**
   * How long {@link #close()} waits for the loop to end and its clients to close: a stop (SIGTERM)
   * must end within 5 s, whatever state the group or the broker is in.
   */
  protected static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(3);

  /** How long each client's close may take. */
  protected static final Duration CLIENT_CLOSE_TIMEOUT = GroupMembership.CLIENT_CLOSE_TIMEOUT;

  private static final Logger LOG = LoggerFactory.getLogger(ClientLoop.class);

  private final String name;
  private final Thread thread;
  private final CompletableFuture<Void> stopped = new CompletableFuture<>();
  private volatile boolean running = true;
  private volatile Optional<Heartbeats.Beat> beat = Optional.empty();
  private boolean started;
  private boolean closed;
  private Optional<Supplier<Heartbeats.Beat>> watch = Optional.empty();

  /**
   * @param name what the loop is, for its thread's name and its log lines
   */
  protected ClientLoop(final String name) {
    this.name = Objects.requireNonNull(name, "name");
    this.thread = new Thread(this::run, "quotaflow-" + name.replace(' ', '-'));
    // A loop stuck in a client call must not keep the JVM alive after a stop.
    this.thread.setDaemon(true);
  }

  /**
   * Has {@code heartbeats} watch this loop from its start: it must {@link #beat()} every round,
   * idle or not, or {@code /healthz} fails once it has been silent for {@code allowedSilence}.
   */
  public final synchronized void watchedBy(Heartbeats heartbeats, Duration allowedSilence) {
    if (started || closed) {
      throw new IllegalStateException("The " + name + " is watched from its start");
    }
    this.watch = Optional.of(() -> heartbeats.register("the " + name, allowedSilence));
  }

  /** Starts the loop on its own thread. */
  public final synchronized void start() {
    if (started || closed) {
      throw new IllegalStateException("The " + name + " starts once");
    }
    started = true;
    beat = watch.map(Supplier::get);
    thread.start();
  }

  /** Completes when the loop stops; exceptionally when an error stopped it. */
  public final CompletableFuture<Void> stopped() {
    return stopped;
  }

  /** Stops the loop (see {@link #wakeUp()}), waits for it, and closes the clients. Idempotent. */
  @Override
  public final synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    running = false;
    if (started) {
      wakeUp();
      try {
        thread.join(CLOSE_TIMEOUT.toMillis());
        if (thread.isAlive()) {
          LOG.warn("{} did not stop within {}; leaving it behind", name, CLOSE_TIMEOUT);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    } else {
      closeClients();
      stopped.complete(null);
    }
  }

  /** Whether the loop is to go on; false once {@link #close()} was called. */
  protected final boolean running() {
    return running;
  }

  /** The loop is alive: called every round (see {@link #watchedBy}). */
  protected final void beat() {
    beat.ifPresent(Heartbeats.Beat::beat);
  }

  /** Interrupts the loop's thread (for {@link #wakeUp()} implementations that must end a wait). */
  protected final void interruptLoop() {
    thread.interrupt();
  }

  /** The work: runs until {@link #running()} turns false, or throws. */
  protected abstract void loop() throws InterruptedException;

  /** Ends the loop's current blocking call, called by {@link #close()} after the flag is down. */
  protected abstract void wakeUp();

  /** Closes the clients; called once, when the loop has ended or was never started. */
  protected abstract void closeClients();

  private void run() {
    try {
      loop();
      stopped.complete(null);
    } catch (WakeupException | InterruptedException e) {
      stopped.complete(null);
    } catch (RuntimeException e) {
      if (running) {
        LOG.error("{} stopped by an error", name, e);
        stopped.completeExceptionally(e);
      } else {
        stopped.complete(null);
      }
    } finally {
      // An ended loop is no longer watched: it stopped on purpose, or its error stops the others.
      beat.ifPresent(Heartbeats.Beat::close);
      // An interrupt meant for a wait must not reach the clients as they close.
      Thread.interrupted();
      closeClients();
      LOG.info("{} stopped", name);
    }
  }
}
