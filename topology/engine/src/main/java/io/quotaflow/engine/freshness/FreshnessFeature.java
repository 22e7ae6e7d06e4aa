package io.quotaflow.engine.freshness;

import io.quotaflow.engine.TopologyNames;
import io.quotaflow.engine.config.EngineConfig;
import io.quotaflow.engine.config.EngineSettings;
import io.quotaflow.engine.store.InputId;
import io.quotaflow.engine.store.InputId.InputKind;
import io.quotaflow.engine.store.StoreKind;
import io.quotaflow.engine.task.ClusterFeature;
import io.quotaflow.engine.task.ClusterTask;
import io.quotaflow.schemas.internal.ClusterEvent;
import io.quotaflow.schemas.internal.ClusterEventKind;
import io.quotaflow.schemas.internal.InputFreshness;
import io.quotaflow.serde.AvroSerde;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The freshness of each cluster's inputs as a feature of the cluster's task: the connectors'
 * markers are noted (an input a finished snapshot did not re-send is dropped as gone), the
 * freshness is published as gauges, and {@link #distrusted} says whether the inputs may be acted on
 * (reclaim waits while they may not).
 */
public final class FreshnessFeature implements ClusterFeature {
  private static final Logger LOG = LoggerFactory.getLogger(FreshnessFeature.class);
  private static final Duration GAUGE_INTERVAL = Duration.ofSeconds(5);

  private final Duration maxStaleness;
  private final boolean markersRequired;
  private final StoreKind kind;
  // The clusters whose reclaim is suspended, so that a change is logged once.
  private final Set<String> suspended = new HashSet<>();
  private ClusterTask task;
  private InputFreshnessBook book;

  /** Freshness as {@code config} judges it, its store of {@code kind}. */
  public FreshnessFeature(final EngineConfig config, final StoreKind kind) {
    this.maxStaleness = config.get(EngineSettings.INPUTS_MAX_STALENESS);
    this.markersRequired = config.get(EngineSettings.INPUTS_MARKERS_REQUIRED);
    this.kind = kind;
  }

  @Override
  public Set<StoreBuilder<?>> stores() {
    return Set.of(
        Stores.keyValueStoreBuilder(
            kind.supplier(TopologyNames.INPUT_FRESHNESS_STORE),
            InputId.serde(),
            AvroSerde.forValues(InputFreshness.class)));
  }

  @Override
  public void init(final ClusterTask task) {
    this.task = task;
    suspended.clear();
    book =
        new InputFreshnessBook(
            task.context().getStateStore(TopologyNames.INPUT_FRESHNESS_STORE),
            maxStaleness,
            markersRequired);
    book.restore();
  }

  @Override
  public void schedule(final ClusterTask task) {
    task.schedule(GAUGE_INTERVAL, this::gauge);
  }

  /**
   * A connectors' marker: freshness is noted; at the end of a snapshot whose start this task read,
   * the cluster's inputs of that kind not written since the start are gone from the cluster (their
   * delete was lost, or their tombstone removed by compaction before it was read) and are dropped.
   * The marker goes on to the task, which paces its recomputations by it.
   */
  @Override
  public boolean offered(final Record<String, ClusterEvent> record, final long now) {
    final ClusterEvent event = record.value();
    if (event.getKind() != ClusterEventKind.MARKER) {
      return false;
    }
    final String cluster = record.key();
    final InputKind kind;
    try {
      kind = InputKind.valueOf(event.getName());
    } catch (final IllegalArgumentException e) {
      LOG.warn("cluster {}: ignoring a marker about unknown inputs {}", cluster, event.getName());
      return false;
    }
    task.hold(cluster);
    event
        .getMarker()
        .flatMap(
            marker ->
                book.marker(
                    cluster,
                    kind,
                    marker,
                    event.getSourceTopic(),
                    event.getSourcePartition(),
                    event.getSourceOffset(),
                    record.timestamp(),
                    now))
        .ifPresent(start -> dropNotResent(cluster, kind, start));
    return false;
  }

  private void dropNotResent(
      final String cluster, final InputKind kind, final InputFreshnessBook.SnapshotStart start) {
    // Only inputs read from the snapshot's own partition are ordered against its start.
    final List<InputId> gone =
        task.dropInputs(
            cluster,
            kind,
            written ->
                written.getSourceTopic().equals(start.topic())
                    && written.getSourcePartition() == start.partition()
                    && written.getSourceOffset() < start.offset());
    if (!gone.isEmpty()) {
      LOG.warn(
          "cluster {}: snapshot {} did not re-send {} {} inputs, dropped as gone: {}",
          cluster,
          start.epoch(),
          gone.size(),
          kind.name().toLowerCase(),
          gone.size() <= 10 ? gone : gone.subList(0, 10) + " ...");
    }
    task.metrics().freshness().snapshotDropped(cluster, kind.name().toLowerCase(), gone.size());
  }

  /** Publishes how fresh each held cluster's inputs are. */
  private void gauge(final long timestamp) {
    final Instant now = Instant.ofEpochMilli(timestamp);
    for (final String cluster : task.clusters()) {
      task.metrics()
          .freshness()
          .freshness(
              cluster,
              book.staleness(cluster, now).orElse(null),
              distrusted(cluster, now).isPresent());
      book.skew(cluster).ifPresent(skew -> task.metrics().freshness().clockSkew(cluster, skew));
    }
  }

  /** Why {@code cluster}'s inputs may not be acted on at {@code now}, logged when it changes. */
  public Optional<String> distrusted(final String cluster, final Instant now) {
    final Optional<String> quarantined =
        task.metrics().quarantine().reason(cluster).map(reason -> "quarantined: " + reason);
    final Optional<String> why =
        quarantined.isPresent() ? quarantined : book.distrust(cluster, now);
    final boolean suspend = why.isPresent();
    if (suspend != suspended.contains(cluster)) {
      if (suspend) {
        suspended.add(cluster);
        LOG.warn("cluster {}: reclaim suspended: {}", cluster, why.get());
      } else {
        suspended.remove(cluster);
        LOG.info("cluster {}: inputs fresh again, reclaim resumes", cluster);
      }
    }
    return why;
  }

  @Override
  public void close() {
    suspended.clear();
  }
}
