package io.quotaflow.bench.pipeline;

import io.quotaflow.broker.EmbeddedKafkaBroker;
import io.quotaflow.engine.config.EngineSettings;
import io.quotaflow.engine.metrics.EngineMetrics;
import io.quotaflow.topics.SourceMarkers;
import io.quotaflow.topics.TopicCatalogue;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.streams.StreamsConfig;

/**
 * The soak benchmark: the real engine ({@code exactly_once_v2}, markers required) on an in-process
 * broker under steady pod churn for an hour, sampled every minute after a warm-up, to show that
 * nothing grows: heap after GC, resident set, state directory, changelog and catalogue topics on
 * disk, open files, threads; and that the engine keeps up: offered and read rates, its input lag,
 * the latency of pod events, and its inputs' freshness (the connectors' heartbeats, every 10 s per
 * cluster and input kind, see {@link SoakLoad}). One quota group flaps (see {@link SoakLoad}).
 *
 * <p>The clusters are filled first as the connectors' first snapshot would be (start markers, every
 * object, end markers), the engine reads them, then the load starts. Writes the samples as CSV and
 * a chart (PNG) into the output directory as they come, and prints at the end a table of the first
 * and last samples with each series' flatness verdict (see {@link SoakVerdict}). Run by
 * bench/run-soak-bench.sh.
 *
 * <p>Options (all {@code --name value}): minutes (60), rate (pod events/s, 2,000), clusters (10),
 * groups (per cluster, 1,000), pods (in all, 100,000), partitions (6), warmup-minutes (2),
 * flap-seconds (60), segment-mib (the broker's log.segment.bytes, 16), rocksdb (0: the engine's
 * default in-memory stores; 1: RocksDB stores). The output directory is the system property {@code
 * soak.out} (default bench/target/soak).
 */
public final class SoakBench {
  private static final String PREFIX = "soak.";
  private static final PrintStream OUT = System.out;
  private static final Duration CATCH_UP_LIMIT = Duration.ofMinutes(5);
  private static final Duration FINAL_CATCH_UP = Duration.ofMinutes(1);

  private SoakBench() {}

