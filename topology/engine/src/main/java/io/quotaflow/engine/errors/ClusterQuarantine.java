package io.quotaflow.engine.errors;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The clusters whose input broke the engine (a "poison" record: readable, but an exception other
 * than invalid input while applying it, or while computing the cluster): such a cluster is
 * quarantined instead of failing the stream thread, which would stop every instance that took the
 * task over in turn. A quarantined cluster's record goes to the dead-letter topic; its trees are no
 * longer recomputed and it is not reclaimed (its last results stay), while every other cluster goes
 * on. It is released when its task is re-created (a restart or a rebalance rebuilds it from the
 * stores). A cluster whose records come from two clusters under one name is quarantined too, until
 * it is forgotten ({@code ClusterWriterBook}). Gauge {@link #QUARANTINED}, alert {@code
 * QuotaflowClusterQuarantined}. Thread-safe.
 */
public final class ClusterQuarantine {
  /** Gauge of the number of clusters quarantined in this instance. */
  public static final String QUARANTINED = "quotaflow.engine.clusters.quarantined";

  private static final Logger LOG = LoggerFactory.getLogger(ClusterQuarantine.class);

  private final Map<String, String> reasons = new ConcurrentHashMap<>();

  /** A quarantine counted in {@code registry}. */
  public ClusterQuarantine(final MeterRegistry registry) {
    Gauge.builder(QUARANTINED, reasons, Map::size)
        .description(
            "Clusters quarantined because one of their records broke the engine, or two clusters"
                + " write under one name: not recomputed, not reclaimed, until released")
        .strongReference(true)
        .register(Objects.requireNonNull(registry, "registry"));
  }

  /** Quarantines {@code cluster} for {@code reason}. */
  public void quarantine(final String cluster, final String reason) {
    if (reasons.putIfAbsent(cluster, reason) == null) {
      LOG.error(
          "cluster {} quarantined: {}; it is neither recomputed nor reclaimed until released"
              + " (docs/reliability.md)",
          cluster,
          reason);
    }
  }

  /** Whether {@code cluster} is quarantined. */
  public boolean isQuarantined(final String cluster) {
    return reasons.containsKey(cluster);
  }

  /** Why {@code cluster} is quarantined, if it is. */
  public Optional<String> reason(final String cluster) {
    return Optional.ofNullable(reasons.get(cluster));
  }

  /** Releases {@code clusters}, rebuilt from the stores by a re-created task. */
  public void release(final Set<String> clusters) {
    for (final String cluster : clusters) {
      if (reasons.remove(cluster) != null) {
        LOG.info("cluster {} released from quarantine: its task was re-created", cluster);
      }
    }
  }
}
