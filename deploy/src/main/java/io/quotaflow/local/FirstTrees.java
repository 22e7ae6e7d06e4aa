package io.quotaflow.local;

import io.quotaflow.cluster.KubeCluster;
import io.quotaflow.engine.Engine;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import org.apache.kafka.streams.KafkaStreams;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last step of {@code quotaflow local}'s start: waiting for the engine's first trees, saying
 * how far it is (changelog records to restore, the connectors' records still to read) meanwhile.
 */
final class FirstTrees {

  private static final Logger LOG = LoggerFactory.getLogger(FirstTrees.class);

  /**
   * How long the engine may make no progress while starting. Longer than the consumer's API timeout
   * (60 s): a stream thread whose committed offsets are held by a crashed run's open transaction
   * retries after that timeout, and a bound equal to it gave up at the same moment.
   */
  private static final Duration ENGINE_STALL_LIMIT = Duration.ofSeconds(150);

  private FirstTrees() {}

  /**
   * Waits until the engine serves a tree of every cluster, computed from everything the connectors
   * had written when they were in sync: the whole organisation, not the part read so far. Gives up
   * when it has read nothing more for {@link #ENGINE_STALL_LIMIT}.
   */
  static void await(
      final Engine engine,
      final List<KubeCluster> clusters,
      final TreePrinter probe,
      final EngineCatchUp catchUp) {
    long deadline = System.nanoTime() + ENGINE_STALL_LIMIT.toNanos();
    long lastBehind = Long.MAX_VALUE;
    final ProgressTicker ticker = ProgressTicker.every(LocalRun.PROGRESS_INTERVAL);
    while (true) {
      final KafkaStreams.State state = engine.streams().state();
      if (state == KafkaStreams.State.ERROR || state == KafkaStreams.State.NOT_RUNNING) {
        throw new IllegalStateException("The engine stopped while starting (state " + state + ")");
      }
      final boolean trees =
          state == KafkaStreams.State.RUNNING
              && clusters.stream().allMatch(cluster -> probe.snapshot(cluster).isPresent());
      final boolean due = ticker.due();
      if (trees || due) {
        final OptionalLong behind = catchUp.behind();
        if (trees && behind.orElse(0) == 0) {
          return;
        }
        if (behind.isPresent() && behind.getAsLong() < lastBehind) {
          lastBehind = behind.getAsLong();
          deadline = System.nanoTime() + ENGINE_STALL_LIMIT.toNanos();
        }
        if (due) {
          LOG.info("Engine: starting ({}), {}", state, progress(engine, behind, catchUp.total()));
        }
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "The engine computed no tree within " + ENGINE_STALL_LIMIT.toSeconds() + " s");
      }
      sleepBriefly();
    }
  }

  private static String progress(final Engine engine, final OptionalLong behind, final long total) {
    final EngineLag lag = EngineLag.of(engine.streams().metrics());
    final String restoring =
        lag.restoring() > 0
            ? String.format(Locale.ROOT, "%,d changelog records to restore, ", lag.restoring())
            : "";
    return behind.isPresent()
        ? restoring
            + String.format(
                Locale.ROOT,
                "%,d of the connectors' %,d records still to read",
                behind.getAsLong(),
                total)
        : lag.describe();
  }

  private static void sleepBriefly() {
    try {
      Thread.sleep(100);
    } catch (final InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while starting", e);
    }
  }
}
