package io.quotaflow.bench.pipeline;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quotaflow.engine.Engine;
import io.quotaflow.engine.config.EngineConfig;
import io.quotaflow.engine.config.EngineSettings;
import io.quotaflow.engine.metrics.EngineMetrics;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.DoubleSummaryStatistics;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;

/**
 * One engine application with a fresh application id, as one instance or several (each with its own
 * state directory, as separate processes would have), timed from its start until every input record
 * was read and the runtime topic shows the workload's final state.
 */
final class EngineRun implements AutoCloseable {
  private static final long POLL_NANOS = Duration.ofMillis(10).toNanos();
  private static final long PROGRESS_NANOS = Duration.ofSeconds(10).toNanos();

  private final List<Engine> engines = new ArrayList<>();
  private final List<SimpleMeterRegistry> registries = new ArrayList<>();
  private final Path stateDir;
  private final String guarantee;
  private final String applicationId;

  /** The CPU category of the engine's stream threads. */
  static final String STREAM_THREADS = "engine's stream threads";

  EngineRun(
      final String bootstrapServers,
      final String topicPrefix,
      final int partitions,
      final String guarantee,
      final Path stateDir,
      final Map<String, String> extra) {
    this(bootstrapServers, topicPrefix, partitions, guarantee, stateDir, extra, 1);
  }

  /**
   * @param instances how many instances of the application run side by side, each in {@code
   *     stateDir}/{@code instance-<n>}
   */
  EngineRun(
      final String bootstrapServers,
      final String topicPrefix,
      final int partitions,
      final String guarantee,
      final Path stateDir,
      final Map<String, String> extra,
      final int instances) {
    this.stateDir = stateDir;
    this.guarantee = guarantee;
    this.applicationId =
        "quotaflow-bench-" + guarantee.replace('_', '-') + "-" + System.currentTimeMillis();
    for (int i = 0; i < instances; i++) {
      final Path own = instances == 1 ? stateDir : stateDir.resolve("instance-" + i);
      final EngineConfig config =
          config(bootstrapServers, applicationId, own, guarantee)
              .set(EngineSettings.TOPIC_PREFIX.key(), topicPrefix)
              .set(EngineSettings.TOPIC_PARTITIONS.key(), Integer.toString(partitions))
              .set(EngineSettings.SHUTDOWN_TIMEOUT.key(), "30s")
              .setAll(extra)
              .build();
      final SimpleMeterRegistry registry = new SimpleMeterRegistry();
      registries.add(registry);
      engines.add(new Engine(config, registry));
    }
  }

  /**
   * The engine's configuration builder with what every Streams application of the bench sets: the
   * broker, a fresh application id, a state directory and the guarantee; the rest are the engine's
   * defaults.
   */
  static EngineConfig.Builder config(
      final String bootstrapServers,
      final String applicationId,
      final Path stateDir,
      final String guarantee) {
    return EngineConfig.builder()
        .set(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers)
        .set(StreamsConfig.APPLICATION_ID_CONFIG, applicationId)
        .set(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString())
        .set(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, guarantee)
        // The bench writes inputs without the connectors' markers.
        .set(EngineSettings.INPUTS_MARKERS_REQUIRED.key(), "false");
  }

  String guarantee() {
    return guarantee;
  }

  String applicationId() {
    return applicationId;
  }

  Path stateDir() {
    return stateDir;
  }

