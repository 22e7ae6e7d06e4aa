package io.quotaflow.bench.pipeline;

import io.quotaflow.broker.EmbeddedKafkaBroker;
import io.quotaflow.topics.TopicCatalogue;
import io.quotaflow.topics.TopicProvisioner;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
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
    final Map<String, Integer> options = PipelineOptions.parse(args);
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
    final Map<String, String> engineSettings = PipelineOptions.engineSettings(options);
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
      final WorkloadFill.Fill fill =
          WorkloadFill.write(servers, topics, workload, byCluster, heartbeats);
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
      final List<FloorRuns.Floor> floors = new ArrayList<>();
      FloorRuns.Floor aloFloor = null;
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
          FloorRuns.floor(
              servers, topics, EOS, floorShape, work.resolve("warm"), fill.pods(), limit);
        }
        for (final FloorRun.Shape floorShape : FloorRun.Shape.values()) {
          floors.add(FloorRuns.floor(servers, topics, EOS, floorShape, work, fill.pods(), limit));
        }
        aloFloor = FloorRuns.floor(servers, topics, ALO, inputPath, work, fill.pods(), limit);
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
        final WorkloadFill.Fill scaleFill =
            WorkloadFill.write(servers, scaleTopics, scaled, byCluster, heartbeats);
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
      final List<FloorRuns.IoFloor> ioFloors = new ArrayList<>();
      if (ioMatched) {
        // Last, after every measured engine run, so that no floor runs between the engine's warm-up
        // and measured runs; one unreported pass first, as for the other floors. Each matches the
        // writes of the engine's measured run with the same guarantee. The exactly_once_v2 one
        // stops
        // after as many input records as that run read (the topics now also hold the latency
        // phase's records, which come last).
        OUT.println("I/O-matched floor, first pass (not reported):");
        FloorRuns.ioFloor(
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
            FloorRuns.ioFloor(
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
            FloorRuns.ioFloor(
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
      PipelineReport.print(
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

  static void provision(final String servers, final TopicCatalogue topics, final int partitions) {
    try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, servers))) {
      new TopicProvisioner(admin, Duration.ofSeconds(30))
          .provision(topics.all(), partitions, (short) 1);
    }
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
    Measured.printCpuPerEvent(OUT, timing, podRecords);
    return measured;
  }

  /** The topics the engine writes (the dead-letter topic included: it should stay empty). */
  private static List<String> engineOutputTopics(final TopicCatalogue topics) {
    return List.of(
        topics.runtime().name(),
        topics.podClasses().name(),
        topics.evictions().name(),
        topics.rejected().name());
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

  static void deleteQuietly(final Path dir) {
    try (var paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (final IOException e) {
      OUT.println("could not delete " + dir + ": " + e.getMessage());
    }
  }
}
