package io.quotaflow.bench.pipeline;

import io.quotaflow.broker.EmbeddedKafkaBroker;
import io.quotaflow.engine.TopologyNames;
import io.quotaflow.topics.SourceMarkers;
import io.quotaflow.topics.TopicCatalogue;
import io.quotaflow.topics.TopicProvisioner;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntFunction;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.TopicPartition;

/**
 * The pipeline benchmark: an in-process broker, the catalogue's topics filled with a generated
 * workload, then in one run (1) a plain consumer's throughput over the pod topic, and what a
 * minimal Kafka Streams application of the engine's input shape reaches ({@link FloorRun}) and the
 * I/O-matched floor ({@link IoMatchedFloorRun}: the engine's input path plus as many records of the
 * same sizes written to stores and topics as the engine's measured run of the same guarantee wrote,
 * read back from the broker, see {@link IoProfile}; run last; the pipeline's ratio target, >= 75 %,
 * is against it), (2) the engine's throughput over the same records with {@code exactly_once_v2}
 * and with {@code at_least_once} (fresh application id each), (3) latency from a pod event's send
 * time to the runtime record it causes at a fixed offered load. Prints a table and the targets. Run
 * by bench/run-pipeline-bench.sh; every wait is bounded.
 *
 * <p>Options (all {@code --name value}): clusters, groups (per cluster), pods (in all), updates,
 * partitions, rate (events/s), latency-seconds, warmup-seconds, max-seconds (per engine run); and,
 * to try a setting, commit-interval-ms, threads (stream threads), max-task-idle-ms, recompute-ms,
 * batch-size (the engine producer's), fetch-min-bytes (its consumers'), partitioned-inputs 0 (the
 * inputs written by key and read through the repartition hop; 1, the default, writes them through
 * ClusterPartitioner and runs the engine's default topology), backlog-ms, history 0 (without the
 * history store of issue 30); engine-warmups N runs N unreported engine runs first (default: until
 * steady, see {@link WarmUp}); floor 0 skips the Kafka Streams floor runs ({@link FloorRun}), made
 * before them (one unreported pass, then the measured one) so that the engine's measured runs
 * follow its own warm-up runs, and the I/O-matched floor runs, made after every engine run for the
 * same reason. The output starts with the CPU's model name, family and model.
 */
public final class PipelineBench {
  private static final String PREFIX = "bench.";
  private static final String SCALE_PREFIX = "bench-scale.";
  private static final String EOS = "exactly_once_v2";
  private static final String ALO = "at_least_once";
  private static final PrintStream OUT = System.out;

  private PipelineBench() {}

