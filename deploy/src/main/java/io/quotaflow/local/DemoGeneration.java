package io.quotaflow.local;

import io.fabric8.kubernetes.client.utils.Utils;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which generation of the demo cluster a data directory holds, so that pod uids behave as a real
 * API server's do across runs of {@code quotaflow local --data-dir}.
 *
 * <p>The mock API server numbers uids from 1 in every process, so a rerun recreates the example
 * pods under the uids of the run before. Right after a crash that is what a real cluster shows (the
 * pods are the same pods, and an eviction decided before the crash is carried out). Once a pod was
 * evicted it is not: an evicted pod never comes back under its uid, and its command already has a
 * result, so a replayed scenario would wait for an eviction that cannot come. The generation
 * therefore moves on at a run's first eviction, and the next run numbers its uids from {@code
 * generation << 40}.
 */
final class DemoGeneration {

  private static final Logger LOG = LoggerFactory.getLogger(DemoGeneration.class);
  private static final String FILE = "demo-cluster-generation";

  private final Path file;
  private final long generation;
  private final AtomicBoolean moved = new AtomicBoolean();

  private DemoGeneration(final Path file, final long generation) {
    this.file = file;
    this.generation = generation;
  }

  /** The generation recorded in {@code dataDir}; 0 in a new one. */
  static DemoGeneration in(final Path dataDir) {
    final Path file = dataDir.resolve(FILE);
    try {
      if (!Files.exists(file)) {
        return new DemoGeneration(file, 0);
      }
      final String text = Files.readString(file, StandardCharsets.UTF_8).trim();
      return new DemoGeneration(file, Long.parseLong(text));
    } catch (final IOException e) {
      throw new UncheckedIOException("Cannot read " + file, e);
    } catch (final NumberFormatException e) {
      LOG.warn("{} does not hold a number; the demo cluster starts from generation 0", file);
      return new DemoGeneration(file, 0);
    }
  }

  long generation() {
    return generation;
  }

  /**
   * Makes the mock API server hand out uids from this generation's range. The mock has no setting
   * for it: its counter is a private static field of fabric8's {@code Utils}, set here by
   * reflection; if a fabric8 release renames it, uids stay as the mock makes them.
   */
  void startUids() {
    try {
      final Field counter = Utils.class.getDeclaredField("leastSigBits");
      counter.setAccessible(true);
      // Only forward: uids already handed out in this JVM stay unique.
      ((AtomicLong) counter.get(null)).accumulateAndGet(generation << 40, Math::max);
    } catch (final ReflectiveOperationException | RuntimeException e) {
      LOG.warn("Cannot set the demo cluster's uid counter ({}); reruns reuse uids", e.toString());
    }
  }

  /** Records that a pod was evicted: the next run starts the next generation. Idempotent. */
  void podEvicted() {
    if (!moved.compareAndSet(false, true)) {
      return;
    }
    try {
      Files.writeString(file, Long.toString(generation + 1) + "\n", StandardCharsets.UTF_8);
    } catch (final IOException e) {
      LOG.warn("Cannot record the demo cluster's next generation in {}: {}", file, e.toString());
    }
  }
}
