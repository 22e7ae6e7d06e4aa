package io.quotaflow.bench.pipeline;

import io.quotaflow.schemas.PodKey;
import io.quotaflow.schemas.QuotaKey;
import io.quotaflow.topics.SourceMarkers;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The soak benchmark's writer, on its own thread until stopped: pod events at a fixed rate (each a
 * pod's new cpu request, visiting every leaf group before any again, registered with the {@link
 * RuntimeWatcher} so their latency is known), the connectors' heartbeats every {@link
 * #HEARTBEAT_PERIOD} for every cluster and input kind, and one flapping quota group: every flap
 * period its min and max go up and a batch of new pods appears in it, the next period they go down
 * and those pods are deleted. The flapping group is not a {@code team-} leaf, so the watcher's
 * model of the other leaves is unaffected. Events are due on a fixed schedule: a stall (a full GC
 * of the sampler) is caught up in a burst, not dropped.
 */
final class SoakLoad implements AutoCloseable {
  /** How often the connectors write a heartbeat per cluster and kind (connect's default). */
  static final Duration HEARTBEAT_PERIOD = Duration.ofSeconds(10);

  static final String SOURCE = "soak-bench";
  static final String FLAPPING_GROUP = "flapping";
  private static final int FLAPPING_PARENT = 0;
  private static final int FLAPPING_PODS = 50;
  private static final long FLAPPING_POD_CPU = 200;

  private final Workload workload;
  private final InputWriter writer;
  private final RuntimeWatcher watcher;
  private final int rate;
  private final Duration flapPeriod;
  private final QuotaKey flapping;
  private final AtomicLong podEvents = new AtomicLong();
  private final AtomicLong markers = new AtomicLong();
  private final AtomicLong flaps = new AtomicLong();
  private final Thread thread;
  private volatile boolean running = true;
  private volatile RuntimeException failure;

  SoakLoad(
      final Workload workload,
      final InputWriter writer,
      final RuntimeWatcher watcher,
      final int rate,
      final Duration flapPeriod) {
    this.workload = workload;
    this.writer = writer;
    this.watcher = watcher;
    this.rate = rate;
    this.flapPeriod = flapPeriod;
    this.flapping = new QuotaKey(Workload.cluster(0), FLAPPING_GROUP);
    this.thread = new Thread(this::run, "soak-load");
  }

  /** The flapping group. */
  QuotaKey flapping() {
    return flapping;
  }

  /** Writes every cluster's heartbeat on every input topic now. */
  private void heartbeats() {
    final Instant at = Instant.now();
    for (int c = 0; c < workload.shape().clusters(); c++) {
      writer.marker(SourceMarkers.heartbeat(Workload.cluster(c), at, SOURCE));
      markers.addAndGet(4);
    }
  }

  void start() {
    thread.start();
  }

  /** Pod events written so far, the flapping group's included. */
  long podEvents() {
    return podEvents.get();
  }

  /** Marker records written so far (one per cluster and input topic per heartbeat). */
  long markers() {
    return markers.get();
  }

  /** Times the flapping group changed so far. */
  long flaps() {
    return flaps.get();
  }

  /** Throws what stopped the writer, if anything did. */
  void requireRunning() {
    if (failure != null) {
      throw new IllegalStateException("the soak load stopped", failure);
    }
  }

  private void run() {
    try {
      final long period = 1_000_000_000L / rate;
      final long start = System.nanoTime();
      long nextHeartbeat = start + HEARTBEAT_PERIOD.toNanos();
      long nextFlap = start;
      long sent = 0;
      while (running) {
        final long now = System.nanoTime();
        if (now >= nextHeartbeat) {
          heartbeats();
          nextHeartbeat += HEARTBEAT_PERIOD.toNanos();
        }
        if (now >= nextFlap) {
          flap(flaps.getAndIncrement());
          nextFlap += flapPeriod.toNanos();
        }
        final long due = start + sent * period;
        if (due > now) {
          LockSupport.parkNanos(Math.min(due, Math.min(nextHeartbeat, nextFlap)) - now);
          continue;
        }
        final Workload.PodEvent event = workload.event(workload.podVisitingLeaves(sent));
        watcher.expect(event.leaf(), event.leafUsedCpu(), due, true);
        writer.pod(event);
        podEvents.incrementAndGet();
        sent++;
      }
      writer.flush();
    } catch (final RuntimeException e) {
      failure = e;
    }
  }

  /**
   * Flap number {@code n}: even ones raise the group's min and max and create a batch of pods in it
   * (names new every time, so the engine sees new keys), odd ones lower them and delete the batch.
   */
  private void flap(final long n) {
    final long leafMin = Workload.leafMinCpu();
    // The parent's min has room for one more leaf's min at most (see Workload#quotas).
    final long room =
        Math.max(0, (Workload.LEAVES_PER_PARENT - workload.leavesPerParent()) * leafMin);
    final boolean up = n % 2 == 0;
    final long min = up ? Math.min(leafMin, room) : Math.min(leafMin, room) / 2;
    final long max = up ? leafMin * 8 : leafMin * 2;
    writer.quota(flapping, Workload.leafSpec(FLAPPING_PARENT, min, max));
    final long batch = up ? n : n - 1;
    for (final PodKey key : flappingPods(batch)) {
      writer.pod(
          key,
          up
              ? Workload.runningPod(
                  key.getName(), FLAPPING_GROUP, "node-0000", 1, FLAPPING_POD_CPU, Instant.now())
              : null);
      podEvents.incrementAndGet();
    }
  }

  private List<PodKey> flappingPods(final long batch) {
    final List<PodKey> keys = new ArrayList<>(FLAPPING_PODS);
    for (int i = 0; i < FLAPPING_PODS; i++) {
      keys.add(
          new PodKey(
              flapping.getCluster(),
              FLAPPING_GROUP,
              String.format("flapping-%05d-%02d", batch, i)));
    }
    return keys;
  }

  /** Stops the writer and waits until everything it sent is acknowledged. */
  @Override
  public void close() throws InterruptedException {
    running = false;
    thread.join(Duration.ofSeconds(30).toMillis());
  }
}