  /** Runs the benchmark; see the class comment for the options. */
  public static void main(final String[] args) throws Exception {
    final Map<String, Integer> options = options(args);
    final WorkloadShape shape =
        new WorkloadShape(
            options.getOrDefault("clusters", 10),
            options.getOrDefault("groups", 1_000),
            options.getOrDefault("pods", 100_000),
            options.getOrDefault("updates", 400_000));
    final int partitions = options.getOrDefault("partitions", 6);
    final int rate = options.getOrDefault("rate", 2_000);
    final Duration latencySeconds = Duration.ofSeconds(options.getOrDefault("latency-seconds", 30));
    final Duration warmup = Duration.ofSeconds(options.getOrDefault("warmup-seconds", 5));
    final Duration limit = Duration.ofSeconds(options.getOrDefault("max-seconds", 180));
    final Map<String, String> engineSettings = engineSettings(options);
    // As the engine's default inputs.partitioned.by.cluster: written through ClusterPartitioner.
    final boolean byCluster = options.getOrDefault("partitioned-inputs", 1) != 0;
    final Path work = Files.createTempDirectory("quotaflow-pipeline-bench");
    printCpu();
    OUT.printf(
        Locale.ROOT,
        "workload: %d clusters x %d groups, %,d pods, %,d pod updates; %d partitions%n",
        shape.clusters(),
        shape.groupsPerCluster(),
        shape.pods(),
        shape.updates(),
        partitions);
    OUT.println("engine settings beyond the defaults: " + engineSettings);

    try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder().build().start()) {
      final String servers = broker.bootstrapServers();
      final TopicCatalogue topics = TopicCatalogue.withPrefix(PREFIX);
      provision(servers, topics, partitions);
      final Workload workload = new Workload(shape);
      final boolean heartbeats = options.getOrDefault("heartbeats", 0) != 0;
      final Fill fill = fill(servers, topics, workload, byCluster, heartbeats);
      OUT.printf(
          Locale.ROOT,
          "filled: %,d quotas, %,d nodes, %,d pod records in %.1f s%n",
          fill.quotas(),
          fill.nodes(),
          fill.pods(),
          fill.seconds());
      final long inputs = fill.quotas() + fill.nodes() + fill.pods();

      final RawPodConsumer raw = new RawPodConsumer(servers, topics);
      final RawPodConsumer.Throughput rawCold = raw.read(fill.pods(), limit);
      final RawPodConsumer.Throughput rawWarm = raw.read(fill.pods(), limit);
      OUT.printf(
          Locale.ROOT,
          "raw consumer: %,.0f records/s (first pass %,.0f)%n",
          rawWarm.perSecond(),
          rawCold.perSecond());
      final Footprint base = Footprint.now(null);

      // The floor with the steps every engine input takes: the hop only without partitioned inputs.
      final FloorRun.Shape inputPath =
          byCluster ? FloorRun.Shape.STORE : FloorRun.Shape.REPARTITION_AND_STORE;
      final List<Floor> floors = new ArrayList<>();
      Floor aloFloor = null;
      final boolean floorRuns = options.getOrDefault("floor", 1) != 0;
      // The I/O-matched floor matches the writes of the engine's measured runs, read back from the
      // broker after each (a separate profile run wrote 37 % more records in one short trial, its
      // cold start classing pods before their groups had arrived).
      final boolean ioMatched = floorRuns && byCluster;
      if (floorRuns && !byCluster) {
        OUT.println(
            "I/O-matched floor: only with inputs partitioned by cluster (the default), skipped");
      }
      if (floorRuns) {
        // Before the engine's runs, so that the engine is measured right after its own warm-up
        // runs: with the floors in between (as until 2026-11-26) the JIT, on the same two cores,
        // recompiled the code they share (Kafka Streams, the clients, HashMap) for the engine's
        // measured run. One unreported pass first, so the floors too are measured warm.
        OUT.println("Kafka Streams floors, first pass (not reported):");
        for (final FloorRun.Shape floorShape : FloorRun.Shape.values()) {
          floor(servers, topics, EOS, floorShape, work.resolve("warm"), fill.pods(), limit);
        }
        for (final FloorRun.Shape floorShape : FloorRun.Shape.values()) {
          floors.add(floor(servers, topics, EOS, floorShape, work, fill.pods(), limit));
        }
        aloFloor = floor(servers, topics, ALO, inputPath, work, fill.pods(), limit);
      }

      final WarmUp warmUp = WarmUp.of(options.get("engine-warmups"));
      OUT.println("engine warm-up runs (exactly_once_v2, not reported): " + warmUp.describe());
      final List<Double> warmUpCpu = new ArrayList<>();
      while (warmUp.another(warmUpCpu)) {
        // Not reported: the measured runs then run compiled code, as the raw consumer's second
        // pass does. On two cores the JIT's queue needs several runs to drain.
        final int w = warmUpCpu.size() + 1;
        OUT.printf("warm-up run %d of the engine (exactly_once_v2), not reported:%n", w);
        try (RuntimeWatcher watcher = new RuntimeWatcher(servers, topics, workload);
            EngineRun run =
                new EngineRun(
                    servers,
                    PREFIX,
                    partitions,
                    EOS,
                    work.resolve("state-warmup-" + w),
                    engineSettings)) {
          warmUpCpu.add(
              measure(run, watcher, topics, servers, inputs, fill.pods(), limit).cpuPerEvent());
        }
      }
      OUT.printf(
          Locale.ROOT,
          "warm-up: %d runs, whole-process CPU per pod event %s microseconds%n",
          warmUpCpu.size(),
          warmUpCpu.stream().map(c -> String.format(Locale.ROOT, "%.1f", c)).toList());

      final Measured eos;
      final LatencyRun.Result latency;
      IoProfile eosIo = null;
      try (RuntimeWatcher watcher = new RuntimeWatcher(servers, topics, workload);
          EngineRun run =
              new EngineRun(
                  servers, PREFIX, partitions, EOS, work.resolve("state-eos"), engineSettings)) {
        final Map<TopicPartition, Long> outputsAtStart =
            IoProfile.endOffsets(servers, engineOutputTopics(topics));
        eos = measure(run, watcher, topics, servers, inputs, fill.pods(), limit);
        if (ioMatched) {
          // Before the latency phase adds writes; the transactions of the last records committed.
          eosIo =
              IoProfile.measure(
                  servers,
                  run.applicationId(),
                  Map.of(),
                  engineOutputTopics(topics),
                  outputsAtStart,
                  inputs);
          OUT.println("engine's writes, exactly_once_v2 (read back from the broker):");
          eosIo.print(OUT, "  ");
        }
        try (InputWriter writer = new InputWriter(servers, topics, 0, byCluster)) {
          latency =
              new LatencyRun(workload, writer, watcher)
                  .run(rate, warmup, latencySeconds, Duration.ofSeconds(15));
        }
      }
      final Measured alo;
      // The latency phase added pod records: the topic now holds more than the fill wrote.
      final long extra = latency.sent();
      final Map<TopicPartition, Long> aloOutputsAtStart =
          IoProfile.endOffsets(servers, engineOutputTopics(topics));
      final String aloApplication;
      try (RuntimeWatcher watcher = new RuntimeWatcher(servers, topics, workload);
          EngineRun run =
              new EngineRun(
                  servers, PREFIX, partitions, ALO, work.resolve("state-alo"), engineSettings)) {
        alo = measure(run, watcher, topics, servers, inputs + extra, fill.pods() + extra, limit);
        aloApplication = run.applicationId();
      }
      IoProfile aloIo = null;
      if (ioMatched) {
        // Once closed: without transactions, the last writes are only sure to be sent then.
        aloIo =
            IoProfile.measure(
                servers,
                aloApplication,
                Map.of(),
                engineOutputTopics(topics),
                aloOutputsAtStart,
                inputs + extra);
        OUT.println("engine's writes, at_least_once (read back from the broker):");
        aloIo.print(OUT, "  ");
      }
      final List<Measured> scaleOut = new ArrayList<>();
      final int scaleClusters = options.getOrDefault("scale-clusters", 40);
      if (options.getOrDefault("scale-out", 1) != 0) {
        // The same numbers of groups, pods and updates over more clusters, read by 1, 2 and 4
        // instances of one engine application (each instance its own state directory).
        final TopicCatalogue scaleTopics = TopicCatalogue.withPrefix(SCALE_PREFIX);
        provision(servers, scaleTopics, partitions);
        final Workload scaled =
            new Workload(
                new WorkloadShape(
                    scaleClusters,
                    shape.clusters() * shape.groupsPerCluster() / scaleClusters,
                    shape.pods(),
                    shape.updates()));
        final Fill scaleFill = fill(servers, scaleTopics, scaled, byCluster, heartbeats);
        OUT.printf(
            Locale.ROOT,
            "scale-out: %d clusters x %d groups, filled %,d records in %.1f s%n",
            scaleClusters,
            scaled.shape().groupsPerCluster(),
            scaleFill.quotas() + scaleFill.nodes() + scaleFill.pods(),
            scaleFill.seconds());
        for (final int instances : new int[] {1, 2, 4}) {
          try (RuntimeWatcher watcher = new RuntimeWatcher(servers, scaleTopics, scaled);
              EngineRun run =
                  new EngineRun(
                      servers,
                      SCALE_PREFIX,
                      partitions,
                      EOS,
                      work.resolve("state-scale-" + instances),
                      engineSettings,
                      instances)) {
            OUT.printf("scale-out: %d instance(s), exactly_once_v2:%n", instances);
            scaleOut.add(
                measure(
                        run,
                        watcher,
                        scaleTopics,
                        servers,
                        scaleFill.quotas() + scaleFill.nodes() + scaleFill.pods(),
                        scaleFill.pods(),
                        limit)
                    .withInstances(instances));
          }
        }
      }
      final List<IoFloor> ioFloors = new ArrayList<>();
      if (ioMatched) {
        // Last, after every measured engine run, so that no floor runs between the engine's warm-up
        // and measured runs; one unreported pass first, as for the other floors. Each matches the
        // writes of the engine's measured run with the same guarantee. The exactly_once_v2 one
        // stops
        // after as many input records as that run read (the topics now also hold the latency
        // phase's records, which come last).
        OUT.println("I/O-matched floor, first pass (not reported):");
        ioFloor(
            servers,
            topics,
            partitions,
            EOS,
            work.resolve("warm"),
            engineSettings,
            eosIo,
            inputs,
            fill.pods(),
            limit);
        ioFloors.add(
            ioFloor(
                servers,
                topics,
                partitions,
                EOS,
                work,
                engineSettings,
                eosIo,
                inputs,
                fill.pods(),
                limit));
        ioFloors.add(
            ioFloor(
                servers,
                topics,
                partitions,
                ALO,
                work,
                engineSettings,
                aloIo,
                inputs + extra,
                fill.pods() + extra,
                limit));
      }
      report(
          rawWarm,
          base,
          floors,
          aloFloor,
          ioFloors,
          inputPath,
          eos,
          alo,
          latency,
          rate,
          latencySeconds,
          scaleOut,
          scaleClusters);
    } finally {
      deleteQuietly(work);
    }
  }

  /** As the connectors' default {@code source.heartbeat.interval}. */
  private static final Duration HEARTBEAT_EVERY = Duration.ofSeconds(10);

  private static final String HEARTBEAT_SOURCE = "pipeline-bench";

  /** A heartbeat of every cluster on every input topic. */
  private static void beat(final InputWriter writer, final int clusters) {
    final Instant now = Instant.now();
    for (int c = 0; c < clusters; c++) {
      writer.marker(SourceMarkers.heartbeat(Workload.cluster(c), now, HEARTBEAT_SOURCE));
    }
  }

  private static Map<String, Integer> options(final String[] args) {
    final Map<String, Integer> options = new HashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      if (!args[i].startsWith("--")) {
        throw new IllegalArgumentException("expected --name value, got " + args[i]);
      }
      options.put(args[i].substring(2), Integer.parseInt(args[i + 1].replace("_", "")));
    }
    if (args.length % 2 != 0) {
      throw new IllegalArgumentException("expected --name value pairs");
    }
    return options;
  }

  /** Optional engine settings, to try the effect of one (both runs get them). */
  /** Bench option -> the engine setting it sets, and how the option's number is written. */
  private static final Map<String, Map.Entry<String, IntFunction<String>>> SETTING_OPTIONS =
      Map.of(
          "commit-interval-ms", Map.entry("commit.interval.ms", Integer::toString),
          "threads", Map.entry("num.stream.threads", Integer::toString),
          "max-task-idle-ms", Map.entry("max.task.idle.ms", Integer::toString),
          "batch-size", Map.entry("producer.batch.size", Integer::toString),
          "fetch-min-bytes", Map.entry("consumer.fetch.min.bytes", Integer::toString),
          "partitioned-inputs",
              Map.entry("inputs.partitioned.by.cluster", n -> n != 0 ? "true" : "false"),
          "backlog-ms", Map.entry("recompute.backlog.interval", n -> n + "ms"),
          "recompute-ms", Map.entry("recompute.interval", n -> n + "ms"),
          // Issue 30: the history's window store, on by default; --history 0 measures without it.
          "history", Map.entry("history.enabled", n -> n != 0 ? "true" : "false"));

  private static Map<String, String> engineSettings(final Map<String, Integer> options) {
    final Map<String, String> settings = new TreeMap<>();
    if (options.getOrDefault("heartbeats", 0) != 0) {
      // The engine keeps every cluster's freshness from the markers and requires them, as in a
      // deployment. Its runs start minutes after the inputs were written: a staleness bound of an
      // hour keeps those markers fresh, so reclaim runs as it would on live inputs.
      settings.put("inputs.markers.required", "true");
      settings.put("inputs.max.staleness", "1h");
    }
    SETTING_OPTIONS.forEach(
        (option, setting) -> {
          if (options.containsKey(option)) {
            settings.put(setting.getKey(), setting.getValue().apply(options.get(option)));
          }
        });
    return settings;
  }

  static void provision(final String servers, final TopicCatalogue topics, final int partitions) {
    try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, servers))) {
      new TopicProvisioner(admin, Duration.ofSeconds(30))
          .provision(topics.all(), partitions, (short) 1);
    }
  }

  /**
   * Writes the workload. With {@code heartbeats}, as the connectors write it: each cluster's
   * objects between the start and end markers of its first snapshot, then a heartbeat per cluster
   * every {@link #HEARTBEAT_EVERY} while the updates are written, and one at the end.
   */
  private static Fill fill(
      final String servers,
      final TopicCatalogue topics,
      final Workload workload,
      final boolean byCluster,
      final boolean heartbeats) {
    final long start = System.nanoTime();
    final var quotas = workload.quotas();
    final var nodes = workload.nodes();
    final WorkloadShape shape = workload.shape();
    try (InputWriter writer = new InputWriter(servers, topics, 10, byCluster)) {
      final long epoch = System.currentTimeMillis();
      final Instant started = Instant.ofEpochMilli(epoch);
      if (heartbeats) {
        for (int c = 0; c < shape.clusters(); c++) {
          writer.marker(
              SourceMarkers.snapshotStart(Workload.cluster(c), epoch, started, HEARTBEAT_SOURCE));
        }
      }
      quotas.forEach(writer::quota);
      nodes.forEach(writer::node);
      for (int pod = 0; pod < shape.pods(); pod++) {
        writer.pod(workload.event(pod));
      }
      if (heartbeats) {
        final Instant end = Instant.now();
        for (int c = 0; c < shape.clusters(); c++) {
          writer.marker(
              SourceMarkers.snapshotEnd(Workload.cluster(c), epoch, -1, end, HEARTBEAT_SOURCE));
        }
      }
      long nextBeat = System.nanoTime() + HEARTBEAT_EVERY.toNanos();
      for (int update = 0; update < shape.updates(); update++) {
        writer.pod(workload.event(update % shape.pods()));
        if (heartbeats && update % 1_000 == 0 && System.nanoTime() >= nextBeat) {
          nextBeat += HEARTBEAT_EVERY.toNanos();
          beat(writer, shape.clusters());
        }
      }
      if (heartbeats) {
        beat(writer, shape.clusters());
      }
      writer.flush();
    }
    return new Fill(
        quotas.size(),
        nodes.size(),
        (long) shape.pods() + shape.updates(),
        (System.nanoTime() - start) / 1e9);
  }

  private static Measured measure(
      final EngineRun run,
      final RuntimeWatcher watcher,
      final TopicCatalogue topics,
      final String servers,
      final long inputs,
      final long podRecords,
      final Duration limit) {
    final EngineRun.Timing timing;
    final long classRecords;
    try (RecordCounter classes = new RecordCounter(servers, topics.podClasses().name())) {
      timing = run.runUntilCaughtUp(watcher, inputs, limit);
      classRecords = classes.records();
    } catch (final InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
    final Footprint footprint = Footprint.now(run.stateDir());
    final Measured measured =
        new Measured(
            run.guarantee(),
            podRecords,
            timing,
            footprint,
            watcher.runtimeRecords(),
            classRecords,
            1);
    OUT.printf(
        Locale.ROOT,
        "%s: %s in %.1f s from start (%.1f s from first record read): %,.0f pod events/s;"
            + " %,d runtime records (%.3f per pod event), %,d pod-class records (%.3f per pod"
            + " event); %d leaves not caught up%n",
        run.guarantee(),
        timing.complete() ? "caught up" : "DID NOT catch up",
        timing.secondsFromStart(),
        timing.secondsFromFirstRead(),
        measured.perSecond(),
        watcher.runtimeRecords(),
        (double) watcher.runtimeRecords() / podRecords,
        classRecords,
        (double) classRecords / podRecords,
        watcher.mismatches());
    OUT.printf(Locale.ROOT, "%s: CPU time per pod event (microseconds):%n", run.guarantee());
    printCpuPerEvent(timing, podRecords);
    return measured;
  }

  /** One line per part of the process: its CPU microseconds per pod event. */
  private static void printCpuPerEvent(final EngineRun.Timing timing, final long podRecords) {
    timing
        .cpu()
        .forEach(
            (part, nanos) ->
                OUT.printf(Locale.ROOT, "  %8.1f  %s%n", nanos / 1e3 / podRecords, part));
  }

  /** One run of the Kafka Streams floor (see {@link FloorRun}) with {@code guarantee}. */
  private static Floor floor(
      final String servers,
      final TopicCatalogue topics,
      final String guarantee,
      final FloorRun.Shape shape,
      final Path work,
      final long podRecords,
      final Duration limit) {
    try (FloorRun run =
        new FloorRun(
            servers,
            topics,
            guarantee,
            shape,
            work.resolve("floor-" + guarantee + "-" + shape.name()))) {
      final EngineRun.Timing timing = run.runUntilProcessed(podRecords, limit);
      final Floor floor = new Floor(shape, guarantee, podRecords, timing);
      OUT.printf(
          Locale.ROOT,
          "Kafka Streams floor (%s, %s): %s in %.1f s from start: %,.0f pod events/s;"
              + " CPU time per pod event (microseconds):%n",
          shape.label(),
          guarantee,
          timing.complete() ? "all processed" : "DID NOT finish",
          timing.secondsFromStart(),
          floor.perSecond());
      printCpuPerEvent(timing, podRecords);
      return floor;
    }
  }

  private static void report(
      final RawPodConsumer.Throughput raw,
      final Footprint base,
      final List<Floor> floors,
      final Floor aloFloor,
      final List<IoFloor> ioFloors,
      final FloorRun.Shape inputPath,
      final Measured eos,
      final Measured alo,
      final LatencyRun.Result latency,
      final int rate,
      final Duration latencySeconds,
      final List<Measured> scaleOut,
      final int scaleClusters) {
    OUT.println();
    OUT.println(
        "| phase | pod records | seconds | pod events/s | vs raw | heap after GC | RSS | state dir |");
    OUT.println("|---|---|---|---|---|---|---|---|");
    OUT.printf(
        Locale.ROOT,
        "| raw consumer (read_committed, decoded) | %,d | %.1f | %,.0f | 100 %% | %s | %s | - |%n",
        raw.records(),
        raw.nanos() / 1e9,
        raw.perSecond(),
        mib(base.heapAfterGcBytes()),
        mib(base.rssBytes()));
    final List<Floor> allFloors = new ArrayList<>(floors);
    if (aloFloor != null) {
      allFloors.add(aloFloor);
    }
    for (final Floor floor : allFloors) {
      OUT.printf(
          Locale.ROOT,
          "| Kafka Streams floor, %s: %s%s | %,d | %.1f | %,.0f | %.0f %% | | | |%n",
          floor.guarantee(),
          floor.shape().label(),
          floor.timing().complete() ? "" : " (INCOMPLETE)",
          floor.podRecords(),
          floor.timing().secondsFromStart(),
          floor.perSecond(),
          100 * floor.perSecond() / raw.perSecond());
    }
    for (final IoFloor floor : ioFloors) {
      OUT.printf(
          Locale.ROOT,
          "| I/O-matched floor, %s: input path + the engine's writes%s | %,d | %.1f | %,.0f | %.0f"
              + " %% | | | |%n",
          floor.guarantee(),
          floor.timing().complete() ? "" : " (INCOMPLETE)",
          floor.podRecords(),
          floor.timing().secondsFromStart(),
          floor.perSecond(),
          100 * floor.perSecond() / raw.perSecond());
    }
    for (final Measured m : new Measured[] {eos, alo}) {
      OUT.printf(
          Locale.ROOT,
          "| engine, %s%s | %,d | %.1f (%.1f from first read) | %,.0f (%,.0f) | %.0f %% | %s | %s"
              + " | %s |%n",
          m.guarantee(),
          m.timing().complete() ? "" : " (INCOMPLETE)",
          m.podRecords(),
          m.timing().secondsFromStart(),
          m.timing().secondsFromFirstRead(),
          m.perSecond(),
          m.perSecondFromFirstRead(),
          100 * m.perSecond() / raw.perSecond(),
          mib(m.footprint().heapAfterGcBytes()),
          mib(m.footprint().rssBytes()),
          mib(m.footprint().stateBytes()));
    }
    OUT.println();
    for (final Measured m : new Measured[] {eos, alo}) {
      OUT.printf(
          Locale.ROOT,
          "output per pod event, %s: %.3f runtime records, %.3f pod-class records;"
              + " whole-process CPU %.1f microseconds%n",
          m.guarantee(),
          (double) m.runtimeRecords() / m.podRecords(),
          (double) m.classRecords() / m.podRecords(),
          m.cpuPerEvent());
    }
    OUT.printf(
        Locale.ROOT,
        "latency (exactly_once_v2, %,d events/s for %d s after warm-up): offered %,d, matched %,d,"
            + " superseded %d; p50 %.1f ms, p90 %.1f ms, p99 %.1f ms, p99.9 %.1f ms, max %.1f ms%n",
        rate,
        latencySeconds.toSeconds(),
        latency.offered(),
        latency.matched(),
        latency.superseded(),
        latency.millis(50),
        latency.millis(90),
        latency.millis(99),
        latency.millis(99.9),
        latency.maxMillis());
    OUT.printf(Locale.ROOT, "peak RSS %s%n", mib(alo.footprint().peakRssBytes()));
    if (!scaleOut.isEmpty()) {
      OUT.println();
      OUT.printf(
          Locale.ROOT,
          "scale-out, %d clusters, exactly_once_v2, instances of one application in this JVM on"
              + " one broker:%n",
          scaleClusters);
      OUT.println(
          "| instances | pod events/s (aggregate) | vs one instance | CPU per event (us) |");
      OUT.println("|---:|---:|---:|---:|");
      final double one = scaleOut.get(0).perSecond();
      for (final Measured m : scaleOut) {
        OUT.printf(
            Locale.ROOT,
            "| %d%s | %,.0f | %.2f | %.1f |%n",
            m.instances(),
            m.timing().complete() ? "" : " (INCOMPLETE)",
            m.perSecond(),
            m.perSecond() / one,
            m.cpuPerEvent());
      }
    }
    OUT.println();
    final double eosRate = eos.perSecond();
    OUT.printf(
        Locale.ROOT,
        "target >= 50,000 pod events/s with exactly_once_v2: %,.0f -> %s%n",
        eosRate,
        eosRate >= 50_000 && eos.timing().complete() ? "met" : "MISSED");
    for (final IoFloor floor : ioFloors) {
      ioFloorTarget(floor.guarantee().equals(EOS) ? eos : alo, floor);
    }
    floors.stream()
        .filter(floor -> floor.shape() == inputPath)
        .findFirst()
        .ifPresent(floor -> floorShare(eos, floor));
    if (aloFloor != null) {
      floorShare(alo, aloFloor);
    }
    OUT.printf(
        Locale.ROOT,
        "target p99 <= 250 ms at %,d events/s: %.1f ms -> %s%n",
        rate,
        latency.millis(99),
        latency.millis(99) <= 250 && latency.matched() >= latency.offered() ? "met" : "MISSED");
    OUT.printf(
        Locale.ROOT,
        "(for reference, withdrawn as a target: exactly_once_v2 at %.1f %% of the raw consumer)%n",
        100 * eosRate / raw.perSecond());
  }

  /**
   * The engine's rate against the floor of its own input path, same guarantee, same run: for
   * reference since the target is against the I/O-matched floor (it was >= 60 % of this one).
   */
  private static void floorShare(final Measured engine, final Floor floor) {
    OUT.printf(
        Locale.ROOT,
        "(for reference: the Kafka Streams floor of the input path (%s), %s: %,.0f of %,.0f"
            + " = %.1f %%)%n",
        floor.shape().label(),
        engine.guarantee(),
        engine.perSecond(),
        floor.perSecond(),
        100 * engine.perSecond() / floor.perSecond());
  }

  /** The engine's rate against the I/O-matched floor, same guarantee, same run: the target. */
  private static void ioFloorTarget(final Measured engine, final IoFloor floor) {
    final double share = engine.perSecond() / floor.perSecond();
    OUT.printf(
        Locale.ROOT,
        "target >= 75 %% of the I/O-matched floor (input path + the engine's writes), %s: %,.0f of"
            + " %,.0f = %.1f %% -> %s%n",
        engine.guarantee(),
        engine.perSecond(),
        floor.perSecond(),
        100 * share,
        share >= 0.75 && engine.timing().complete() && floor.timing().complete()
            ? "met"
            : "MISSED");
  }

  /** The topics the engine writes (the dead-letter topic included: it should stay empty). */
  private static List<String> engineOutputTopics(final TopicCatalogue topics) {
    return List.of(
        topics.runtime().name(),
        topics.podClasses().name(),
        topics.evictions().name(),
        topics.rejected().name());
  }

  /** One run of the I/O-matched floor (see {@link IoMatchedFloorRun}) with {@code guarantee}. */
  private static IoFloor ioFloor(
      final String servers,
      final TopicCatalogue topics,
      final int partitions,
      final String guarantee,
      final Path work,
      final Map<String, String> engineSettings,
      final IoProfile engineIo,
      final long inputs,
      final long podRecords,
      final Duration limit) {
    final IoMatchedFloorRun.InputPadding padding =
        IoMatchedFloorRun.InputPadding.of(
            engineIo,
            TopologyNames.CLUSTER_INPUTS_STORE,
            IoProfile.readTopics(
                servers,
                List.of(
                    topics.pods().name(),
                    topics.quotas().name(),
                    topics.nodes().name(),
                    topics.profiles().name())));
    OUT.printf(
        Locale.ROOT,
        "I/O-matched floor (%s): to store the inputs as the engine's %s does, it adds %.1f bytes"
            + " to each key, %.1f to each value%n",
        guarantee,
        TopologyNames.CLUSTER_INPUTS_STORE,
        padding.keyBytes(),
        padding.valueBytes());
    final IoMatchedFloorRun run =
        new IoMatchedFloorRun(
            servers,
            topics,
            partitions,
            guarantee,
            work.resolve("floor-" + guarantee + "-IO_MATCHED"),
            engineSettings,
            engineIo,
            TopologyNames.CLUSTER_INPUTS_STORE,
            padding,
            inputs);
    final EngineRun.Timing timing;
    try (run) {
      timing = run.runUntilProcessed(limit);
    }
    final IoFloor floor = new IoFloor(guarantee, podRecords, timing);
    OUT.printf(
        Locale.ROOT,
        "I/O-matched floor (%s): %s in %.1f s from start: %,.0f pod events/s;"
            + " CPU time per pod event (microseconds):%n",
        guarantee,
        timing.complete() ? "all processed" : "DID NOT finish",
        timing.secondsFromStart(),
        floor.perSecond());
    printCpuPerEvent(timing, podRecords);
    printMatch("engine", engineIo, "I/O-matched floor", run.written());
    return floor;
  }

  /** Records and bytes per output of {@code a} beside {@code b}'s, with the difference. */
  private static void printMatch(
      final String aName, final IoProfile a, final String bName, final IoProfile b) {
    OUT.printf(
        Locale.ROOT,
        "  writes, %s (%,d inputs) -> %s (%,d inputs): records, key+value bytes%n",
        aName,
        a.inputs(),
        bName,
        b.inputs());
    for (final IoProfile.Output output : a.written()) {
      final IoProfile.Output other = b.find(output.kind(), output.name());
      final long records = other == null ? 0 : other.records();
      final long bytes = other == null ? 0 : other.bytes();
      OUT.printf(
          Locale.ROOT,
          "    %-5s %-30s %,10d -> %,10d (%+6.1f %%)  %,12d -> %,12d (%+6.1f %%)%n",
          output.kind().name().toLowerCase(Locale.ROOT),
          output.name(),
          output.records(),
          records,
          difference(output.records(), records),
          output.bytes(),
          bytes,
          difference(output.bytes(), bytes));
    }
    for (final IoProfile.Output output : b.written()) {
      if (a.find(output.kind(), output.name()) == null) {
        OUT.printf(
            Locale.ROOT,
            "    %-5s %-30s (not in %s) %,d records, %,d bytes%n",
            output.kind().name().toLowerCase(Locale.ROOT),
            output.name(),
            aName,
            output.records(),
            output.bytes());
      }
    }
    OUT.printf(
        Locale.ROOT,
        "    %-5s %-30s %,10d -> %,10d (%+6.1f %%)  %,12d -> %,12d (%+6.1f %%)%n",
        "",
        "all",
        a.totalRecords(),
        b.totalRecords(),
        difference(a.totalRecords(), b.totalRecords()),
        a.totalBytes(),
        b.totalBytes(),
        difference(a.totalBytes(), b.totalBytes()));
  }

  private static double difference(final long from, final long to) {
    return from == 0 ? (to == 0 ? 0 : Double.POSITIVE_INFINITY) : 100.0 * (to - from) / from;
  }

  /** The processor's model name, family and model from /proc/cpuinfo, and the processor count. */
  static void printCpu() {
    try {
      final List<String> lines = Files.readAllLines(Path.of("/proc/cpuinfo"));
      OUT.printf(
          Locale.ROOT,
          "cpu: %s (cpu family %s, model %s); %d processors available to the JVM%n",
          cpuField(lines, "model name"),
          cpuField(lines, "cpu family"),
          cpuField(lines, "model"),
          Runtime.getRuntime().availableProcessors());
    } catch (final IOException e) {
      OUT.println("cpu: unknown (" + e.getMessage() + ")");
    }
  }

  /** The value of the first line of /proc/cpuinfo named {@code name}, or "?". */
  private static String cpuField(final List<String> lines, final String name) {
    for (final String line : lines) {
      final int colon = line.indexOf(':');
      if (colon > 0 && line.substring(0, colon).trim().equals(name)) {
        return line.substring(colon + 1).trim();
      }
    }
    return "?";
  }

  private static String mib(final long bytes) {
    return bytes < 0 ? "?" : String.format(Locale.ROOT, "%,.1f MiB", bytes / 1048576.0);
  }

  static void deleteQuietly(final Path dir) {
    try (var paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (final IOException e) {
      OUT.println("could not delete " + dir + ": " + e.getMessage());
    }
  }

  private record Floor(
      FloorRun.Shape shape, String guarantee, long podRecords, EngineRun.Timing timing) {
    double perSecond() {
      return podRecords / timing.secondsFromStart();
    }
  }

  private record IoFloor(String guarantee, long podRecords, EngineRun.Timing timing) {
    double perSecond() {
      return podRecords / timing.secondsFromStart();
    }
  }

  private record Fill(long quotas, long nodes, long pods, double seconds) {}

  private record Measured(
      String guarantee,
      long podRecords,
      EngineRun.Timing timing,
      Footprint footprint,
      long runtimeRecords,
      long classRecords,
      int instances) {
    Measured withInstances(final int count) {
      return new Measured(
          guarantee, podRecords, timing, footprint, runtimeRecords, classRecords, count);
    }

    double perSecond() {
      return podRecords / timing.secondsFromStart();
    }

    double perSecondFromFirstRead() {
      return podRecords / timing.secondsFromFirstRead();
    }

    /** Whole-process CPU microseconds per pod event. */
    double cpuPerEvent() {
      return timing.cpu().get(CpuTime.WHOLE_PROCESS) / 1e3 / podRecords;
    }
  }
}
