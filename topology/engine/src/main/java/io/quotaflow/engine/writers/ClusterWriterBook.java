package io.quotaflow.engine.writers;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quotaflow.engine.errors.ClusterQuarantine;
import io.quotaflow.engine.errors.InvalidInputException;
import io.quotaflow.schemas.MarkerKind;
import io.quotaflow.schemas.internal.ClusterEvent;
import io.quotaflow.schemas.internal.ClusterEventKind;
import io.quotaflow.schemas.internal.ClusterWriter;
import io.quotaflow.serde.AvroSerde;
import io.quotaflow.topics.WriterHeaders;
import io.quotaflow.topics.WriterHeaders.Writer;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who writes each cluster's inputs (issue 40.12), from the {@link WriterHeaders} the connectors put
 * on every record: the cluster's identity (its kube-system namespace UID) and the writer's epoch
 * (its leader election term). Decides, before a record reaches the quota trees, whether it may:
 *
 * <ul>
 *   <li>a record naming another identity than the cluster's first is a second cluster under the
 *       same name (two connectors deployments configured with one name, a cluster rebuilt): the
 *       cluster is quarantined ("two clusters named X", alert {@code QuotaflowClusterQuarantined})
 *       and none of its records is applied until it is forgotten, so the two states never mix;
 *   <li>a record of a lower epoch than the highest read is an old leader's (split brain, a paused
 *       process that woke up): dropped and counted ({@link #FENCED}), while the newer writer is
 *       alive. Once the newer writer has been silent for {@code maxSilence} (no marker), a lower
 *       epoch takes over: the Lease was re-created (its term counts from 0 again) or leader
 *       election was turned off, and the only writer left is the one to listen to;
 *   <li>a record without writer headers (connectors of an older release, another application)
 *       passes unjudged;
 *   <li>a {@code FORGOTTEN} marker ({@code quotaflow cluster forget}) forgets the cluster's writers
 *       and ends a quarantine for two identities: the next writer is a new cluster's.
 * </ul>
 *
 * <p>Backed by the changelogged {@value #STORE} store (keyed by cluster name), so a restarted or
 * moved task knows the cluster's identity and epoch and quarantines a conflicted cluster again.
 */
public final class ClusterWriterBook {
  /** The store of each cluster's writers. */
  public static final String STORE = "cluster-writers";

  /** Counter of input records dropped because an older writer wrote them, tag {@code cluster}. */
  public static final String FENCED = "quotaflow.engine.writes.fenced";

  /** The clusters whose fenced-records counter is registered (at zero until a record is). */
  private final Set<String> counted = new HashSet<>();

  private static final Logger LOG = LoggerFactory.getLogger(ClusterWriterBook.class);

  private final KeyValueStore<String, ClusterWriter> store;
  private final ClusterQuarantine quarantine;
  private final MeterRegistry registry;
  private final Duration maxSilence;

  /**
   * @param store the {@value #STORE} store
   * @param quarantine where a cluster with two identities is quarantined
   * @param registry where fenced records are counted
   * @param maxSilence how long the writer of the highest epoch may be silent before a lower epoch
   *     takes over ({@code inputs.max.staleness})
   */
  public ClusterWriterBook(
      final KeyValueStore<String, ClusterWriter> store,
      final ClusterQuarantine quarantine,
      final MeterRegistry registry,
      final Duration maxSilence) {
    this.store = Objects.requireNonNull(store, "store");
    this.quarantine = Objects.requireNonNull(quarantine, "quarantine");
    this.registry = Objects.requireNonNull(registry, "registry");
    this.maxSilence = Objects.requireNonNull(maxSilence, "maxSilence");
  }

  /** The builder of the {@value #STORE} store, changelogged as the processor's others. */
  public static StoreBuilder<KeyValueStore<String, ClusterWriter>> storeBuilder(
      final Function<String, KeyValueBytesStoreSupplier> supplier) {
    return Stores.keyValueStoreBuilder(
        supplier.apply(STORE), Serdes.String(), AvroSerde.forValues(ClusterWriter.class));
  }

  /**
   * Quarantines again every cluster of the store read under two identities: called once the task's
   * quarantines were released, as a re-created task rebuilds its clusters.
   */
  public void restore() {
    try (KeyValueIterator<String, ClusterWriter> all = store.all()) {
      while (all.hasNext()) {
        final KeyValue<String, ClusterWriter> entry = all.next();
        if (!entry.value.getOtherClusterUid().isEmpty()) {
          quarantine.quarantine(
              entry.key, twoClusters(entry.key, entry.value, entry.value.getOtherClusterUid()));
        }
      }
    }
  }

  /**
   * Whether {@code event} of {@code cluster}, a record of the connectors' topics, may be applied.
   *
   * @param headers the record's headers
   * @param timestamp the record's time, epoch milliseconds
   * @throws InvalidInputException when the writer headers cannot be read
   */
  public boolean admit(
      final String cluster, final ClusterEvent event, final Headers headers, final long timestamp) {
    if (isForgotten(event)) {
      forget(cluster);
      return true;
    }
    final Optional<Writer> writer;
    try {
      writer = WriterHeaders.read(headers);
    } catch (final IllegalArgumentException e) {
      throw new InvalidInputException(e.getMessage());
    }
    final ClusterWriter known = store.get(cluster);
    if (known != null && !known.getOtherClusterUid().isEmpty()) {
      // Quarantined for two identities: neither cluster's records go in (restore() re-quarantines).
      quarantine.quarantine(cluster, twoClusters(cluster, known, known.getOtherClusterUid()));
      return false;
    }
    if (writer.isEmpty()) {
      return true;
    }
    final Writer from = writer.get();
    if (counted.add(cluster)) {
      // At zero from the cluster's first writer on: a rate over a series that appears at its first
      // fenced record would miss that record, and the alert would see nothing.
      fencedCounter(cluster);
    }
    final boolean marker = event.getKind() == ClusterEventKind.MARKER;
    if (known == null) {
      store.put(
          cluster,
          new ClusterWriter(
              from.clusterUid().orElse(""), from.epoch(), Instant.ofEpochMilli(timestamp), ""));
      LOG.info("cluster {}: written by {}", cluster, from);
      return true;
    }
    final String identity = known.getClusterUid();
    if (from.clusterUid().isPresent()
        && !identity.isEmpty()
        && !identity.equals(from.clusterUid().get())) {
      final String other = from.clusterUid().get();
      store.put(cluster, new ClusterWriter(identity, known.getEpoch(), known.getSeenAt(), other));
      quarantine.quarantine(cluster, twoClusters(cluster, known, other));
      return false;
    }
    final String kept = identity.isEmpty() ? from.clusterUid().orElse("") : identity;
    final long seenAt = known.getSeenAt().toEpochMilli();
    if (from.epoch() > known.getEpoch()) {
      LOG.info(
          "cluster {}: a new writer, epoch {} after {}: records of earlier epochs are dropped"
              + " from now on",
          cluster,
          from.epoch(),
          known.getEpoch());
      put(cluster, kept, from.epoch(), Math.max(timestamp, seenAt));
      return true;
    }
    if (from.epoch() == known.getEpoch()) {
      if (!kept.equals(identity) || (marker && timestamp > seenAt)) {
        put(cluster, kept, from.epoch(), Math.max(timestamp, seenAt));
      }
      return true;
    }
    if (timestamp - seenAt > maxSilence.toMillis()) {
      LOG.warn(
          "cluster {}: writer epoch {} after {}, whose writer has been silent since {}: the"
              + " lower epoch is taken as the cluster's writer now (Lease re-created, or leader"
              + " election turned off)",
          cluster,
          from.epoch(),
          known.getEpoch(),
          known.getSeenAt());
      put(cluster, kept, from.epoch(), timestamp);
      return true;
    }
    fenced(cluster, from, known);
    return false;
  }

  /** Drops what is known of {@code cluster}'s writers; ends a quarantine for two identities. */
  private void forget(final String cluster) {
    final ClusterWriter known = store.delete(cluster);
    if (known != null && !known.getOtherClusterUid().isEmpty()) {
      quarantine.release(Set.of(cluster));
    }
    if (known != null) {
      LOG.info("cluster {}: forgotten, its next writer is taken as a new cluster's", cluster);
    }
  }

  private Counter fencedCounter(final String cluster) {
    return Counter.builder(FENCED)
        .description(
            "Input records dropped because a writer of an older epoch (an old connectors"
                + " leader) wrote them after a newer one")
        .tag("cluster", cluster)
        .register(registry);
  }

  private void fenced(final String cluster, final Writer from, final ClusterWriter known) {
    final Counter counter = fencedCounter(cluster);
    if (counter.count() == 0) {
      LOG.warn(
          "cluster {}: dropping records of writer epoch {}, an old leader's: epoch {} writes"
              + " the cluster (counted in {})",
          cluster,
          from.epoch(),
          known.getEpoch(),
          FENCED);
    }
    counter.increment();
  }

  private void put(
      final String cluster, final String identity, final long epoch, final long seenAt) {
    store.put(cluster, new ClusterWriter(identity, epoch, Instant.ofEpochMilli(seenAt), ""));
  }

  private static boolean isForgotten(final ClusterEvent event) {
    return event.getKind() == ClusterEventKind.MARKER
        && event.getMarker().map(m -> m.getKind() == MarkerKind.FORGOTTEN).orElse(false);
  }

  private static String twoClusters(
      final String cluster, final ClusterWriter known, final String other) {
    return String.format(
        "two clusters named %s: records of the cluster whose kube-system namespace has UID %s,"
            + " then of another with UID %s; none is applied until the name is given to one"
            + " cluster and the other's state retired (quotaflow cluster forget %s)",
        cluster, known.getClusterUid(), other, cluster);
  }
}
