package io.quotaflow.bench.pipeline;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The pipeline benchmark's closing report: one table of every phase's rate, memory and state, the
 * engine's output and CPU per pod event, latency, scale-out, then each target with met or MISSED.
 */
final class PipelineReport {

  private static final PrintStream OUT = System.out;

  private PipelineReport() {}

  static void print(
      final RawPodConsumer.Throughput raw,
      final Footprint base,
      final List<FloorRuns.Floor> floors,
      final FloorRuns.Floor aloFloor,
      final List<FloorRuns.IoFloor> ioFloors,
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
    final List<FloorRuns.Floor> allFloors = new ArrayList<>(floors);
    if (aloFloor != null) {
      allFloors.add(aloFloor);
    }
    for (final FloorRuns.Floor floor : allFloors) {
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
    for (final FloorRuns.IoFloor floor : ioFloors) {
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
    for (final FloorRuns.IoFloor floor : ioFloors) {
      ioFloorTarget(floor.guarantee().equals("exactly_once_v2") ? eos : alo, floor);
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
  private static void floorShare(final Measured engine, final FloorRuns.Floor floor) {
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
  private static void ioFloorTarget(final Measured engine, final FloorRuns.IoFloor floor) {
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

  private static String mib(final long bytes) {
    return bytes < 0 ? "?" : String.format(Locale.ROOT, "%,.1f MiB", bytes / 1048576.0);
  }
}
