package io.quotaflow.source;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.quotaflow.quota.SpecProblem;
import io.quotaflow.schemas.SourceMarker;
import io.quotaflow.topics.SourceMarkers;
import io.quotaflow.topics.WriterHeaders;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes one kind of object of one cluster: the informer's events become records of the kind's
 * topic, keyed by cluster.
 *
 * <p>Level-triggered: an event only says which key to look at; what is written is the informer's
 * current object for that key (a tombstone when there is none), and only when its bytes differ from
 * what the topic holds, so resyncs cost no writes. Every write for a key goes through one lock, so
 * the producer receives a key's records in the order the cluster's state changed.
 *
 * <p>{@link #reconcile()} brings the topic in line with the informer after a (re)list: keys the
 * topic holds a value for but the cluster no longer has get a tombstone (deletes missed while the
 * source was down or the watch was broken), and writes that failed are repeated.
 */
final class ResourcePublisher<T extends HasMetadata, K, V> implements ResourceEventHandler<T> {

  private static final Logger LOG = LoggerFactory.getLogger(ResourcePublisher.class);

  private final String cluster;
  private final SourceKind<T, K, V> kind;
  private final Function<K, Optional<T>> current;
  private final BooleanSupplier synced;
  private final Producer<byte[], byte[]> producer;
  private final SentRecords<K> sent;
  private final SourceMetrics metrics;
  private final Executor reconciler;
  private final Supplier<Collection<T>> objects;
  // Who writes: every record carries it in its headers (issue 40.12).
  private volatile WriterHeaders.Writer writer = new WriterHeaders.Writer(Optional.empty(), 0L);
  // Set when a marker could not be written: the topic may miss records written before it.
  private volatile boolean markerFailed;
  // A snapshot whose start marker is written (before the informer's first list), and the keys
  // written since: the snapshot after the list need not write them again. Guarded by this.
  private long openEpoch = -1;
  private final Set<K> writtenSinceOpen = new HashSet<>();

  /**
   * @param cluster the cluster name in every key
   * @param kind what is watched and how it maps
   * @param current the cluster's current object of a key, as the informer holds it
   * @param synced whether the informer has listed at least once
   * @param producer where records go; its callbacks must not wait for this publisher
   * @param sent what the topic holds, seeded from the topic at start
   * @param metrics counters of this cluster and kind
   * @param reconciler runs reconciliations requested by the informer (never on its own thread)
   * @param objects every object the informer holds now, for snapshots
   */
  ResourcePublisher(
      final String cluster,
      final SourceKind<T, K, V> kind,
      final Function<K, Optional<T>> current,
      final BooleanSupplier synced,
      final Producer<byte[], byte[]> producer,
      final SentRecords<K> sent,
      final SourceMetrics metrics,
      final Executor reconciler,
      final Supplier<Collection<T>> objects) {
    this.cluster = Objects.requireNonNull(cluster, "cluster");
    this.kind = Objects.requireNonNull(kind, "kind");
    this.current = Objects.requireNonNull(current, "current");
    this.synced = Objects.requireNonNull(synced, "synced");
    this.producer = Objects.requireNonNull(producer, "producer");
    this.sent = Objects.requireNonNull(sent, "sent");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    this.reconciler = Objects.requireNonNull(reconciler, "reconciler");
    this.objects = Objects.requireNonNull(objects, "objects");
  }

  @Override
  public void onAdd(final T object) {
    publishCurrent(object);
  }

  @Override
  public void onUpdate(final T oldObject, final T newObject) {
    publishCurrent(newObject);
  }

  @Override
  public void onDelete(final T object, final boolean deletedFinalStateUnknown) {
    // The final state may be stale (a delete seen only by a relist); the key is all that matters.
    publishCurrent(object);
  }

  /**
   * After every list, the first and each relist, the informer's store is complete: the topic is
   * brought in line with it by a snapshot (or a reconciliation when snapshots are not wired).
   */
  @Override
  public void onList(final String resourceVersion, final boolean remainedEmpty) {
    reconciler.execute(afterList);
  }

  private volatile Runnable afterList = this::reconcile;

  /** Runs {@code action} after every list instead of a reconciliation (a snapshot). */
  void afterEveryList(final Runnable action) {
    this.afterList = Objects.requireNonNull(action, "action");
  }

  /**
   * Writes a heartbeat marker (see {@code SourceMarker}): every change this publisher handed to the
   * producer before it is on the partition before it. Not written before the first list.
   *
   * @return whether a heartbeat was handed to the producer
   */
  synchronized boolean heartbeat(final Instant at, final String source) {
    if (!synced.getAsBoolean()) {
      return false;
    }
    sendMarker(SourceMarkers.heartbeat(cluster, at, source));
    return true;
  }

  /**
   * Writes a marker saying the source no longer watches this kind in the cluster (see {@code
   * SourceMarker}): the engine then stops judging the kind's freshness by its markers.
   */
  synchronized void retire(final Instant at, final String source) {
    sendMarker(SourceMarkers.retired(cluster, at, source));
  }

  /**
   * Has every record written from now on carry {@code writer}'s headers (the cluster's identity and
   * the writer's epoch); set before the first write.
   */
  void writtenBy(final WriterHeaders.Writer writer) {
    this.writer = Objects.requireNonNull(writer, "writer");
  }

  /** Whether a marker failed to be written since {@link #clearMarkerFailure}. */
  boolean markerFailed() {
    return markerFailed;
  }

  /** Forgets an earlier failed marker (a snapshot since wrote the whole state again). */
  void clearMarkerFailure() {
    markerFailed = false;
  }

  /**
   * Writes the start marker of the snapshot that will follow the informer's first list, so that the
   * list's own writes count in it and that snapshot writes only the objects they did not.
   */
  synchronized void openSnapshot(final Instant at, final String source) {
    openEpoch = at.toEpochMilli();
    writtenSinceOpen.clear();
    sendMarker(SourceMarkers.snapshotStart(cluster, openEpoch, at, source));
  }

  /**
   * Starts a snapshot: a start marker (unless {@link #openSnapshot} wrote it), every object the
   * informer holds written again (even when the topic holds it already; not when written since an
   * open start marker), a tombstone for every key the topic may hold that the cluster no longer
   * has. Its end marker is written by {@link #endSnapshot} once all of it is acknowledged.
   *
   * @return the snapshot's writes; empty before the informer's first list
   */
  synchronized Optional<PendingSnapshot> startSnapshot(final Instant at, final String source) {
    if (!synced.getAsBoolean()) {
      return Optional.empty();
    }
    final boolean open = openEpoch >= 0;
    final long epoch = open ? openEpoch : at.toEpochMilli();
    // A HashSet, not Set.copyOf: see SentRecords.keys.
    final Set<K> alreadyWritten = open ? new HashSet<>(writtenSinceOpen) : Set.of();
    openEpoch = -1;
    writtenSinceOpen.clear();
    final List<Future<RecordMetadata>> writes = new ArrayList<>();
    Future<RecordMetadata> startMarker = null;
    if (!open) {
      startMarker = sendMarker(SourceMarkers.snapshotStart(cluster, epoch, at, source));
      writes.add(startMarker);
    }
    final Set<K> present = new HashSet<>();
    final String topic = kind.topic().name();
    for (final T object : objects.get()) {
      // The key's current object, not each object: of namesakes (ElasticQuotas, one group per
      // name) only the one that stands for the name is written, and none when none may (issue 39).
      final Optional<T> now = current.apply(kind.map(cluster, object).key());
      if (now.isEmpty()) {
        continue;
      }
      final SourceRecord<K, V> record = kind.map(cluster, now.get());
      if (!present.add(record.key()) || alreadyWritten.contains(record.key())) {
        continue;
      }
      final byte[] value = kind.topic().valueSerializer().serialize(topic, record.value());
      sent.wrote(record.key(), value);
      writes.add(send(record.key(), value));
    }
    for (final K key : sent.keys()) {
      if (!present.contains(key)) {
        sent.tombstoned(key);
        metrics.tombstone();
        writes.add(send(key, null));
      }
    }
    metrics.snapshot();
    return Optional.of(
        new PendingSnapshot(epoch, present.size(), writes, Optional.ofNullable(startMarker)));
  }

  /**
   * Writes the end marker of {@code snapshot} if every one of its writes was acknowledged within
   * {@code timeout}; otherwise writes nothing (a reader then keeps what it has, and the next
   * snapshot tries again).
   *
   * @return whether the end marker was handed to the producer
   */
  boolean endSnapshot(final PendingSnapshot snapshot, final Duration timeout, final String source)
      throws InterruptedException {
    final long deadline = System.nanoTime() + timeout.toNanos();
    for (final Future<RecordMetadata> write : snapshot.writes()) {
      try {
        write.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (final ExecutionException | TimeoutException e) {
        LOG.warn(
            "cluster {}: snapshot {} of {} not written whole ({}); no end marker, the next"
                + " snapshot tries again",
            cluster,
            snapshot.epoch(),
            kind.name(),
            e.toString());
        return false;
      }
    }
    synchronized (this) {
      sendMarker(
          SourceMarkers.snapshotEnd(
              cluster, snapshot.epoch(), snapshot.objects(), Instant.now(), source));
    }
    LOG.info(
        "cluster {}: snapshot {} of {} written, {} objects",
        cluster,
        snapshot.epoch(),
        kind.name(),
        snapshot.objects());
    return true;
  }

  /**
   * A snapshot whose records were handed to the producer.
   *
   * @param epoch its epoch (start time)
   * @param objects how many objects it re-sent
   * @param writes the producer's futures of its records, the start marker first
   * @param startMarker the write of its start marker; empty when {@link #openSnapshot} wrote it
   */
  record PendingSnapshot(
      long epoch,
      int objects,
      List<Future<RecordMetadata>> writes,
      Optional<Future<RecordMetadata>> startMarker) {}

  /**
   * Tombstones every key the topic may hold that the cluster no longer has, and repeats failed
   * writes. Does nothing before the informer's first list: an empty store is not an empty cluster.
   *
   * @return the number of records written
   */
  synchronized int reconcile() {
    if (!synced.getAsBoolean()) {
      return 0;
    }
    int written = 0;
    for (final K key : sent.keys()) {
      final Optional<T> now = current.apply(key);
      if (now.isEmpty() || sent.isUnconfirmed(key)) {
        written += publish(key, now) ? 1 : 0;
      }
    }
    if (written > 0) {
      LOG.info("cluster {}: reconciled {}, wrote {} records", cluster, kind.name(), written);
    }
    return written;
  }

  /** Writes the current state of {@code object}'s key again if it changed (a companion changed). */
  void republish(final T object) {
    publishCurrent(object);
  }

  private synchronized void publishCurrent(final T object) {
    final SourceRecord<K, V> event = kind.map(cluster, object);
    publish(event.key(), current.apply(event.key()));
  }

  /** Writes the key's current state if the topic does not already hold it. */
  private boolean publish(final K key, final Optional<T> object) {
    if (object.isEmpty()) {
      return tombstone(key);
    }
    final SourceRecord<K, V> record = kind.map(cluster, object.get());
    final String topic = kind.topic().name();
    final byte[] value = kind.topic().valueSerializer().serialize(topic, record.value());
    if (sent.holds(key, value)) {
      metrics.unchanged();
      return false;
    }
    if (!record.problems().isEmpty()) {
      metrics.malformed();
      LOG.warn(
          "cluster {}: {} has fields that cannot be read; published with them marked: {}",
          cluster,
          kind.describe(key),
          record.problems().stream().map(SpecProblem::toString).collect(Collectors.joining("; ")));
    }
    sent.wrote(key, value);
    metrics.value();
    noteWritten(key);
    send(key, value);
    return true;
  }

  private boolean tombstone(final K key) {
    if (!sent.isLive(key)) {
      return false;
    }
    sent.tombstoned(key);
    metrics.tombstone();
    noteWritten(key);
    send(key, null);
    return true;
  }

  private void noteWritten(final K key) {
    if (openEpoch >= 0) {
      writtenSinceOpen.add(key);
    }
  }

  private Future<RecordMetadata> send(final K key, final byte[] value) {
    final String topic = kind.topic().name();
    final byte[] keyBytes = kind.topic().keySerializer().serialize(topic, key);
    try {
      return producer.send(
          new ProducerRecord<>(topic, null, keyBytes, value, writer.addTo(new RecordHeaders())),
          (metadata, error) -> {
            if (error != null) {
              // The producer has retried until its delivery timeout.
              failed(key, value, error);
            }
          });
    } catch (RuntimeException e) {
      failed(key, value, e);
      return CompletableFuture.failedFuture(e);
    }
  }

  /** Writes a marker record: the kind's marker key, no value, the marker in its header. */
  private Future<RecordMetadata> sendMarker(final SourceMarker marker) {
    final String topic = kind.topic().name();
    final byte[] keyBytes =
        kind.topic().keySerializer().serialize(topic, kind.markerKey(marker.getCluster()));
    final ProducerRecord<byte[], byte[]> record =
        new ProducerRecord<>(
            topic,
            null,
            keyBytes,
            null,
            writer.addTo(new RecordHeaders()).add(SourceMarkers.header(marker)));
    try {
      return producer.send(
          record,
          (metadata, error) -> {
            if (error != null) {
              markerFailed = true;
              metrics.failed();
              LOG.warn(
                  "cluster {}: could not write a {} marker of {}: {}",
                  cluster,
                  marker.getKind(),
                  kind.name(),
                  error.toString());
            }
          });
    } catch (RuntimeException e) {
      markerFailed = true;
      metrics.failed();
      return CompletableFuture.failedFuture(e);
    }
  }

  /** Counts and reports a lost write; the next reconciliation writes the key again. */
  private void failed(final K key, final byte[] value, final Exception error) {
    metrics.failed();
    if (value == null) {
      sent.tombstoneFailed(key);
    } else {
      sent.valueFailed(key, value);
    }
    LOG.error(
        "cluster {}: could not write {} to {} ({}); it will be written again at the next"
            + " reconciliation",
        cluster,
        kind.describe(key),
        kind.topic().name(),
        value == null ? "tombstone" : "value",
        error);
  }
}