  /** Runs the soak; see the class comment for the options. */
  public static void main(final String[] args) throws Exception {
    final Map<String, Integer> options = options(args);
    final int minutes = options.getOrDefault("minutes", 60);
    final int rate = options.getOrDefault("rate", 2_000);
    final int warmupMinutes = options.getOrDefault("warmup-minutes", 2);
    final int partitions = options.getOrDefault("partitions", 6);
    final int segmentMib = options.getOrDefault("segment-mib", 16);
    final Duration flapPeriod = Duration.ofSeconds(options.getOrDefault("flap-seconds", 60));
    if (warmupMinutes < 1 || minutes - warmupMinutes + 1 < 4) {
      throw new IllegalArgumentException(
          "need a warm-up of at least 1 minute and at least 4 samples after it");
    }
    final WorkloadShape shape =
        new WorkloadShape(
            options.getOrDefault("clusters", 10),
            options.getOrDefault("groups", 1_000),
            options.getOrDefault("pods", 100_000),
            0);
    final Map<String, String> engineSettings = new TreeMap<>();
    // The freshness path: a cluster is reclaimed only while its heartbeats are fresh.
    engineSettings.put(EngineSettings.INPUTS_MARKERS_REQUIRED.key(), "true");
    if (options.getOrDefault("rocksdb", 0) != 0) {
      engineSettings.put(EngineSettings.STATE_STORES.key(), "rocksdb");
    }
    final Path out = Path.of(System.getProperty("soak.out", "bench/target/soak"));
    Files.createDirectories(out);
    final Path work = Files.createTempDirectory("quotaflow-soak-bench");

    PipelineBench.printCpu();
    OUT.printf(
        Locale.ROOT,
        "soak: %d minutes (samples every minute after %d of warm-up), %,d pod events/s;"
            + " %d clusters x %d groups, %,d pods; %d partitions; one group flapping every %d s;"
            + " heartbeats every %d s per cluster and input kind; broker log.segment.bytes %d MiB%n",
        minutes,
        warmupMinutes,
        rate,
        shape.clusters(),
        shape.groupsPerCluster(),
        shape.pods(),
        partitions,
        flapPeriod.toSeconds(),
        SoakLoad.HEARTBEAT_PERIOD.toSeconds(),
        segmentMib);
    OUT.println("engine: exactly_once_v2, settings beyond the defaults: " + engineSettings);

    try (EmbeddedKafkaBroker broker =
        EmbeddedKafkaBroker.builder()
            // Compaction never touches a topic's active segment, and the broker's default segment
            // (1 GiB) would not roll within the hour: smaller segments let the changelogs reach
            // the steady state of a long-running deployment (compacted behind the head).
            .brokerProperty("log.segment.bytes", Integer.toString(segmentMib << 20))
            .build()
            .start()) {
      final String servers = broker.bootstrapServers();
      final TopicCatalogue topics = TopicCatalogue.withPrefix(PREFIX);
      PipelineBench.provision(servers, topics, partitions);
      final Workload workload = new Workload(shape);
      final long objects = fill(servers, topics, workload);
      OUT.printf(
          Locale.ROOT, "filled: %,d objects, as a first snapshot of each cluster%n", objects);

      try (RuntimeWatcher watcher = new RuntimeWatcher(servers, topics, workload);
          EngineRun run =
              new EngineRun(
                  servers,
                  PREFIX,
                  partitions,
                  StreamsConfig.EXACTLY_ONCE_V2,
                  work.resolve("state"),
                  engineSettings);
          InputWriter writer = new InputWriter(servers, topics, 0, true)) {
        final EngineRun.Timing start = run.runUntilCaughtUp(watcher, objects, CATCH_UP_LIMIT);
        if (!start.complete()) {
          throw new IllegalStateException("the engine did not read the first snapshot in time");
        }
        OUT.printf(
            Locale.ROOT, "engine caught up with the fill in %.1f s%n", start.secondsFromStart());
        final SoakLoad load = new SoakLoad(workload, writer, watcher, rate, flapPeriod);
        final List<SoakSample> samples;
        final long loadStart = System.nanoTime();
        load.start();
        try (load;
            SoakSampler sampler =
                new SoakSampler(
                    servers,
                    run,
                    load,
                    watcher,
                    List.of(
                        topics.pods().name(),
                        topics.quotas().name(),
                        topics.nodes().name(),
                        topics.profiles().name()),
                    PREFIX)) {
          samples = sample(out, run, load, sampler, loadStart, minutes, warmupMinutes);
        }
        OUT.printf(
            Locale.ROOT,
            "load stopped: %,d pod events, %,d marker records, %d flaps of %s%n",
            load.podEvents(),
            load.markers(),
            load.flaps(),
            load.flapping());
        finalCheck(run, watcher, workload);
        report(out, samples, rate, segmentMib, shape, minutes);
      }
    } finally {
      PipelineBench.deleteQuietly(work);
    }
  }

  /**
   * Writes every cluster's quotas, nodes and pods between snapshot markers on every input topic, as
   * the connectors' first snapshot, then a heartbeat; returns the objects written.
   */
  private static long fill(
      final String servers, final TopicCatalogue topics, final Workload workload) {
    final var quotas = workload.quotas();
    final var nodes = workload.nodes();
    final Instant at = Instant.now();
    final long epoch = at.toEpochMilli();
    final int clusters = workload.shape().clusters();
    try (InputWriter writer = new InputWriter(servers, topics, 10, true)) {
      for (int c = 0; c < clusters; c++) {
        writer.marker(SourceMarkers.snapshotStart(Workload.cluster(c), epoch, at, SoakLoad.SOURCE));
      }
      quotas.forEach(writer::quota);
      nodes.forEach(writer::node);
      for (int pod = 0; pod < workload.podCount(); pod++) {
        writer.pod(workload.event(pod));
      }
      writer.flush();
      final Instant end = Instant.now();
      for (int c = 0; c < clusters; c++) {
        // The engine does not read the count: -1, as the engine's tests write it.
        writer.marker(
            SourceMarkers.snapshotEnd(Workload.cluster(c), epoch, -1, end, SoakLoad.SOURCE));
        writer.marker(SourceMarkers.heartbeat(Workload.cluster(c), end, SoakLoad.SOURCE));
      }
      writer.flush();
    }
    return quotas.size() + nodes.size() + workload.podCount();
  }

