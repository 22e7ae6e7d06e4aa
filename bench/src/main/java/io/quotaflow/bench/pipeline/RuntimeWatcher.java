package io.quotaflow.bench.pipeline;

import io.quotaflow.schemas.GroupRuntime;
import io.quotaflow.schemas.QuotaKey;
import io.quotaflow.topics.TopicCatalogue;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;

/**
 * Follows the runtime topic ({@code read_committed}, from its end when created) on its own thread,
 * and knows each leaf group's latest used cpu. It answers two questions: when every leaf shows the
 * used cpu the workload expects (the engine's output has caught up), and, for events registered
 * with {@link #expect}, how long after their send time the runtime record showing their effect
 * became visible.
 */
final class RuntimeWatcher implements AutoCloseable {
  private static final long HIGHEST_MICROS = TimeUnit.MINUTES.toMicros(5);

  private final Workload workload;
  private final KafkaConsumer<QuotaKey, GroupRuntime> consumer;
  private final Thread thread;
  private final CountDownLatch stopped = new CountDownLatch(1);
  private final long[] seen;
  private final long[] target;
  private final long[] pendingUsed;
  private final long[] pendingSince;
  private final boolean[] pendingRecorded;
  private final Histogram latencyMicros = new Histogram(HIGHEST_MICROS, 3);
  private long mismatches;
  private long caughtUpAt;
  private long runtimeRecords;
  private volatile boolean running = true;

  RuntimeWatcher(final String bootstrapServers, final TopicCatalogue topics, final Workload model) {
    this.workload = model;
    this.seen = new long[model.leafCount()];
    Arrays.fill(seen, -1);
    this.target = model.leafUsed();
    this.mismatches = target.length;
    this.pendingUsed = new long[model.leafCount()];
    this.pendingSince = new long[model.leafCount()];
    this.pendingRecorded = new boolean[model.leafCount()];
    this.consumer =
        new KafkaConsumer<>(
            ReadCommitted.settings(bootstrapServers, 5_000),
            topics.runtime().keyDeserializer(),
            topics.runtime().valueDeserializer());
    final List<TopicPartition> partitions =
        consumer.partitionsFor(topics.runtime().name()).stream()
            .map(info -> new TopicPartition(info.topic(), info.partition()))
            .toList();
    consumer.assign(partitions);
    consumer.seekToEnd(partitions);
    // seekToEnd is lazy: fix the positions now, before the engine writes anything new.
    partitions.forEach(consumer::position);
    this.thread = new Thread(this::run, "runtime-watcher");
    this.thread.setDaemon(true);
    this.thread.start();
  }

  /** Sets which used cpu per leaf counts as caught up (the model's state now). */
  synchronized void target(final long[] usedPerLeaf) {
    System.arraycopy(usedPerLeaf, 0, target, 0, target.length);
    mismatches = 0;
    for (int i = 0; i < target.length; i++) {
      if (seen[i] != target[i]) {
        mismatches++;
      }
    }
    caughtUpAt = mismatches == 0 ? System.nanoTime() : 0;
  }

  /** The nanoTime at which every leaf showed its target, or 0 while some do not. */
  synchronized long caughtUpAt() {
    return caughtUpAt;
  }

  synchronized long mismatches() {
    return mismatches;
  }

  synchronized long runtimeRecords() {
    return runtimeRecords;
  }

  /**
   * An event sent (or due) at {@code sentNanos} makes {@code leaf}'s used cpu {@code used}; the
   * first runtime record showing it ends its latency, which goes into the histogram if {@code
   * recorded} (false during warm-up). Returns whether an earlier event of the same leaf was still
   * unmatched (it is then dropped).
   */
  synchronized boolean expect(
      final int leaf, final long used, final long sentNanos, final boolean recorded) {
    final boolean superseded = pendingSince[leaf] != 0;
    pendingUsed[leaf] = used;
    pendingSince[leaf] = sentNanos;
    pendingRecorded[leaf] = recorded;
    final boolean wasRight = seen[leaf] == target[leaf];
    target[leaf] = used;
    final boolean isRight = seen[leaf] == used;
    if (wasRight != isRight) {
      mismatches += isRight ? -1 : 1;
    }
    return superseded;
  }

  /** A copy of the latencies recorded so far, in microseconds. */
  synchronized Histogram latencies() {
    return latencyMicros.copy();
  }

  private void run() {
    try {
      while (running) {
        final var records = consumer.poll(Duration.ofMillis(100));
        final long now = System.nanoTime();
        synchronized (this) {
          for (final ConsumerRecord<QuotaKey, GroupRuntime> record : records) {
            runtimeRecords++;
            if (record.value() != null) {
              apply(record.key(), record.value(), now);
            }
          }
        }
      }
    } catch (final WakeupException e) {
      // close() asked us to stop.
    } finally {
      consumer.close();
      stopped.countDown();
    }
  }

  private void apply(final QuotaKey key, final GroupRuntime value, final long now) {
    final int leaf = workload.leafIndex(key.getCluster(), key.getName());
    if (leaf < 0) {
      return;
    }
    final long used = value.getUsed().getOrDefault("cpu", 0L);
    final boolean wasRight = seen[leaf] == target[leaf];
    seen[leaf] = used;
    final boolean isRight = used == target[leaf];
    if (wasRight && !isRight) {
      mismatches++;
    } else if (!wasRight && isRight) {
      mismatches--;
      if (mismatches == 0) {
        caughtUpAt = now;
      }
    }
    if (pendingSince[leaf] != 0 && used == pendingUsed[leaf]) {
      record(leaf, now);
    }
  }

  private void record(final int leaf, final long now) {
    if (pendingRecorded[leaf]) {
      latencyMicros.recordValue(
          Math.min(HIGHEST_MICROS, Math.max(0, (now - pendingSince[leaf]) / 1_000)));
    }
    pendingSince[leaf] = 0;
  }

  @Override
  public void close() throws InterruptedException {
    running = false;
    consumer.wakeup();
    stopped.await(10, TimeUnit.SECONDS);
  }
}
