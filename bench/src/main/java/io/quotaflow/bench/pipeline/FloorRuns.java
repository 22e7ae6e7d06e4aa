package io.quotaflow.bench.pipeline;

import io.quotaflow.engine.TopologyNames;
import io.quotaflow.topics.TopicCatalogue;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The floors the pipeline benchmark holds the engine against, one run each: the Kafka Streams floor
 * of an input path ({@link FloorRun}) and the I/O-matched floor ({@link IoMatchedFloorRun}), with
 * what they print while they run.
 */
final class FloorRuns {

  private static final PrintStream OUT = System.out;

  /** One run of the Kafka Streams floor. */
  record Floor(FloorRun.Shape shape, String guarantee, long podRecords, EngineRun.Timing timing) {
    double perSecond() {
      return podRecords / timing.secondsFromStart();
    }
  }

  /** One run of the I/O-matched floor. */
  record IoFloor(String guarantee, long podRecords, EngineRun.Timing timing) {
    double perSecond() {
      return podRecords / timing.secondsFromStart();
    }
  }

  private FloorRuns() {}

  /** One run of the Kafka Streams floor (see {@link FloorRun}) with {@code guarantee}. */
  static Floor floor(
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
      Measured.printCpuPerEvent(OUT, timing, podRecords);
      return floor;
    }
  }

  /** One run of the I/O-matched floor (see {@link IoMatchedFloorRun}) with {@code guarantee}. */
  static IoFloor ioFloor(
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
    Measured.printCpuPerEvent(OUT, timing, podRecords);
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
}