  /**
   * Every minute of the load: a sample once the warm-up is over (written to samples.csv at once),
   * else only the start of the next interval.
   */
  private static List<SoakSample> sample(
      final Path out,
      final EngineRun run,
      final SoakLoad load,
      final SoakSampler sampler,
      final long loadStart,
      final int minutes,
      final int warmupMinutes)
      throws Exception {
    final List<SoakSample> samples = new ArrayList<>();
    try (PrintWriter csv =
        new PrintWriter(
            Files.newBufferedWriter(out.resolve("samples.csv"), StandardCharsets.UTF_8))) {
      csv.println(SoakSample.csvHeader());
      csv.flush();
      OUT.println(SoakSample.csvHeader());
      for (int minute = 1; minute <= minutes; minute++) {
        final long due = loadStart + Duration.ofMinutes(minute).toNanos();
        for (long wait = due - System.nanoTime(); wait > 0; wait = due - System.nanoTime()) {
          LockSupport.parkNanos(Math.min(wait, Duration.ofSeconds(5).toNanos()));
          run.requireRunning();
          load.requireRunning();
        }
        if (minute < warmupMinutes) {
          sampler.mark();
          continue;
        }
        final SoakSample sample = sampler.sample((System.nanoTime() - loadStart) / 60e9);
        samples.add(sample);
        csv.println(sample.csvRow());
        csv.flush();
        OUT.println(sample.csvRow());
      }
    }
    return samples;
  }

  /** Once the load stopped: the engine's runtime records must show every leaf's final state. */
  private static void finalCheck(
      final EngineRun run, final RuntimeWatcher watcher, final Workload workload) {
    final long stopped = System.nanoTime();
    watcher.target(workload.leafUsed());
    final long deadline = stopped + FINAL_CATCH_UP.toNanos();
    while (watcher.caughtUpAt() == 0 && System.nanoTime() < deadline) {
      LockSupport.parkNanos(Duration.ofMillis(50).toNanos());
    }
    final long caughtUp = watcher.caughtUpAt();
    OUT.printf(
        Locale.ROOT,
        "after the load: %s; records rejected %,.0f, inputs dropped by snapshots %,.0f, eviction"
            + " commands %,.0f%n",
        caughtUp != 0
            ? String.format(
                Locale.ROOT,
                "every leaf's runtime shows its final used cpu %.1f s after the last event",
                Math.max(0, caughtUp - stopped) / 1e9)
            : "DID NOT catch up: " + watcher.mismatches() + " leaves behind after 60 s",
        run.counterSum(EngineMetrics.RECORDS_REJECTED),
        run.counterSum(EngineMetrics.SNAPSHOT_DROPPED),
        run.counterSum(EngineMetrics.EVICTIONS));
  }

  private static void report(
      final Path out,
      final List<SoakSample> samples,
      final int rate,
      final int segmentMib,
      final WorkloadShape shape,
      final int minutes)
      throws IOException {
    final Map<SoakMetric, Double> slack = new HashMap<>();
    // One segment: a topic's size steps by a segment as it rolls and is compacted.
    slack.put(SoakMetric.CHANGELOGS, (double) segmentMib);
    slack.put(SoakMetric.TOPICS, (double) segmentMib);
    // One second of events: committed offsets lag by up to a commit's worth of records.
    slack.put(SoakMetric.LAG, (double) rate);
    final SoakVerdict verdict = SoakVerdict.of(samples, slack);
    OUT.println();
    OUT.printf(
        Locale.ROOT,
        "flat: the mean of the last quarter of the samples within +/-%.0f %% of the second"
            + " quarter's, or within the series' absolute slack, whichever is larger%n",
        100 * SoakMetric.RELATIVE_TOLERANCE);
    verdict.print(OUT, samples.get(0), samples.get(samples.size() - 1));
    OUT.println();
    OUT.println(
        verdict.allFlat()
            ? "verdict: every series is flat after the warm-up"
            : "verdict: NOT FLAT: "
                + verdict.lines().stream()
                    .filter(line -> !line.flat())
                    .map(line -> line.metric().label())
                    .toList());
    final Path png = out.resolve("soak.png");
    SoakChart.write(
        samples,
        verdict,
        String.format(
            Locale.ROOT,
            "quotaflow soak: %d min, %,d pod events/s, %d clusters x %d groups, %,d pods,"
                + " exactly_once_v2, one group flapping",
            minutes,
            rate,
            shape.clusters(),
            shape.groupsPerCluster(),
            shape.pods()),
        png);
    OUT.println("samples: " + out.resolve("samples.csv") + ", chart: " + png);
  }

  private static Map<String, Integer> options(final String[] args) {
    final Map<String, Integer> options = new HashMap<>();
    if (args.length % 2 != 0) {
      throw new IllegalArgumentException("expected --name value pairs");
    }
    for (int i = 0; i < args.length; i += 2) {
      if (!args[i].startsWith("--")) {
        throw new IllegalArgumentException("expected --name value, got " + args[i]);
      }
      options.put(args[i].substring(2), Integer.parseInt(args[i + 1].replace("_", "")));
    }
    return options;
  }
}
