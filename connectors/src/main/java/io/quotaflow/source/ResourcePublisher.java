package io.quotaflow.source;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.quotaflow.quota.SpecProblem;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
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

  /**
   * @param cluster the cluster name in every key
   * @param kind what is watched and how it maps
   * @param current the cluster's current object of a key, as the informer holds it
   * @param synced whether the informer has listed at least once
   * @param producer where records go; its callbacks must not wait for this publisher
   * @param sent what the topic holds, seeded from the topic at start
   * @param metrics counters of this cluster and kind
   * @param reconciler runs reconciliations requested by the informer (never on its own thread)
   */
  ResourcePublisher(
      final String cluster,
      final SourceKind<T, K, V> kind,
      final Function<K, Optional<T>> current,
      final BooleanSupplier synced,
      final Producer<byte[], byte[]> producer,
      final SentRecords<K> sent,
      final SourceMetrics metrics,
      final Executor reconciler) {
    this.cluster = Objects.requireNonNull(cluster, "cluster");
    this.kind = Objects.requireNonNull(kind, "kind");
    this.current = Objects.requireNonNull(current, "current");
    this.synced = Objects.requireNonNull(synced, "synced");
    this.producer = Objects.requireNonNull(producer, "producer");
    this.sent = Objects.requireNonNull(sent, "sent");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    this.reconciler = Objects.requireNonNull(reconciler, "reconciler");
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

  /** After every list, the first and each relist, the informer's store is complete. */
  @Override
  public void onList(final String resourceVersion, final boolean remainedEmpty) {
    reconciler.execute(this::reconcile);
  }

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
    send(key, value);
    return true;
  }

  private boolean tombstone(final K key) {
    if (!sent.isLive(key)) {
      return false;
    }
    sent.tombstoned(key);
    metrics.tombstone();
    send(key, null);
    return true;
  }

  private void send(final K key, final byte[] value) {
    final String topic = kind.topic().name();
    final byte[] keyBytes = kind.topic().keySerializer().serialize(topic, key);
    try {
      producer.send(
          new ProducerRecord<>(topic, keyBytes, value),
          (metadata, error) -> {
            if (error != null) {
              // The producer has retried until its delivery timeout.
              failed(key, value, error);
            }
          });
    } catch (RuntimeException e) {
      failed(key, value, e);
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
