package io.quotaflow.bench.pipeline;

import io.quotaflow.topics.SourceMarkers;
import io.quotaflow.topics.TopicCatalogue;
import java.time.Duration;
import java.time.Instant;

/**
 * Fills the input topics with a {@link Workload} before the pipeline benchmark's runs: quotas,
 * nodes, every pod, then the pod updates; with heartbeats, framed by source markers as the
 * connectors write them.
 */
final class WorkloadFill {

  /** What was written, and how long it took. */
  record Fill(long quotas, long nodes, long pods, double seconds) {}

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

  private WorkloadFill() {}

  /**
   * Writes the workload. With {@code heartbeats}, as the connectors write it: each cluster's
   * objects between the start and end markers of its first snapshot, then a heartbeat per cluster
   * every {@link #HEARTBEAT_EVERY} while the updates are written, and one at the end.
   */
  static Fill write(
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
}