  /**
   * Starts the engine and waits (at most {@code limit}) until it has read {@code inputs} records
   * and {@code watcher} has seen the final state.
   */
  Timing runUntilCaughtUp(final RuntimeWatcher watcher, final long inputs, final Duration limit) {
    engines.get(0).provisionTopics();
    final long start = System.nanoTime();
    final CpuTime cpuAtStart = CpuTime.start();
    engines.forEach(Engine::start);
    final long deadline = start + limit.toNanos();
    long firstRead = 0;
    long allRead = 0;
    long progress = start + PROGRESS_NANOS;
    while (System.nanoTime() < deadline) {
      for (final Engine engine : engines) {
        final KafkaStreams.State state = engine.streams().state();
        if (state == KafkaStreams.State.ERROR || state == KafkaStreams.State.PENDING_ERROR) {
          throw new IllegalStateException("the engine failed: " + state);
        }
      }
      final double read = recordsRead();
      final long now = System.nanoTime();
      if (firstRead == 0 && read > 0) {
        firstRead = now;
      }
      if (allRead == 0 && read >= inputs) {
        allRead = now;
      }
      if (allRead != 0 && watcher.caughtUpAt() != 0) {
        return new Timing(
            start, firstRead, allRead, watcher.caughtUpAt(), true, cpuSince(cpuAtStart));
      }
      if (now >= progress) {
        progress += PROGRESS_NANOS;
        System.err.printf(
            "%s: %.0f s, %,.0f of %,d inputs read, %,d runtime records, %,d leaves behind%n",
            guarantee,
            (now - start) / 1e9,
            read,
            inputs,
            watcher.runtimeRecords(),
            watcher.mismatches());
      }
      LockSupport.parkNanos(POLL_NANOS);
    }
    return new Timing(start, firstRead, allRead, System.nanoTime(), false, cpuSince(cpuAtStart));
  }

  private Map<String, Long> cpuSince(final CpuTime cpuAtStart) {
    return cpuAtStart.since(this::threadCategory);
  }

  /** Which part of the process a thread belongs to, from its name. */
  private String threadCategory(final String thread) {
    // Stream threads are named <application id>-<uuid>-StreamThread-<n>; each run has its own id.
    if (thread.startsWith(applicationId) && thread.contains("-StreamThread-")) {
      return STREAM_THREADS;
    }
    if (thread.contains(applicationId)) {
      return "engine's client network threads";
    }
    if (thread.startsWith("runtime-watcher")) {
      return "bench: runtime.v1 watcher";
    }
    if (thread.startsWith("data-plane-kafka") || thread.startsWith("kafka-")) {
      return "broker: network and request handlers";
    }
    return "other Java threads (broker, bench)";
  }

  /** Input records the engine has read so far (all input topics). */
  double recordsRead() {
    return registries.stream()
        .flatMap(registry -> registry.find(EngineMetrics.RECORDS_READ).counters().stream())
        .mapToDouble(Counter::count)
        .sum();
  }

  /** Throws when an instance of the engine failed or stopped. */
  void requireRunning() {
    for (final Engine engine : engines) {
      final KafkaStreams.State state = engine.streams().state();
      if (!state.isRunningOrRebalancing()) {
        throw new IllegalStateException("the engine is " + state);
      }
    }
  }

  /** The sum over the instances of the counters named {@code name} (every tag). */
  double counterSum(final String name) {
    return registries.stream()
        .flatMap(registry -> registry.find(name).counters().stream())
        .mapToDouble(Counter::count)
        .sum();
  }

  /** The values of the gauges named {@code name} (every tag, every instance). */
  DoubleSummaryStatistics gauges(final String name) {
    return registries.stream()
        .flatMap(registry -> registry.find(name).gauges().stream())
        .mapToDouble(Gauge::value)
        .summaryStatistics();
  }

  @Override
  public void close() {
    // Closed together, as a deployment's instances stop: one closing alone would hand its tasks
    // to the others first.
    engines.parallelStream().forEach(Engine::close);
  }

  /**
   * Moments of a run (System.nanoTime).
   *
   * @param start the engine was started
   * @param firstRead its first input record was read (0 if none)
   * @param allRead every input record was read (0 if not)
   * @param caughtUp the runtime topic showed the final state (or the give-up time)
   * @param complete whether it caught up within the limit
   * @param cpu the CPU nanoseconds used meanwhile, by part of the process (see {@link CpuTime})
   */
  record Timing(
      long start,
      long firstRead,
      long allRead,
      long caughtUp,
      boolean complete,
      Map<String, Long> cpu) {
    double secondsFromStart() {
      return (caughtUp - start) / 1e9;
    }

    double secondsFromFirstRead() {
      return firstRead == 0 ? Double.NaN : (caughtUp - firstRead) / 1e9;
    }
  }
}
